/* testutil.h: helpers for the Integration tests, next to check.h.
 *
 * lt_vd/lt_vf/lt_vi pass a value through a volatile so that -O2 cannot
 * constant-fold the computation under test. lt_fd_arr is a central finite
 * difference of f(x) with respect to x[i] for functions of a double array.
 * None of these are ever differentiated, so loops are fine here.
 */
#ifndef LT_TESTUTIL_H
#define LT_TESTUTIL_H

#include <math.h>
#include <string.h>

static inline double lt_vd(double v) {
  volatile double t = v;
  return t;
}

static inline float lt_vf(float v) {
  volatile float t = v;
  return t;
}

static inline int lt_vi(int v) {
  volatile int t = v;
  return t;
}

/* Fill a[0..n) with values laundered through volatile. */
static inline void lt_fill(double *a, const double *v, int n) {
  for (int i = 0; i < n; i++)
    a[i] = lt_vd(v[i]);
}

/* Central difference d f(x) / d x[i]; n <= 16. x is not modified. */
static double lt_fd_arr(double (*f)(const double *), const double *x, int n,
                        int i) {
  double xp[16], xm[16];
  double h = 1e-6 * (fabs(x[i]) > 1 ? fabs(x[i]) : 1);
  memcpy(xp, x, n * sizeof(double));
  memcpy(xm, x, n * sizeof(double));
  xp[i] += h;
  xm[i] -= h;
  return (f(xp) - f(xm)) / (2 * h);
}

/* Central difference d f(x, k) / d x for a double function with an int
 * parameter held constant. */
static double lt_fd_int(double (*f)(double, int), double x, int k) {
  double h = 1e-6 * (fabs(x) > 1 ? fabs(x) : 1);
  return (f(x + h, k) - f(x - h, k)) / (2 * h);
}

#endif
