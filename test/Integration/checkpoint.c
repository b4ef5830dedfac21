// Checkpointed time loops (-leantape-checkpoint, gen/ckpt.c): every
// gradient is computed three times in one process, with no tape budget
// (each step taped), a medium one (many snapshots) and a small one (a few
// snapshots, steps run again several times), and the three
// must be bitwise equal (the same arithmetic in the same order), and match
// central differences. Shapes:
//  - burgers: in place through a scratch row (what one step writes: both
//    rows, at fixed places);
//  - swap: two buffers swapped each step, a carried scalar and a counter
//    (what a step writes depends on which buffer is which: all buffers);
//  - rnn: h <- tanh(W h + x_t) with x_t read at t * n (the step number in
//    an address), loss summed over the steps into a carried scalar;
//  - history: a step writes row t of a history (the union over all steps
//    is the whole history) and reads row t - 1;
//  - later: the steps read coefficients that code after the loop
//    overwrites (they must be put back while steps run again in R).
// Split mode (__enzyme_augmentfwd, then __enzyme_reverse) gives burgers'
// gradient bitwise equal to combined mode's, with and without a budget.
// LEANTAPE_REPORT=1 prints the schedule: checked below for the budgets.
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint %s -o %t.O0 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O0 2> %t.O0.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.O0.err
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t.O2 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O2 2> %t.O2.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.O2.err
// A compile-time budget is the default when the environment gives none.
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint=2K %s -o %t.def -lm
// RUN: env LEANTAPE_REPORT=1 LEANTAPE_DEFAULT_TEST=1 %t.def 2> %t.def.err
// RUN: FileCheck %s --check-prefix=DEFAULT < %t.def.err
//
// REPORT: leantape: taping 40 steps (no tape budget)
// REPORT: leantape: checkpointing 40 steps: {{[0-9]+}} snapshots of {{[0-9]+}} bytes (tape budget 5120 bytes)
// REPORT: leantape: checkpointing 40 steps: {{[1-3]}} snapshots of {{[0-9]+}} bytes (tape budget {{[0-9]+}} bytes)
// REPORT: leantape: 40 checkpointed steps reversed, {{[0-9]+}} steps run again
// DEFAULT: leantape: checkpointing 40 steps: {{[0-9]+}} snapshots of {{[0-9]+}} bytes (tape budget 2048 bytes)

#include "check.h"
#include <leantape.h>
#include <stdlib.h>
#include <string.h>

enum { N = 16, T = 40 };

#include "burgers.h"

double swap(double *u, double *w, int n, int steps) {
  double *a = u, *b = w, acc = 0;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      b[i] = a[i] + 0.1 * (a[i + 1] - 2 * a[i] + a[i - 1]) - 0.05 * a[i] * a[i] * a[i];
    b[0] = a[0];
    b[n - 1] = a[n - 1] * (1 + 0.001 * t);
    double s = 0;
    for (int i = 0; i < n; i++)
      s += sin(b[i]);
    acc = 0.9 * acc + s * s * 1e-3;
    double *x = a;
    a = b;
    b = x;
  }
  double e = acc;
  for (int i = 0; i < n; i++)
    e += a[i] * a[i];
  return e;
}

/* p = [W (n x n), h0 (n)], x: the inputs of all steps (T x n), h: scratch */
double rnn(double *p, const double *x, double *h, int n, int steps) {
  double loss = 0, *W = p, *h0 = p + n * n;
  for (int i = 0; i < n; i++)
    h[i] = h0[i];
  for (int t = 0; t < steps; t++) {
    double hn[N];
    for (int i = 0; i < n; i++) {
      double s = x[t * n + i];
      for (int j = 0; j < n; j++)
        s += W[i * n + j] * h[j];
      hn[i] = tanh(s);
    }
    for (int i = 0; i < n; i++) {
      h[i] = hn[i];
      loss += hn[i] * hn[i] * (1 + 0.01 * t);
    }
  }
  return loss;
}

/* hist: (T + 1) x n, row 0 the initial state */
double history(double *hist, int n, int steps) {
  for (int t = 1; t <= steps; t++)
    for (int i = 0; i < n; i++)
      hist[t * n + i] = hist[(t - 1) * n + i] +
                        0.05 * sin(hist[(t - 1) * n + n - 1 - i] * hist[(t - 1) * n + i]);
  double e = 0;
  for (int i = 0; i < n; i++)
    e += hist[steps * n + i] * hist[steps * n + i];
  return e;
}

/* p = [u (n), c (n)]: the steps read c, which the code after them changes */
double later(double *p, int n, int steps) {
  double *u = p, *c = p + n, w[N];
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++)
      w[i] = u[i] + 0.05 * c[i] * sin(u[n - 1 - i]);
    for (int i = 0; i < n; i++)
      u[i] = w[i];
  }
  for (int i = 0; i < n; i++)
    c[i] = u[i] * u[i] + 0.5;
  double e = 0;
  for (int i = 0; i < n; i++)
    e += c[i] * u[i];
  return e;
}

/* ---- one objective of the packed inputs p[0..np), its gradient ---------- */

static int which;
static double X[T * N];

static double value(const double *p0, int np) {
  double p[N * N + N], s1[(T + 1) * N];
  memcpy(p, p0, np * sizeof *p);
  switch (which) {
  case 0:
    return burgers(p, s1, N, T);
  case 1:
    return swap(p, s1, N, T);
  case 2:
    return rnn(p, X, s1, N, T);
  case 3:
    memcpy(s1, p0, np * sizeof *p);
    return history(s1, N, T);
  default:
    return later(p, N, T);
  }
}

static void gradient(const double *p0, double *g, int np) {
  double p[(T + 1) * N + N * N], s1[(T + 1) * N] = {0}, ds1[(T + 1) * N] = {0};
  double dX[T * N] = {0};
  memcpy(p, p0, np * sizeof *p);
  memset(g, 0, np * sizeof *g);
  switch (which) {
  case 0:
    __enzyme_autodiff((void *)burgers, enzyme_dup, p, g, enzyme_dup, s1, ds1, enzyme_const, N,
                      enzyme_const, T);
    break;
  case 1:
    __enzyme_autodiff((void *)swap, enzyme_dup, p, g, enzyme_dup, s1, ds1, enzyme_const, N,
                      enzyme_const, T);
    break;
  case 2:
    __enzyme_autodiff((void *)rnn, enzyme_dup, p, g, enzyme_dup, X, dX, enzyme_dup, s1, ds1,
                      enzyme_const, N, enzyme_const, T);
    break;
  case 4:
    __enzyme_autodiff((void *)later, enzyme_dup, p, g, enzyme_const, N, enzyme_const, T);
    break;
  default: {
    double *h = calloc((T + 1) * N, sizeof *h), *dh = calloc((T + 1) * N, sizeof *dh);
    memcpy(h, p0, np * sizeof *h);
    __enzyme_autodiff((void *)history, enzyme_dup, h, dh, enzyme_const, N, enzyme_const, T);
    memcpy(g, dh, np * sizeof *g);
    free(h);
    free(dh);
  }
  }
}

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

/* burgers' gradient in split mode */
static void split_gradient(const double *p0, double *g) {
  double p[N], s1[N] = {0}, ds1[N] = {0};
  memcpy(p, p0, sizeof p);
  memset(g, 0, N * sizeof *g);
  void *tape = __enzyme_augmentfwd((void *)burgers, enzyme_dup, p, g, enzyme_dup, s1, ds1,
                                   enzyme_const, N, enzyme_const, T);
  __enzyme_reverse((void *)burgers, enzyme_dup, p, g, enzyme_dup, s1, ds1, enzyme_const, N,
                   enzyme_const, T, 1.0, tape);
}

int main(void) {
  static const char *names[5] = {"burgers", "swap", "rnn", "history", "later"};
  int nps[5] = {N, N, N * N + N, N, 2 * N};
  for (int i = 0; i < T * N; i++)
    X[i] = 0.3 * sin(0.7 * i);
  /* the budgets: none, 5 KiB, and two or three states' worth (the report
   * says how many snapshots); the compile-time default build runs once */
  int def = getenv("LEANTAPE_DEFAULT_TEST") != NULL;
  for (which = 0; which < (def ? 1 : 5); which++) {
    int np = nps[which];
    double p[N * N + N], g[3][N * N + N];
    for (int i = 0; i < np; i++)
      p[i] = which == 2 && i < N * N ? 0.3 * cos(1.3 * i) / N : 0.5 + 0.4 * sin(0.9 * i + which);
    const char *budgets[3] = {NULL, "5K", which == 0 ? "400" : which == 3 ? "700" : "600"};
    for (int k = 0; k < (def ? 1 : 3); k++) {
      if (!def && budgets[k])
        setenv("LEANTAPE_TAPE_BUDGET", budgets[k], 1);
      else if (!def)
        unsetenv("LEANTAPE_TAPE_BUDGET");
      gradient(p, g[k], np);
      if (which == 0 && !def) {
        double gs[N];
        split_gradient(p, gs);
        for (int i = 0; i < np; i++) {
          char w[120];
          snprintf(w, sizeof w, "burgers d[%d], split vs combined, budget %s (bitwise)", i,
                   budgets[k] ? budgets[k] : "none");
          lt_check(w, gs[i], g[k][i], 0, 0);
        }
      }
    }
    char w[120];
    for (int i = 0; i < np; i++) {
      for (int k = 1; k < (def ? 1 : 3); k++) {
        snprintf(w, sizeof w, "%s d[%d], budget %s vs none (bitwise)", names[which], i,
                 budgets[k]);
        lt_check(w, g[k][i], g[0][i], 0, 0);
      }
      if (i % 3 && i != np - 1)
        continue;
      double q[N * N + N], h = 1e-6;
      memcpy(q, p, np * sizeof *q);
      q[i] = p[i] + h;
      double fp = value(q, np);
      q[i] = p[i] - h;
      double fm = value(q, np);
      snprintf(w, sizeof w, "%s d[%d] vs central difference", names[which], i);
      lt_check(w, g[0][i], (fp - fm) / (2 * h), 1e-5, 1e-7);
    }
  }
  return lt_done();
}
