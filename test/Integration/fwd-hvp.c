// Second derivatives by nesting forward mode with reverse and forward mode.
//  - Forward over reverse: a Hessian-vector product of the Rosenbrock
//    function (n = 6), __enzyme_fwddiff of a function that computes the
//    gradient with __enzyme_autodiff (the gradient's shadow receives H v);
//    also at width 2 (two products at once) and width 6 with enzyme_dupv
//    (the whole Hessian, column by column).
//  - Reverse over forward: __enzyme_autodiff of a function that returns the
//    directional derivative v . grad f from __enzyme_fwddiff; its gradient
//    is H v again (H is symmetric).
//  - Forward over forward: __enzyme_fwddiff of a function that returns
//    f'(x) from __enzyme_fwddiff, which is f''(x) of a scalar function, and
//    the mixed second partial of a two-argument function.
// All against the analytic Hessian (times v) and central differences of
// the analytic gradient.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

extern int enzyme_width, enzyme_dupv;
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

enum { N = 6 };

double rosen(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i++) {
    double a = x[i + 1] - x[i] * x[i], b = 1 - x[i];
    s += 100 * a * a + b * b;
  }
  return s;
}
static void grad_an(const double *x, double *g) {
  for (int i = 0; i < N; i++) {
    g[i] = 0;
    if (i + 1 < N)
      g[i] += -400 * x[i] * (x[i + 1] - x[i] * x[i]) - 2 * (1 - x[i]);
    if (i > 0)
      g[i] += 200 * (x[i] - x[i - 1] * x[i - 1]);
  }
}
static void hess_an(const double *x, double H[N][N]) {
  memset(H, 0, N * N * sizeof(double));
  for (int i = 0; i < N; i++) {
    if (i + 1 < N) {
      H[i][i] += 1200 * x[i] * x[i] - 400 * x[i + 1] + 2;
      H[i][i + 1] = H[i + 1][i] = -400 * x[i];
    }
    if (i > 0)
      H[i][i] += 200;
  }
}

/* the gradient by reverse mode (g is zeroed first: the adjoint adds) */
void grad(const double *x, double *g) {
  for (int i = 0; i < N; i++)
    g[i] = 0;
  __enzyme_autodiff((void *)rosen, enzyme_dup, x, g, enzyme_const, N);
}

/* v . grad f by forward mode */
double dirderiv(const double *x, const double *v) {
  return __enzyme_fwddiff((void *)rosen, enzyme_dup, x, v, enzyme_const, N);
}

/* a scalar function and its derivative by forward mode */
double f1(double x) { return sin(x) * exp(0.5 * x) + x * x * x; }
static double f1_dd(double x) {
  /* f1'' = e (cos x - 0.75 sin x) + 6x, e = exp(x/2) */
  double e = exp(0.5 * x);
  return e * (-sin(x) + cos(x) + 0.25 * sin(x)) + 6 * x;
}
static double f1_d_an(double x) {
  double e = exp(0.5 * x);
  return e * (cos(x) + 0.5 * sin(x)) + 3 * x * x;
}
double f1_d(double x) { return __enzyme_fwddiff((void *)f1, x, 1.0); }

/* f2(a, b) = a^2 b^3 + sin(a b); d/da by forward mode */
double f2(double a, double b) { return a * a * b * b * b + sin(a * b); }
double f2_da(double a, double b) {
  return __enzyme_fwddiff((void *)f2, a, 1.0, enzyme_const, b);
}
/* d2 f2 / da db = 6 a b^2 + cos(ab) - ab sin(ab) */
static double f2_dadb(double a, double b) {
  return 6 * a * b * b + cos(a * b) - a * b * sin(a * b);
}
/* d2 f2 / da2 = 2 b^3 - b^2 sin(ab) */
static double f2_dada(double a, double b) { return 2 * b * b * b - b * b * sin(a * b); }

int main(void) {
  double x[N], v[N], v2[N], H[N][N];
  for (int i = 0; i < N; i++) {
    x[i] = lt_vd(0.5 + 0.2 * i - 0.05 * i * i);
    v[i] = 1.0 - 0.3 * i;
    v2[i] = (i % 2) ? 0.5 : -1.0;
  }
  hess_an(x, H);
  double Hv[N], Hv2[N], fdHv[N], fdHv2[N];
  for (int i = 0; i < N; i++) {
    Hv[i] = Hv2[i] = 0;
    for (int j = 0; j < N; j++)
      Hv[i] += H[i][j] * v[j], Hv2[i] += H[i][j] * v2[j];
  }
  /* central differences of the analytic gradient along v and v2 */
  {
    double h = 1e-6, xp[N], xm[N], gp[N], gm[N];
    for (int i = 0; i < N; i++)
      xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    grad_an(xp, gp);
    grad_an(xm, gm);
    for (int i = 0; i < N; i++)
      fdHv[i] = (gp[i] - gm[i]) / (2 * h);
    for (int i = 0; i < N; i++)
      xp[i] = x[i] + h * v2[i], xm[i] = x[i] - h * v2[i];
    grad_an(xp, gp);
    grad_an(xm, gm);
    for (int i = 0; i < N; i++)
      fdHv2[i] = (gp[i] - gm[i]) / (2 * h);
  }
  /* the gradient itself (reverse mode, the primal of the nesting) */
  {
    double g[N], ga[N];
    grad(x, g);
    grad_an(x, ga);
    for (int i = 0; i < N; i++)
      lt_check("gradient (reverse)", g[i], ga[i], 1e-13, 1e-13);
  }
  char w[80];
  /* forward over reverse */
  {
    double g[N], hv[N];
    for (int i = 0; i < N; i++)
      hv[i] = 7; /* overwritten: g is zeroed inside, so is its tangent */
    __enzyme_fwddiff_v((void *)grad, enzyme_dup, x, v, enzyme_dup, g, hv);
    for (int i = 0; i < N; i++) {
      snprintf(w, sizeof w, "forward over reverse (H v)[%d]", i);
      lt_grad(w, x[i], hv[i], Hv[i], fdHv[i], 1e-12, 1e-6);
    }
    /* the primal gradient came along */
    double ga[N];
    grad_an(x, ga);
    for (int i = 0; i < N; i++)
      lt_check("forward over reverse: primal gradient", g[i], ga[i], 1e-13, 1e-13);
  }
  /* forward over reverse, width 2 */
  {
    double g[N], hv[N], hv2[N];
    __enzyme_fwddiff_v((void *)grad, enzyme_width, 2, x, v, v2, g, hv, hv2);
    for (int i = 0; i < N; i++) {
      snprintf(w, sizeof w, "forward (width 2) over reverse lane 0 (H v)[%d]", i);
      lt_grad(w, x[i], hv[i], Hv[i], fdHv[i], 1e-12, 1e-6);
      snprintf(w, sizeof w, "forward (width 2) over reverse lane 1 (H v2)[%d]", i);
      lt_grad(w, x[i], hv2[i], Hv2[i], fdHv2[i], 1e-12, 1e-6);
    }
  }
  /* the whole Hessian, width 6 */
  {
    double E[N][N], Hc[N][N], g[N];
    memset(E, 0, sizeof E);
    for (int k = 0; k < N; k++)
      E[k][k] = 1;
    __enzyme_fwddiff_v((void *)grad, enzyme_width, 6, enzyme_dupv, sizeof E[0], x, E,
                       enzyme_dupv, sizeof Hc[0], g, Hc);
    for (int i = 0; i < N; i++)
      for (int j = 0; j < N; j++) {
        snprintf(w, sizeof w, "Hessian (width 6 over reverse) H[%d][%d]", i, j);
        lt_check(w, Hc[j][i], H[i][j], 1e-12, 1e-12);
      }
  }
  /* reverse over forward */
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)dirderiv, enzyme_dup, x, dx, enzyme_const, v);
    for (int i = 0; i < N; i++) {
      snprintf(w, sizeof w, "reverse over forward (H v)[%d]", i);
      lt_grad(w, x[i], dx[i], Hv[i], fdHv[i], 1e-12, 1e-6);
    }
    double gv = 0, ga[N];
    grad_an(x, ga);
    for (int i = 0; i < N; i++)
      gv += ga[i] * v[i];
    lt_check("reverse over forward: its primal v . grad f", dirderiv(x, v), gv, 1e-13, 1e-13);
  }
  /* forward over forward */
  static const double pts[] = {-1.7, -0.3, 0.45, 1.2, 2.6};
  for (int k = 0; k < 5; k++) {
    double t = lt_vd(pts[k]), h = 1e-6;
    lt_check("forward: f'(x)", f1_d(t), f1_d_an(t), 1e-13, 1e-14);
    lt_grad("forward over forward f''(x)", t, __enzyme_fwddiff((void *)f1_d, t, 1.0), f1_dd(t),
            (f1_d_an(t + h) - f1_d_an(t - h)) / (2 * h), 1e-12, 1e-6);
    double a = t, b = lt_vd(0.8 - 0.1 * k);
    lt_check("forward over forward: d2 f2 / da db",
             __enzyme_fwddiff((void *)f2_da, enzyme_const, a, b, 1.0), f2_dadb(a, b), 1e-12,
             1e-13);
    lt_check("forward over forward: d2 f2 / da2",
             __enzyme_fwddiff((void *)f2_da, a, 1.0, enzyme_const, b), f2_dada(a, b), 1e-12,
             1e-13);
  }
  return lt_done();
}
