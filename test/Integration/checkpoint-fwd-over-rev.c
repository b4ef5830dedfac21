// Forward over reverse with -leantape-checkpoint: __enzyme_fwddiff of a
// function whose gradient comes from __enzyme_autodiff of a time loop (a
// Hessian-vector product). Forward mode does not go through the
// checkpointing helpers, so such a gradient's time loops stay loops, taped
// (prep/outline.c, lt_outline_wanted), and the remark says so; the
// product matches central differences of the gradient along v, with and
// without a tape budget. Shapes: heat, a counted time loop updated in
// place; relax, an iteration run until its residual is small (online).
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint -Rpass-analysis=leantape %s -o %t.O0 -lm 2> %t.O0.rem
// RUN: FileCheck %s --check-prefix=REMARK < %t.O0.rem
// RUN: %t.O0 && env LEANTAPE_TAPE_BUDGET=300 %t.O0
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint -Rpass-analysis=leantape %s -o %t.O2 -lm 2> %t.O2.rem
// RUN: FileCheck %s --check-prefix=REMARK < %t.O2.rem
// RUN: %t.O2 && env LEANTAPE_TAPE_BUDGET=300 %t.O2
// REMARK-DAG: checkpoint-fwd-over-rev.c:[[@LINE+51]]:{{[0-9]+}}: remark: time loops are not checkpointed in a gradient that forward mode differentiates (forward over reverse): their steps are taped
// REMARK-DAG: checkpoint-fwd-over-rev.c:[[@LINE+53]]:{{[0-9]+}}: remark: time loops are not checkpointed in a gradient that forward mode differentiates (forward over reverse): their steps are taped
#include "check.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

double __enzyme_fwddiff(void *, ...);
enum { N = 8 };

double heat(double *u, double *w, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      w[i] = u[i] + 0.1 * (u[i + 1] - 2 * u[i] + u[i - 1]) * (1 + u[i] * u[i]);
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i];
  return e;
}

double relax(double *u, const double *f, double *w, int n) {
  double res = 1;
  while (res > 1e-14) {
    for (int i = 1; i < n - 1; i++)
      w[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]) + 0.02 * f[i] * cos(u[i]);
    res = 0;
    for (int i = 1; i < n - 1; i++) {
      double d = w[i] - u[i];
      res += d * d;
    }
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i];
    res = res / (1 + u[0] * u[0] + u[n - 1] * u[n - 1]);
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i] * f[i];
  return e;
}

static const double F[N] = {1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7};

/* g = the gradient of heat, or of relax, at x */
void grad(const double *x, double *g, int which) {
  double u[N], w[N] = {0}, dw[N] = {0}, df[N] = {0};
  memcpy(u, x, sizeof u);
  memset(g, 0, N * sizeof *g);
  if (!which)
    __enzyme_autodiff((void *)heat, enzyme_dup, u, g, enzyme_dup, w, dw, enzyme_const, N,
                      enzyme_const, 20);
  else
    __enzyme_autodiff((void *)relax, enzyme_dup, u, g, enzyme_dup, F, df, enzyme_dup, w, dw,
                      enzyme_const, N);
}

int main(void) {
  for (int which = 0; which < 2; which++) {
    double x[N], v[N], g[N], hv[N];
    for (int i = 0; i < N; i++)
      x[i] = which ? 0.3 * sin(0.9 * i) : 0.3 + 0.1 * i, v[i] = sin(i + 1.0);
    __enzyme_fwddiff((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv, enzyme_const, which);
    double h = 1e-5, xp[N], xm[N], gp[N], gm[N];
    for (int i = 0; i < N; i++)
      xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    grad(xp, gp, which);
    grad(xm, gm, which);
    for (int i = 0; i < N; i++) {
      char w[80];
      snprintf(w, sizeof w, "%s (H v)[%d] vs central difference", which ? "relax" : "heat", i);
      lt_check(w, hv[i], (gp[i] - gm[i]) / (2 * h), 1e-5, 1e-7);
    }
  }
  return lt_done();
}
