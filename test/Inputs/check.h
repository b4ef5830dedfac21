/* check.h: numeric checking helpers for the integration tests.
 *
 * lt_check compares one value with a tolerance and records failures,
 * lt_fd* are central differences of the primal, lt_grad checks one AD
 * derivative against the analytic formula and against finite differences
 * (and the formula against finite differences, which guards the test
 * itself), and lt_done gives the exit status. Header-only, static.
 */
#ifndef LT_CHECK_H
#define LT_CHECK_H

#include <math.h>
#include <stdio.h>

static int lt_failures_;

/* Passes when |got - want| <= atol + rtol*|want|; NaN never passes. */
static inline void lt_check(const char *what, double got, double want,
                            double rtol, double atol) {
  double tol = atol + rtol * fabs(want);
  int ok = fabs(got - want) <= tol;
  if (!ok)
    lt_failures_++;
  printf("%s %s: got %.17g want %.17g (tol %.3g)\n", ok ? "ok  " : "FAIL", what,
         got, want, tol);
}

/* Central differences; dividing by the step actually taken (xp - xm)
 * removes the rounding of x +- h from the error. */
static inline double lt_fd(double (*f)(double), double x) {
  double h = 1e-6 * fmax(1.0, fabs(x));
  volatile double xp = x + h, xm = x - h;
  return (f(xp) - f(xm)) / (xp - xm);
}
/* Partial derivative with respect to argument k of f(a, b). */
static inline double lt_fd2(double (*f)(double, double), double a, double b,
                            int k) {
  double x = k ? b : a, h = 1e-6 * fmax(1.0, fabs(x));
  volatile double xp = x + h, xm = x - h;
  double fp = k ? f(a, xp) : f(xp, b), fm = k ? f(a, xm) : f(xm, b);
  return (fp - fm) / (xp - xm);
}
/* Partial derivative with respect to argument k of f(a, b, c). */
static inline double lt_fd3(double (*f)(double, double, double), double a,
                            double b, double c, int k) {
  double p[3] = {a, b, c}, m[3] = {a, b, c};
  double h = 1e-6 * fmax(1.0, fabs(p[k]));
  volatile double xp = p[k] + h, xm = p[k] - h;
  p[k] = xp;
  m[k] = xm;
  return (f(p[0], p[1], p[2]) - f(m[0], m[1], m[2])) / (xp - xm);
}
/* Partial derivative of an objective of an array with respect to x[k]:
 * x[k] moved by +-h (h = 1e-6 max(1, |x[k]|)) and put back. */
static inline double lt_fd_at(double (*obj)(const double *), double *x, int k) {
  double h = 1e-6 * fmax(1.0, fabs(x[k])), xk = x[k];
  volatile double xp = xk + h, xm = xk - h;
  x[k] = xp;
  double fp = obj(x);
  x[k] = xm;
  double fm = obj(x);
  x[k] = xk;
  return (fp - fm) / (xp - xm);
}
/* Float variants: a larger step, since float rounding (~6e-8) divided by
 * the step dominates; expect ~1e-3 relative accuracy. */
static inline double lt_fdf(float (*f)(float), float x) {
  double h = 1e-3 * fmax(1.0, fabs(x));
  volatile float xp = (float)(x + h), xm = (float)(x - h);
  return ((double)f(xp) - (double)f(xm)) / ((double)xp - (double)xm);
}
static inline double lt_fdf2(float (*f)(float, float), float a, float b,
                             int k) {
  double x = k ? b : a, h = 1e-3 * fmax(1.0, fabs(x));
  volatile float xp = (float)(x + h), xm = (float)(x - h);
  double fp = k ? f(a, xp) : f(xp, b), fm = k ? f(a, xm) : f(xm, b);
  return (fp - fm) / ((double)xp - (double)xm);
}

/* One derivative at point x: the AD result `ad` against the analytic `an`
 * (rtol_an) and the finite difference `fd` (rtol_fd), plus `an` against
 * `fd`. The absolute floor of each tolerance is rtol * 1e-3. */
static inline void lt_grad(const char *what, double x, double ad, double an,
                           double fd, double rtol_an, double rtol_fd) {
  char buf[160];
  snprintf(buf, sizeof buf, "%s at %g: AD vs analytic", what, x);
  lt_check(buf, ad, an, rtol_an, rtol_an * 1e-3);
  snprintf(buf, sizeof buf, "%s at %g: AD vs finite difference", what, x);
  lt_check(buf, ad, fd, rtol_fd, rtol_fd * 1e-3);
  snprintf(buf, sizeof buf, "%s at %g: analytic vs finite difference", what, x);
  lt_check(buf, an, fd, rtol_fd, rtol_fd * 1e-3);
}

/* Exit status: 0 when every check passed. */
/* Gradients under different tape budgets are the same arithmetic in the
 * same order: got[0..n) must equal want[0..n) bit for bit (what names the
 * pair; the count of elements that differ is checked against 0). */
static inline void lt_check_bitwise(const char *what, const double *got, const double *want,
                                    int n) {
  int bad = 0;
  for (int i = 0; i < n; i++)
    bad += got[i] != want[i];
  char w[200];
  snprintf(w, sizeof w, "%s: elements that differ from no budget (bitwise)", what);
  lt_check(w, bad, 0, 0, 0);
}

static inline int lt_done(void) {
  if (lt_failures_)
    printf("%d check(s) FAILED\n", lt_failures_);
  else
    printf("all checks passed\n");
  return lt_failures_ != 0;
}

#endif
