// Checkpointed time loops that rotate buffers through plain pointers
// (prep/outline.c's cells, a permutation of them each step):
//  - swap2: a double-buffered nonlinear 2-D diffusion on an R x C grid of
//    run-time size (issue 17's time loop), u <- u + c (1 + u^2) lap(u)
//    into the other buffer, then the buffers swap;
//  - swap2 called with one buffer for both (in place: a Gauss-Seidel
//    sweep);
//  - rot3: a nonlinear leapfrog wave, three buffers rotating
//    (prev, cur, next) <- (cur, next, prev), next from prev and cur.
// A step writes the buffer its cell `next` holds before it reads it, so a
// snapshot leaves that buffer out (gen/snapshot.c rotated_first) when no
// read of the step reaches it whichever buffer each cell holds: the
// diffusion's snapshot is one grid, not two; the wave's two, not three.
// In place, the reads reach it: both. Each gradient with no budget, a
// budget of a few snapshots and of one, bitwise equal, against central
// differences, in combined mode and (swap2) split mode, at -O0 and -O2.
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint %s -o %t.O0 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O0 2> %t.O0.err
// RUN: FileCheck %s < %t.O0.err
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t.O2 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O2 2> %t.O2.err
// RUN: FileCheck %s < %t.O2.err
// The write range of a step is rows 1..R-2 of a grid less its first and
// last point, (R - 2) C - 2 doubles: 43 * 8 = 344 bytes a buffer, beside
// the cells (24 bytes for swap2, 40 for rot3). Before, swap2's snapshot
// was 712 bytes and rot3's 1072. swap2 combined, then split, then in
// place, then rot3:
// CHECK: leantape: checkpointing 31 steps: {{[1-9][0-9]}} snapshots of 368 bytes (tape budget 6000 bytes)
// CHECK: leantape: checkpointing 31 steps: 1 snapshots of 368 bytes (tape budget 1 bytes)
// CHECK: leantape: checkpointing 31 steps: {{[1-9][0-9]}} snapshots of 368 bytes (tape budget 6000 bytes)
// CHECK: leantape: checkpointing 31 steps: 1 snapshots of 368 bytes (tape budget 1 bytes)
// CHECK: leantape: checkpointing 31 steps: {{[1-9]}} snapshots of 712 bytes (tape budget 6000 bytes)
// CHECK: leantape: checkpointing 31 steps: 1 snapshots of 712 bytes (tape budget 1 bytes)
// CHECK: leantape: checkpointing 31 steps: {{[1-9]}} snapshots of 728 bytes (tape budget 6000 bytes)
// CHECK: leantape: checkpointing 31 steps: 1 snapshots of 728 bytes (tape budget 1 bytes)

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

enum { R = 7, C = 9, T = 31, N = R * C };

double swap2(double *u, double *v, int r, int c, int steps) {
  double *a = u, *b = v;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < r - 1; i++)
      for (int j = 1; j < c - 1; j++) {
        double x = a[i * c + j];
        double lap = a[(i - 1) * c + j] + a[(i + 1) * c + j] + a[i * c + j - 1] +
                     a[i * c + j + 1] - 4 * x;
        b[i * c + j] = x + 0.05 * (1 + x * x) * lap;
      }
    double *s = a;
    a = b;
    b = s;
  }
  double e = 0;
  for (int k = 0; k < r * c; k++)
    e += a[k] * a[k] * (1 + 0.01 * k);
  return e;
}

double rot3(double *p, double *q, double *w, int r, int c, int steps) {
  double *prev = p, *cur = q, *next = w;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < r - 1; i++)
      for (int j = 1; j < c - 1; j++) {
        double x = cur[i * c + j];
        double lap = cur[(i - 1) * c + j] + cur[(i + 1) * c + j] + cur[i * c + j - 1] +
                     cur[i * c + j + 1] - 4 * x;
        next[i * c + j] = 2 * x - prev[i * c + j] + 0.04 * (1 + x * x) * lap;
      }
    double *s = prev;
    prev = cur;
    cur = next;
    next = s;
  }
  double e = 0;
  for (int k = 0; k < r * c; k++)
    e += cur[k] * cur[k] * (1 + 0.01 * k) + prev[k] * (0.5 - 0.01 * k);
  return e;
}

static volatile int rows = R, cols = C;

/* case w: 0 swap2, 1 swap2 in place, 2 rot3; x: the inputs (N per
 * buffer), g: their gradient, then the buffers as the gradient leaves them */
static void grad(int w, int split, const double *x, double *g) {
  double u[3][N], d[3][N];
  memcpy(u, x, sizeof u);
  memset(d, 0, sizeof d);
  int r = rows, c = cols;
  if (w == 0 && !split)
    __enzyme_autodiff((void *)swap2, enzyme_dup, u[0], d[0], enzyme_dup, u[1], d[1],
                      enzyme_const, r, enzyme_const, c, enzyme_const, T);
  else if (w == 0) {
    void *tp = __enzyme_augmentfwd((void *)swap2, enzyme_dup, u[0], d[0], enzyme_dup, u[1],
                                   d[1], enzyme_const, r, enzyme_const, c, enzyme_const, T);
    __enzyme_reverse((void *)swap2, enzyme_dup, u[0], d[0], enzyme_dup, u[1], d[1],
                     enzyme_const, r, enzyme_const, c, enzyme_const, T, 1.0, tp);
  } else if (w == 1)
    __enzyme_autodiff((void *)swap2, enzyme_dup, u[0], d[0], enzyme_dup, u[0], d[0],
                      enzyme_const, r, enzyme_const, c, enzyme_const, T);
  else
    __enzyme_autodiff((void *)rot3, enzyme_dup, u[0], d[0], enzyme_dup, u[1], d[1],
                      enzyme_dup, u[2], d[2], enzyme_const, r, enzyme_const, c, enzyme_const,
                      T);
  memcpy(g, d, sizeof d);
  memcpy(g + 3 * N, u, sizeof u);
}

/* the objective; the buffers as the primal leaves them into out */
static double eval_to(int w, const double *x, double *out) {
  double u[3][N];
  memcpy(u, x, sizeof u);
  double e = w == 0   ? swap2(u[0], u[1], rows, cols, T)
             : w == 1 ? swap2(u[0], u[0], rows, cols, T)
                      : rot3(u[0], u[1], u[2], rows, cols, T);
  if (out)
    memcpy(out, u, sizeof u);
  return e;
}

static double eval(int w, const double *x) { return eval_to(w, x, NULL); }

int main(void) {
  const char *names[3] = {"swap2", "swap2 in place", "rot3"};
  const char *budgets[3] = {"6000", "1", NULL};
  double x[3 * N];
  for (int k = 0; k < 3 * N; k++)
    x[k] = 0.3 + 0.25 * sin(0.7 * k) * cos(0.3 * k);
  for (int w = 0; w < 3; w++)
    for (int split = 0; split < (w == 0 ? 2 : 1); split++) {
      double g[3][6 * N], after[3 * N];
      eval_to(w, x, after);
      for (int b = 0; b < 3; b++) {
        if (budgets[b])
          setenv("LEANTAPE_TAPE_BUDGET", budgets[b], 1);
        else
          unsetenv("LEANTAPE_TAPE_BUDGET");
        grad(w, split, x, g[b]);
      }
      for (int b = 0; b < 2; b++) {
        char m[120];
        snprintf(m, sizeof m, "%s%s: budget %s", names[w], split ? " split" : "", budgets[b]);
        lt_check_bitwise(m, g[b], g[2], 3 * N);
      }
      /* the buffers as the primal leaves them, whichever buffer the
       * cells held when the snapshots were taken (T = 31 is odd: the cells end
       * swapped, and rot3's a third of the way round) */
      for (int b = 0; b < 3; b++) {
        char m[120];
        snprintf(m, sizeof m, "%s%s: memory after the gradient, budget %s", names[w],
                 split ? " split" : "", budgets[b] ? budgets[b] : "none");
        lt_check_bitwise(m, g[b] + 3 * N, after, 3 * N);
      }
      /* in both buffers (all three for rot3): the interior, an edge */
      int idx[6] = {C + 1, 2 * C + 4, (R - 2) * C + C - 2, 3, N + 3 * C + 5, 2 * N + 2 * C + 2};
      for (int q = 0; q < 6; q++) {
        int k = idx[q];
        if (k >= (w == 2 ? 3 : w == 0 ? 2 : 1) * N)
          continue;
        double up[3 * N], um[3 * N], h = 1e-6;
        memcpy(up, x, sizeof up);
        memcpy(um, x, sizeof um);
        up[k] += h;
        um[k] -= h;
        double fd = (eval(w, up) - eval(w, um)) / (2 * h);
        char m[120];
        snprintf(m, sizeof m, "%s%s: x[%d] vs central difference", names[w],
                 split ? " split" : "", k);
        lt_check(m, g[1][k], fd, 1e-6, 1e-8);
      }
    }
  return lt_done();
}
