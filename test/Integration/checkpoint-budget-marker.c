// A compile-time tape budget on one call (enzyme_tape_budget, N, in
// include/leantape.h): without -leantape-checkpoint, only that call's time
// loop is checkpointed, under N bytes unless LEANTAPE_TAPE_BUDGET says
// otherwise; the same function differentiated by a call without the marker
// keeps taping every step. Gradients of an in-place viscous Burgers' step
// loop: the checkpointed one equal to the taped one to rounding, and both
// against central differences; combined and split mode. LEANTAPE_REPORT=1 shows which call checkpointed under which budget.
// RUN: %ltclang -O0 -Rpass-analysis=leantape %s -o %t.O0 -lm 2> %t.O0.rem
// RUN: FileCheck %s --check-prefix=REMARK < %t.O0.rem
// RUN: env LEANTAPE_REPORT=1 %t.O0 2> %t.O0.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.O0.err
// RUN: %ltclang -O2 -Rpass-analysis=leantape %s -o %t.O2 -lm 2> %t.O2.rem
// RUN: FileCheck %s --check-prefix=REMARK < %t.O2.rem
// RUN: env LEANTAPE_REPORT=1 %t.O2 2> %t.O2.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.O2.err
// The environment overrides the marker's budget:
// RUN: env LEANTAPE_REPORT=1 LEANTAPE_TAPE_BUDGET=1K %t.O2 2> %t.env.err
// RUN: FileCheck %s --check-prefix=ENV < %t.env.err
// Set but empty, the environment says nothing: the marker's budget holds
// (it read as 0, no budget):
// RUN: env LEANTAPE_REPORT=1 LEANTAPE_TAPE_BUDGET= %t.O2 2> %t.empty.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.empty.err
// A bad budget is a compile error at the call:
// RUN: not %ltclang -O0 -g -DBAD %s -o %t.bad -lm 2> %t.bad.err
// RUN: FileCheck %s --check-prefix=BAD < %t.bad.err
//
// Two derivatives checkpoint (combined and split mode with the marker),
// the one without it does not:
// REMARK-COUNT-2: checkpoint-budget-marker.c:{{[0-9]+}}:{{[0-9]+}}: remark: this loop is checkpointed under a tape budget
// REMARK-NOT: checkpointed under a tape budget
// (the call without the marker is not outlined: no report of its own)
// REPORT-NOT: taping
// REPORT: leantape: checkpointing 60 steps: {{[0-9]+}} snapshots of {{[0-9]+}} bytes (tape budget 3000 bytes)
// REPORT: leantape: 60 checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT: leantape: checkpointing 60 steps: {{[0-9]+}} snapshots of {{[0-9]+}} bytes (tape budget 3000 bytes)
// ENV: leantape: checkpointing 60 steps: {{[0-9]+}} snapshots of {{[0-9]+}} bytes (tape budget 1024 bytes)
// BAD: checkpoint-budget-marker.c:[[@LINE+44]]:{{[0-9]+}}: error: leantape: enzyme_tape_budget must be followed by the budget in bytes, a positive integer constant

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

enum { N = 24, T = 60 };

double burgers(double *u, double *tmp, int n, int steps) {
  const double dx = 1.0 / n, dt = 0.1 * dx, nu = 0.01;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] - dt * u[i] * (u[i + 1] - u[i - 1]) / (2 * dx) +
               nu * dt * (u[i + 1] - 2 * u[i] + u[i - 1]) / (dx * dx);
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i] * (1 + 0.1 * i);
  return e;
}

static double U0[N];
static void init(double *u) {
  for (int i = 0; i < N; i++)
    u[i] = U0[i];
}

/* the gradient: taped (no marker), under the marker, or split mode under
 * the marker */
static void grad(int how, double *g) {
  double u[N], tmp[N] = {0}, dtmp[N] = {0};
  init(u);
  memset(g, 0, N * sizeof *g);
  if (how == 0)
    __enzyme_autodiff((void *)burgers, enzyme_dup, u, g, enzyme_dup, tmp, dtmp, enzyme_const,
                      N, enzyme_const, T);
  else if (how == 1)
    __enzyme_autodiff((void *)burgers, enzyme_tape_budget, 3000, enzyme_dup, u, g, enzyme_dup,
                      tmp, dtmp, enzyme_const, N, enzyme_const, T);
  else {
#ifdef BAD
    __enzyme_autodiff((void *)burgers, enzyme_tape_budget, (long)how, enzyme_dup, u, g,
                      enzyme_dup, tmp, dtmp, enzyme_const, N, enzyme_const, T);
#endif
    void *tape = __enzyme_augmentfwd((void *)burgers, enzyme_tape_budget, 3000, enzyme_dup, u,
                                     g, enzyme_dup, tmp, dtmp, enzyme_const, N, enzyme_const, T);
    __enzyme_reverse((void *)burgers, enzyme_tape_budget, 3000, enzyme_dup, u, g, enzyme_dup,
                     tmp, dtmp, enzyme_const, N, enzyme_const, T, 1.0, tape);
  }
}

static int K;
static double f_k(double h) {
  double u[N], tmp[N] = {0};
  init(u);
  u[K] += h;
  return burgers(u, tmp, N, T);
}

int main(void) {
  for (int i = 0; i < N; i++)
    U0[i] = lt_vd(0.5 + 0.4 * __builtin_sin(0.7 * i));
  double g0[N], g1[N], g2[N];
  grad(0, g0);
  grad(1, g1);
  grad(2, g2);
  for (K = 0; K < N; K++) {
    lt_check("taped vs central difference", g0[K], lt_fd(f_k, 0), 1e-6, 1e-9);
    /* not bitwise: the taped derivative is other code than the outlined
     * step's (adjoint sums may be reassociated differently; LLVM 19 does) */
    lt_check("checkpointed vs taped", g1[K], g0[K], 1e-12, 1e-15);
    lt_check("split checkpointed vs taped", g2[K], g0[K], 1e-12, 1e-15);
  }
  return lt_done();
}
