// Checkpointed in-place nonlinear 2-D diffusion (issue 20's list of time
// loops): u <- u + c (1 + u^2) lap(u) on an R x C grid of run-time size,
//  - gs: in place, point by point (a Gauss-Seidel sweep: each point reads
//    neighbours already updated in this step);
//  - jac: through a scratch grid filled from u and copied back (what
//    every step writes first: left out of the snapshots).
// Each gradient with no budget, a budget of a few snapshots and of one,
// bitwise equal, against central differences, in combined and split mode
// (__enzyme_augmentfwd, then __enzyme_reverse), at -O0 and -O2; the report
// shows the loops checkpointed (before, the inner j loop under its guard
// c > 2 stopped the snapshot analysis, analysis/steprun.c: "not
// checkpointed: ... under a branch").
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint %s -o %t.O0 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O0 2> %t.O0.err
// RUN: FileCheck %s < %t.O0.err
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t.O2 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O2 2> %t.O2.err
// RUN: FileCheck %s < %t.O2.err
// gs (combined, then split), then jac (its scratch grid is snapshotted:
// the reads of u[i][j+1] come before the copy back writes it):
// CHECK: leantape: checkpointing 30 steps: {{[1-9][0-9]}} snapshots of 344 bytes (tape budget 6000 bytes)
// CHECK: leantape: checkpointing 30 steps: 1 snapshots of 344 bytes (tape budget 1 bytes)
// CHECK: leantape: checkpointing 30 steps: {{[1-9][0-9]}} snapshots of 344 bytes (tape budget 6000 bytes)
// CHECK: leantape: checkpointing 30 steps: 1 snapshots of 344 bytes (tape budget 1 bytes)
// CHECK: leantape: checkpointing 30 steps: {{[2-9]}} snapshots of 688 bytes (tape budget 6000 bytes)
// CHECK: leantape: checkpointing 30 steps: 1 snapshots of 688 bytes (tape budget 1 bytes)

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

enum { R = 7, C = 9, T = 30 };

double gs(double *u, int r, int c, int steps) {
  for (int t = 0; t < steps; t++)
    for (int i = 1; i < r - 1; i++)
      for (int j = 1; j < c - 1; j++) {
        double v = u[i * c + j];
        double lap = u[(i - 1) * c + j] + u[(i + 1) * c + j] + u[i * c + j - 1] +
                     u[i * c + j + 1] - 4 * v;
        u[i * c + j] = v + 0.05 * (1 + v * v) * lap;
      }
  double e = 0;
  for (int k = 0; k < r * c; k++)
    e += u[k] * u[k] * (1 + 0.01 * k);
  return e;
}

double jac(double *u, double *s, int r, int c, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < r - 1; i++)
      for (int j = 1; j < c - 1; j++) {
        double v = u[i * c + j];
        double lap = u[(i - 1) * c + j] + u[(i + 1) * c + j] + u[i * c + j - 1] +
                     u[i * c + j + 1] - 4 * v;
        s[i * c + j] = v + 0.05 * (1 + v * v) * lap;
      }
    for (int i = 1; i < r - 1; i++)
      for (int j = 1; j < c - 1; j++)
        u[i * c + j] = s[i * c + j];
  }
  double e = 0;
  for (int k = 0; k < r * c; k++)
    e += u[k] * u[k] * (1 + 0.01 * k);
  return e;
}

static volatile int rows = R, cols = C;

/* case w: 0 gs, 1 jac; split or combined; gradient of u into du */
static void grad(int w, int split, const double *u0, double *du) {
  double u[R * C], s[R * C], ds[R * C];
  memcpy(u, u0, sizeof u);
  memset(s, 0, sizeof s);
  memset(ds, 0, sizeof ds);
  memset(du, 0, sizeof u);
  int r = rows, c = cols;
  if (w == 0 && !split)
    __enzyme_autodiff((void *)gs, enzyme_dup, u, du, enzyme_const, r, enzyme_const, c,
                      enzyme_const, T);
  else if (w == 0) {
    void *tp = __enzyme_augmentfwd((void *)gs, enzyme_dup, u, du, enzyme_const, r,
                                   enzyme_const, c, enzyme_const, T);
    __enzyme_reverse((void *)gs, enzyme_dup, u, du, enzyme_const, r, enzyme_const, c,
                     enzyme_const, T, 1.0, tp);
  } else if (!split)
    __enzyme_autodiff((void *)jac, enzyme_dup, u, du, enzyme_dup, s, ds, enzyme_const, r,
                      enzyme_const, c, enzyme_const, T);
  else {
    void *tp = __enzyme_augmentfwd((void *)jac, enzyme_dup, u, du, enzyme_dup, s, ds,
                                   enzyme_const, r, enzyme_const, c, enzyme_const, T);
    __enzyme_reverse((void *)jac, enzyme_dup, u, du, enzyme_dup, s, ds, enzyme_const, r,
                     enzyme_const, c, enzyme_const, T, 1.0, tp);
  }
}

static double eval(int w, const double *u0) {
  double u[R * C], s[R * C];
  memcpy(u, u0, sizeof u);
  memset(s, 0, sizeof s);
  return w == 0 ? gs(u, rows, cols, T) : jac(u, s, rows, cols, T);
}

int main(void) {
  const char *names[2] = {"gs", "jac"};
  const char *budgets[3] = {"6000", "1", NULL};
  double u0[R * C];
  for (int k = 0; k < R * C; k++)
    u0[k] = 0.3 + 0.25 * sin(0.7 * k) * cos(0.3 * k);
  for (int w = 0; w < 2; w++)
    for (int split = 0; split < 2; split++) {
      double g[3][R * C];
      for (int b = 0; b < 3; b++) {
        if (budgets[b])
          setenv("LEANTAPE_TAPE_BUDGET", budgets[b], 1);
        else
          unsetenv("LEANTAPE_TAPE_BUDGET");
        grad(w, split, u0, g[b]);
      }
      for (int b = 0; b < 2; b++) {
        char m[120];
        snprintf(m, sizeof m, "%s%s: budget %s", names[w], split ? " split" : "", budgets[b]);
        lt_check_bitwise(m, g[b], g[2], R * C);
      }
      int idx[5] = {C + 1, 2 * C + 4, 3 * C + 5, (R - 2) * C + C - 2, 0};
      for (int q = 0; q < 5; q++) {
        int k = idx[q];
        double up[R * C], um[R * C], h = 1e-6;
        memcpy(up, u0, sizeof up);
        memcpy(um, u0, sizeof um);
        up[k] += h;
        um[k] -= h;
        double fd = (eval(w, up) - eval(w, um)) / (2 * h);
        char m[120];
        snprintf(m, sizeof m, "%s%s: u[%d] vs central difference", names[w],
                 split ? " split" : "", k);
        lt_check(m, g[1][k], fd, 1e-6, 1e-8);
      }
    }
  return lt_done();
}
