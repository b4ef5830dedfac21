// GNU sincos and sincosf in differentiated code (the rules know sin and
// cos; the call is split into both, and the generated code joins sin and
// cos of one value into one sincos again): reverse mode over a loop of
// sincos, forward mode at width 1 and 2, float too. Against the analytic
// derivative and central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#define _GNU_SOURCE
#include "check.h"
#include "testutil.h"
#include <math.h>

extern int enzyme_dup, enzyme_const, enzyme_width;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
float __enzyme_fwddifff(void *, ...);
typedef struct {
  double t[2];
} T2;
T2 __enzyme_fwddiff2(void *, ...);

/* sum over i of sin(a x_i) cos(a x_i) + sin(x_i), with sincos */
double g(const double *x, int n, double a) {
  double r = 0;
  for (int i = 0; i < n; i++) {
    double s, c, s1, c1;
    sincos(a * x[i], &s, &c);
    sincos(x[i], &s1, &c1);
    r += s * c + s1 * c1 * c1;
  }
  return r;
}
float gf(float x) {
  float s, c;
  sincosf(x, &s, &c);
  return s * s * c;
}
static double X[3] = {0.3, -1.2, 2.5}, A = 0.7;
static double g_a(double a) { return g(X, 3, a); }
static double g_x1(double t) {
  double x[3] = {X[0], X[1] + t, X[2]};
  return g(x, 3, A);
}
/* gf in double, for the central difference (float's is too coarse) */
static double gf_d(double x) { return sin(x) * sin(x) * cos(x); }

int main(void) {
  double a = lt_vd(A), dx[3] = {0};
  double da = __enzyme_autodiff((void *)g, enzyme_dup, X, dx, enzyme_const, 3, a);
  double an = 0, anx1 = 0;
  for (int i = 0; i < 3; i++) {
    an += X[i] * cos(2 * a * X[i]);
    double dxi = a * cos(2 * a * X[i]) + cos(X[i]) * cos(X[i]) * cos(X[i]) -
                 2 * sin(X[i]) * sin(X[i]) * cos(X[i]);
    if (i == 1)
      anx1 = dxi;
  }
  lt_grad("reverse: d/da (sincos in a loop)", a, da, an, lt_fd(g_a, a), 1e-12, 1e-6);
  lt_grad("reverse: d/dx[1]", X[1], dx[1], anx1, lt_fd(g_x1, 0), 1e-12, 1e-6);
  double zero[3] = {0}, e1[3] = {0, 1, 0};
  lt_grad("forward: d/da", a,
          __enzyme_fwddiff((void *)g, enzyme_dup, X, zero, enzyme_const, 3, a, 1.0), an,
          lt_fd(g_a, a), 1e-12, 1e-6);
  T2 w = __enzyme_fwddiff2((void *)g, enzyme_width, 2, enzyme_dup, X, zero, e1, enzyme_const, 3,
                           a, 1.0, 0.0);
  lt_check("forward width 2: d/da", w.t[0], an, 1e-12, 0);
  lt_check("forward width 2: d/dx[1]", w.t[1], anx1, 1e-12, 0);
  float xf = 0.9f;
  double anf = 2 * sin(0.9f) * cos(0.9f) * cos(0.9f) - pow(sin(0.9f), 3);
  lt_grad("forward sincosf", xf, __enzyme_fwddifff((void *)gf, xf, 1.0f), anf, lt_fd(gf_d, xf),
          1e-5, 1e-5);
  return lt_done();
}
