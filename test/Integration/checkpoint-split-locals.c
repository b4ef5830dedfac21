// Split mode (__enzyme_augmentfwd, then __enzyme_reverse) with checkpointed
// time loops whose steps reach the function's own local arrays: A's frame
// is gone when the reverse call runs steps again.
//  - interior: a scratch row `s` that each step fills and reads at s[i+1];
//    at -O2 the step is passed s and s + 1 (a pointer into the middle of
//    the local): both must point into the context's copy of s (before,
//    s + 1 was left pointing into A's dead frame: fuzz --steps-var
//    --scratch --split seed 76060, wrong gradients and segfaults);
//  - swapped: two local buffers swapped through pointers each step; the
//    cells hold addresses of locals, which no copy fixes: not checkpointed
//    in split mode (a remark), taped, right.
// Each with no budget, a budget of one snapshot and of a few, at -O0 and
// -O2, against the same function differentiated without -leantape-checkpoint
// (bitwise) and central differences.
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint %s -o %t.O0 -lm
// RUN: %t.O0
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t.O2 -lm
// RUN: %t.O2
// RUN: env LEANTAPE_REPORT=1 %t.O2 2>&1 >/dev/null | FileCheck %s --check-prefix=REPORT
// The interior case is checkpointed (the swapped one is not):
// REPORT: leantape: checkpointing 6 steps: 1 snapshots of {{[0-9]+}} bytes (tape budget 1 bytes)
// REPORT: leantape: checkpointing 6 steps: {{[2-9]}} snapshots of {{[0-9]+}} bytes (tape budget 1100 bytes)
// REPORT-NOT: checkpointing
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: this loop is not checkpointed in split mode: a step reads pointers to the function's own local arrays

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__enzyme_augmentfwd(void *, ...);
double __enzyme_reverse_out(void *, ...);

enum { N = 12, K = 6 };

/* the step count comes from n, so that -O2 keeps the time loop a loop */
double interior(double *x, double *y, int n) {
  double s[N];
  for (int q = 0; q < N; q++)
    s[q] = 0.1 * y[q];
  for (int t = 0; t < n - N + K; t++) {
    for (int i = 1; i < n - 1; i++)
      s[i] = x[i] + 0.076 * sin(x[i + 1] - x[i - 1]);
    for (int i = 1; i < n - 1; i++)
      x[i] = 0.5 * (s[i] + s[i + 1]);
  }
  return -0.886 * x[7] + -0.061 * y[0] + 0.898 * x[5] + 0.3 * s[N - 1];
}

__attribute__((noinline)) void relax(double *to, const double *from, const double *x, int n) {
  for (int i = 1; i < n - 1; i++)
    to[i] = 0.5 * from[i] + 0.25 * (from[i - 1] + from[i + 1]) + 0.1 * x[i] * x[i];
}

double swapped(double *x, double *y, int n) {
  double b0[N], b1[N], *a = b0, *b = b1;
  for (int q = 0; q < N; q++)
    b0[q] = 0.3 * y[q], b1[q] = 0;
  for (int t = 0; t < n - N + K; t++) {
    for (int i = 1; i < n - 1; i++)
      x[i] = x[i] + 0.062 * x[i] * (x[i + 1] - x[i - 1]);
    relax(b, a, x, n);
    double *w = a;
    a = b;
    b = w;
    for (int i = 1; i < n - 1; i++)
      x[i] = 0.5 * (x[i] + a[i]);
  }
  return 0.766 * x[3] + 0.905 * y[4] + a[2];
}

static volatile int n_runtime = N;

typedef double (*Fn)(double *, double *, int);

#define GRAD(f)                                                                            \
  do {                                                                                     \
    void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,      \
                                     enzyme_const, n);                                     \
    __enzyme_reverse_out((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n, \
                         1.0, tape);                                                       \
  } while (0)

static void grad(int w, const double *x0, const double *y0, double *dx, double *dy) {
  double x[N], y[N];
  memcpy(x, x0, sizeof x);
  memcpy(y, y0, sizeof y);
  memset(dx, 0, N * sizeof *dx);
  memset(dy, 0, N * sizeof *dy);
  int n = n_runtime;
  if (w == 0)
    GRAD(interior);
  else
    GRAD(swapped);
}

static double eval(Fn f, const double *x0, const double *y0) {
  double x[N], y[N];
  memcpy(x, x0, sizeof x);
  memcpy(y, y0, sizeof y);
  return f(x, y, n_runtime);
}

int main(void) {
  Fn fns[2] = {interior, swapped};
  const char *names[2] = {"interior", "swapped"};
  const char *budgets[3] = {"1", "1100", NULL};
  double x0[N], y0[N];
  for (int i = 0; i < N; i++) {
    x0[i] = 0.4 + 0.3 * sin(1.7 * i);
    y0[i] = 0.2 + 0.5 * cos(0.9 * i);
  }
  for (int w = 0; w < 2; w++) {
    double g[3][2 * N];
    for (int k = 0; k < 3; k++) {
      if (budgets[k])
        setenv("LEANTAPE_TAPE_BUDGET", budgets[k], 1);
      else
        unsetenv("LEANTAPE_TAPE_BUDGET");
      grad(w, x0, y0, g[k], g[k] + N);
    }
    for (int k = 0; k < 2; k++) {
      char m[120];
      snprintf(m, sizeof m, "%s: budget %s", names[w], budgets[k]);
      lt_check_bitwise(m, g[k], g[2], 2 * N);
    }
    for (int i = 0; i < 2 * N; i++) {
      double xp[N], yp[N], xm[N], ym[N], h = 1e-6;
      memcpy(xp, x0, sizeof xp);
      memcpy(xm, x0, sizeof xm);
      memcpy(yp, y0, sizeof yp);
      memcpy(ym, y0, sizeof ym);
      if (i < N)
        xp[i] += h, xm[i] -= h;
      else
        yp[i - N] += h, ym[i - N] -= h;
      double fd = (eval(fns[w], xp, yp) - eval(fns[w], xm, ym)) / (2 * h);
      char m[120];
      snprintf(m, sizeof m, "%s: %s[%d] vs central difference", names[w], i < N ? "x" : "y",
               i % N);
      lt_check(m, g[0][i], fd, 1e-6, 1e-8);
    }
  }
  return lt_done();
}
