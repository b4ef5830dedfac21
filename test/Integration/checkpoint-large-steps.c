// Checkpointed time loops whose steps have tapes larger than the LIFO
// arena's first chunk (64 KiB). While R runs a checkpointed loop, each
// step is taped and reversed at once, so its tape is pushed and popped
// again and again across the end of the chunk the caller's records fill.
// The arena doubled its chunk size each time such a chunk emptied: after
// some 20 steps malloc failed and the push wrote through a null pointer
// (segfault with any tape budget small enough to checkpoint; issue 20's
// Burgers benchmark at N = 4000). A chunk that empties now gives back the
// step size it took (gen/arena.c).
// An in-place viscous Burgers' equation (N = 3000 points: about 70 KiB of
// tape per step, 23984 bytes of state: u; the scratch row, which every
// step writes before it reads it, is not in the snapshots) and a two-array leapfrog, each differentiated with no
// budget and with budgets of many, a few and one snapshot; gradients equal
// to rounding, and against central differences.
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint %s -o %t.O0 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O0 2> %t.O0.err
// RUN: FileCheck %s < %t.O0.err
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t.O2 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O2 2> %t.O2.err
// RUN: FileCheck %s < %t.O2.err
// Each case checkpointed with one snapshot first (the arena has no size
// hint yet in a new process: the crash needed that), then with more, then
// taped:
// CHECK-LABEL: case: burgers
// CHECK-NEXT: leantape: checkpointing 120 steps: 1 snapshots of 23984 bytes (tape budget 50000 bytes)
// CHECK: leantape: checkpointing 120 steps: {{[0-9]}} snapshots of 23984 bytes (tape budget 200000 bytes)
// CHECK: leantape: checkpointing 120 steps: {{[0-9]+}} snapshots of 23984 bytes (tape budget 2000000 bytes)
// CHECK: leantape: taping 120 steps (no tape budget)
// CHECK-LABEL: case: leapfrog
// CHECK-NEXT: leantape: checkpointing 120 steps: 1 snapshots
// CHECK: leantape: checkpointing 120 steps: {{[0-9]+}} snapshots
// CHECK: leantape: checkpointing 120 steps: {{[0-9]+}} snapshots
// CHECK: leantape: taping 120 steps (no tape budget)

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 3000, T = 120 };

#define BURGERS_NU 0.001
#include "burgers.h"

/* p and q updated in turn with nonlinear couplings (tmp unused) */
double leapfrog(double *p, double *q, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++)
      p[i] -= 0.01 * sin(q[i]);
    for (int i = 1; i < n; i++)
      q[i] += 0.01 * p[i] * p[i - 1];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += p[i] * q[i];
  return e;
}

static void init(double *u, double *v) {
  for (int i = 0; i < N; i++)
    u[i] = sin(2 * M_PI * i / N) + 0.5, v[i] = 0.3 * cos(3.0 * i / N);
}

static double value(int which, const double *u0, const double *v0) {
  double *u = malloc(N * sizeof *u), *v = malloc(N * sizeof *v);
  memcpy(u, u0, N * sizeof *u);
  memcpy(v, v0, N * sizeof *v);
  double e = which ? leapfrog(u, v, N, T) : burgers(u, v, N, T);
  free(u);
  free(v);
  return e;
}

/* the gradient in u0 (burgers) or in p0 and q0 (leapfrog) */
static void gradient(int which, double *du, double *dv) {
  double *u = malloc(N * sizeof *u), *v = malloc(N * sizeof *v);
  init(u, v);
  memset(du, 0, N * sizeof *du);
  memset(dv, 0, N * sizeof *dv);
  if (which)
    __enzyme_autodiff((void *)leapfrog, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const, N,
                      enzyme_const, T);
  else
    __enzyme_autodiff((void *)burgers, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const, N,
                      enzyme_const, T);
  free(u);
  free(v);
}

int main(void) {
  const char *budgets[4] = {"50000", "200000", "2000000", NULL};
  const char *names[2] = {"burgers", "leapfrog"};
  static double du[4][N], dv[4][N];
  for (int which = 0; which < 2; which++) {
    fprintf(stderr, "case: %s\n", names[which]);
    for (int k = 0; k < 4; k++) {
      if (budgets[k])
        setenv("LEANTAPE_TAPE_BUDGET", budgets[k], 1);
      else
        unsetenv("LEANTAPE_TAPE_BUDGET");
      gradient(which, du[k], dv[k]);
    }
    for (int k = 0; k < 3; k++) {
      int bad = 0;
      for (int i = 0; i < N; i++)
        bad += fabs(du[k][i] - du[3][i]) > 1e-13 * (1 + fabs(du[3][i])) ||
               fabs(dv[k][i] - dv[3][i]) > 1e-13 * (1 + fabs(dv[3][i]));
      char w[120];
      snprintf(w, sizeof w, "%s: budget %s: elements that differ from no budget", names[which],
               budgets[k] ? budgets[k] : "none");
      lt_check(w, bad, 0, 0, 0);
    }
    /* central differences in a few coordinates of each input */
    int idx[4] = {1, 700, 1500, N - 2};
    for (int j = 0; j < 8; j++) {
      int i = idx[j % 4], inv = j >= 4;
      if (!which && inv)
        break; /* burgers: tmp is scratch, its gradient 0 */
      double up[N], vp[N], h = 1e-5; /* f sums N squares: 1e-6 is lost to rounding */
      init(up, vp);
      double *x = inv ? vp : up, x0 = x[i];
      x[i] = x0 + h;
      double fp = value(which, up, vp);
      x[i] = x0 - h;
      double fd = (fp - value(which, up, vp)) / (2 * h);
      char w[120];
      snprintf(w, sizeof w, "%s: d%s[%d] vs central difference", names[which], inv ? "v" : "u",
               i);
      lt_check(w, inv ? dv[3][i] : du[3][i], fd, 1e-5, 1e-7);
    }
  }
  return lt_done();
}
