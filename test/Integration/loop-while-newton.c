// While loops with a data-dependent trip count: Newton iterations for
// sqrt(a) and for the real root of x^3 + p x - q (p > 0), each running
// `while (fabs(f) > tol && it < 100)`. The derivative of the converged
// iterate matches the implicit-function derivative:
//   d sqrt(a)/da = 1 / (2 sqrt a);  dx/dq = 1/(3x^2+p), dx/dp = -x/(3x^2+p).
// Finite differences use a larger step (1e-5 relative): the trip count may
// differ between x+h and x-h, but both results are converged to ~1e-15.
// A hand-written tangent of the same iteration (always run, also with
// -DNO_AD) checks that the iterate's derivative really reaches the analytic
// value at these points, so the 1e-10 AD tolerance is achievable.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

typedef struct {
  double dp, dq;
} G2;
#ifdef NO_AD
G2 __enzyme_autodiff2(void *fn, ...) {
  (void)fn;
  G2 g = {0, 0};
  return g;
}
#else
G2 __enzyme_autodiff2(void *, ...);
#endif

double newton_sqrt(double a) {
  double x = a > 1 ? a : 1.0;
  int it = 0;
  while (fabs(x * x - a) > 1e-14 * a && it < 100) {
    x = 0.5 * (x + a / x);
    it++;
  }
  return x;
}

double cubic_root(double p, double q) {
  double x = q / p;
  double f = x * x * x + p * x - q;
  int it = 0;
  while (fabs(f) > 1e-13 * (fabs(q) + 1) && it < 100) {
    x -= f / (3 * x * x + p);
    f = x * x * x + p * x - q;
    it++;
  }
  return x;
}

/* hand-written forward tangents (and trip counts) of the same loops */
static double tan_sqrt(double a, int *trips) {
  double x = a > 1 ? a : 1.0, dx = a > 1 ? 1.0 : 0.0;
  int it = 0;
  while (fabs(x * x - a) > 1e-14 * a && it < 100) {
    dx = 0.5 * (dx + 1 / x - a * dx / (x * x));
    x = 0.5 * (x + a / x);
    it++;
  }
  *trips = it;
  return dx;
}
static double tan_cubic(double p, double q, double dp, double dq) {
  double x = q / p, dx = dq / p - q * dp / (p * p);
  double f = x * x * x + p * x - q, df = 3 * x * x * dx + dp * x + p * dx - dq;
  int it = 0;
  while (fabs(f) > 1e-13 * (fabs(q) + 1) && it < 100) {
    double fp = 3 * x * x + p, dfp = 6 * x * dx + dp;
    dx -= df / fp - f * dfp / (fp * fp);
    x -= f / fp;
    f = x * x * x + p * x - q;
    df = 3 * x * x * dx + dp * x + p * dx - dq;
    it++;
  }
  return dx;
}

static double o_sqrt(double *z, void *c) {
  (void)c;
  return newton_sqrt(z[0]);
}
static double o_cubic(double *z, void *c) {
  (void)c;
  return cubic_root(z[0], z[1]);
}

int main(void) {
  static const double as[5] = {0.3, 2.0, 17.5, 1234.5, 0.0071};
  for (int k = 0; k < 5; k++) {
    double a = lt_vd(as[k]);
    int trips;
    double ad = __enzyme_autodiff((void *)newton_sqrt, enzyme_out, a);
    double an = 1 / (2 * sqrt(a));
    double fd = lt_fdv_h(o_sqrt, &a, 1, 0, NULL, 1e-5);
    double tg = tan_sqrt(a, &trips);
    printf("-- sqrt(%g): %d iterations\n", a, trips);
    lt_check("primal", newton_sqrt(a), sqrt(a), 1e-14, 0);
    lt_check("tangent vs analytic", tg, an, 1e-10, 0);
    lt_grad("dsqrt/da", a, LT_AD ? ad : an, an, fd, 1e-10, 1e-6);
  }

  static const double ps[3] = {1.0, 0.25, 4.0}, qs[3] = {2.0, -3.5, 10.0};
  for (int k = 0; k < 3; k++) {
    double z[2] = {lt_vd(ps[k]), lt_vd(qs[k])};
    double p = z[0], q = z[1];
    G2 g = __enzyme_autodiff2((void *)cubic_root, enzyme_out, p, enzyme_out, q);
    double x = cubic_root(p, q), den = 3 * x * x + p;
    double an_p = -x / den, an_q = 1 / den;
    double fd_p = lt_fdv_h(o_cubic, z, 2, 0, NULL, 1e-5);
    double fd_q = lt_fdv_h(o_cubic, z, 2, 1, NULL, 1e-5);
    printf("-- cubic p=%g q=%g root %.17g\n", p, q, x);
    lt_check("cubic residual", x * x * x + p * x - q, 0.0, 0, 1e-12);
    lt_check("tangent p vs analytic", tan_cubic(p, q, 1, 0), an_p, 1e-10, 0);
    lt_check("tangent q vs analytic", tan_cubic(p, q, 0, 1), an_q, 1e-10, 0);
    lt_grad("droot/dp", p, LT_AD ? g.dp : an_p, an_p, fd_p, 1e-10, 1e-6);
    lt_grad("droot/dq", q, LT_AD ? g.dq : an_q, an_q, fd_q, 1e-10, 1e-6);
  }
  return lt_done();
}
