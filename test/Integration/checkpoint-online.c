// Online checkpointing (-leantape-checkpoint, prep/outline.c, gen/ckptol.c):
// time loops whose number of steps is known only when they end. Each
// gradient is computed with no tape budget (every step taped) and with
// budgets of several, two and one snapshot slots; all must be bitwise
// equal (the same arithmetic in the same order) and match central
// differences. Shapes:
//  - ode: an adaptive-step Runge-Kutta 2(3) integrator, while (t < t_end),
//    whose step size follows an error estimate of the active state (a
//    rejected step moves nothing and shrinks the step);
//  - relax: a damped nonlinear Jacobi iteration run until its residual, an
//    active value, is small.
// Split mode (__enzyme_augmentfwd, then __enzyme_reverse) gives ode's
// gradient bitwise equal to combined mode's, with and without a budget.
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint %s -o %t.O0 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O0 2> %t.O0.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.O0.err
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t.O2 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O2 2> %t.O2.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.O2.err
//
// ode: combined, then split mode, for each budget; then relax.
// REPORT: leantape: taping the steps as they run (no tape budget)
// REPORT-NEXT: leantape: taping the steps as they run (no tape budget)
// REPORT-NEXT: leantape: checkpointing online (steps not known in advance): [[N:[0-9]+]] snapshots of {{[0-9]+}} bytes, at most {{[0-9]+}} kept while the steps run (tape budget 8192 bytes)
// REPORT-NEXT: leantape: [[T:[0-9]+]] checkpointed steps reversed, [[R:[0-9]+]] steps run again
// REPORT-NEXT: leantape: checkpointing online (steps not known in advance): [[N]] snapshots
// REPORT-NEXT: leantape: [[T]] checkpointed steps reversed, [[R]] steps run again
// REPORT-NEXT: leantape: checkpointing online (steps not known in advance): {{[56]}} snapshots of {{[0-9]+}} bytes, at most {{[23]}} kept while the steps run (tape budget 5200 bytes)
// REPORT-NEXT: leantape: [[T]] checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-NEXT: leantape: checkpointing online
// REPORT-NEXT: leantape: [[T]] checkpointed steps reversed
// REPORT-NEXT: leantape: checkpointing online (steps not known in advance): 1 snapshots of {{[0-9]+}} bytes, at most 1 kept while the steps run (tape budget 500 bytes)
// REPORT-NEXT: leantape: [[T]] checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-NEXT: leantape: checkpointing online
// REPORT-NEXT: leantape: [[T]] checkpointed steps reversed
// REPORT-NEXT: leantape: taping the steps as they run (no tape budget)
// REPORT-NEXT: leantape: checkpointing online (steps not known in advance): {{[0-9]+}} snapshots of {{[0-9]+}} bytes, at most {{[0-9]+}} kept while the steps run (tape budget 8192 bytes)
// REPORT-NEXT: leantape: [[T2:[0-9]+]] checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-NEXT: leantape: checkpointing online
// REPORT-NEXT: leantape: [[T2]] checkpointed steps reversed
// REPORT-NEXT: leantape: checkpointing online
// REPORT-NEXT: leantape: [[T2]] checkpointed steps reversed
// REPORT-NOT: leantape

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 8 };

/* y' = p * sin(reversed y) - 0.3 y^3 by Ralston's third-order method, the
 * error estimated against the midpoint rule's; w: scratch (4 n) */
double ode(double *y, const double *p, double *w, int n, double t_end) {
  double t = 0, h = 0.01, *k1 = w, *k2 = w + n, *k3 = w + 2 * n, *yt = w + 3 * n;
  const double tol = 1e-6;
  while (t < t_end) {
    if (h > t_end - t)
      h = t_end - t;
    for (int i = 0; i < n; i++)
      k1[i] = p[i] * sin(y[n - 1 - i]) - 0.3 * y[i] * y[i] * y[i];
    for (int i = 0; i < n; i++)
      yt[i] = y[i] + 0.5 * h * k1[i];
    for (int i = 0; i < n; i++)
      k2[i] = p[i] * sin(yt[n - 1 - i]) - 0.3 * yt[i] * yt[i] * yt[i];
    for (int i = 0; i < n; i++)
      yt[i] = y[i] + 0.75 * h * k2[i];
    for (int i = 0; i < n; i++)
      k3[i] = p[i] * sin(yt[n - 1 - i]) - 0.3 * yt[i] * yt[i] * yt[i];
    double err = 0;
    for (int i = 0; i < n; i++) {
      double e = h * (2.0 / 9 * k1[i] - 2.0 / 3 * k2[i] + 4.0 / 9 * k3[i]);
      err += e * e;
    }
    err = sqrt(err / n) + 1e-12;
    double ok = err <= tol ? 1.0 : 0.0; /* a rejected step moves nothing */
    for (int i = 0; i < n; i++)
      y[i] += ok * h * (2.0 / 9 * k1[i] + 1.0 / 3 * k2[i] + 4.0 / 9 * k3[i]);
    t += ok * h;
    h = h * fmin(2.0, fmax(0.2, 0.9 * cbrt(tol / err)));
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += y[i] * y[i];
  return e;
}

/* u <- the fixed point of a damped nonlinear Jacobi sweep, f the source;
 * w: scratch */
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
    /* relative to the boundary values (a plain 0 when n <= 2 would let
     * -O2 give the loop a second exit) */
    res = res / (1 + u[0] * u[0] + u[n - 1] * u[n - 1]);
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i] * f[i];
  return e;
}

void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);

static int which;

/* p = [y0 (n), coefficients (n)] */
static double value(const double *p0) {
  double y[N], w[4 * N];
  memcpy(y, p0, sizeof y);
  return which == 0 ? ode(y, p0 + N, w, N, 1.0) : relax(y, p0 + N, w, N);
}

static void gradient(const double *p0, double *g, int split) {
  double y[N], w[4 * N] = {0}, dw[4 * N] = {0};
  memcpy(y, p0, sizeof y);
  memset(g, 0, 2 * N * sizeof *g);
  if (which == 1)
    __enzyme_autodiff((void *)relax, enzyme_dup, y, g, enzyme_dup, p0 + N, g + N, enzyme_dup,
                      w, dw, enzyme_const, N);
  else if (!split)
    __enzyme_autodiff((void *)ode, enzyme_dup, y, g, enzyme_dup, p0 + N, g + N, enzyme_dup, w,
                      dw, enzyme_const, N, enzyme_const, 1.0);
  else {
    void *tape = __enzyme_augmentfwd((void *)ode, enzyme_dup, y, g, enzyme_dup, p0 + N, g + N,
                                     enzyme_dup, w, dw, enzyme_const, N, enzyme_const, 1.0);
    __enzyme_reverse((void *)ode, enzyme_dup, y, g, enzyme_dup, p0 + N, g + N, enzyme_dup, w,
                     dw, enzyme_const, N, enzyme_const, 1.0, 1.0, tape);
  }
}

int main(void) {
  static const char *names[2] = {"ode", "relax"};
  /* none; many slots; ode: 4 slots (2 kept online), 1 slot (all steps
   * from step 0); its state: y and w (5 N doubles) and the carried cells */
  const char *budgets[4] = {NULL, "8K", "5200", "500"};
  for (which = 0; which < 2; which++) {
    double p[2 * N], g[4][2 * N], gs[2 * N];
    for (int i = 0; i < N; i++) {
      p[i] = which ? 0.3 * sin(0.9 * i) : 0.5 + 0.4 * sin(0.9 * i);
      p[N + i] = 1 + 0.1 * i;
    }
    if (which) /* the fixed boundary values */
      p[0] = 0.2, p[N - 1] = -0.1;
    for (int k = 0; k < 4; k++) {
      if (budgets[k])
        setenv("LEANTAPE_TAPE_BUDGET", budgets[k], 1);
      else
        unsetenv("LEANTAPE_TAPE_BUDGET");
      gradient(p, g[k], 0);
      char w[120];
      for (int i = 0; i < 2 * N; i++) {
        snprintf(w, sizeof w, "%s d[%d], budget %s vs none (bitwise)", names[which], i,
                 budgets[k] ? budgets[k] : "none");
        lt_check(w, g[k][i], g[0][i], 0, 0);
      }
      if (which)
        continue;
      gradient(p, gs, 1);
      for (int i = 0; i < 2 * N; i++) {
        snprintf(w, sizeof w, "ode d[%d], split vs combined, budget %s (bitwise)", i,
                 budgets[k] ? budgets[k] : "none");
        lt_check(w, gs[i], g[0][i], 0, 0);
      }
    }
    for (int i = 0; i < 2 * N; i++) {
      double q[2 * N], h = 1e-6;
      memcpy(q, p, sizeof q);
      q[i] = p[i] + h;
      double fp = value(q);
      q[i] = p[i] - h;
      double fm = value(q);
      char w[120];
      snprintf(w, sizeof w, "%s d[%d] vs central difference", names[which], i);
      lt_check(w, g[0][i], (fp - fm) / (2 * h), 1e-5, 1e-7);
    }
  }
  return lt_done();
}
