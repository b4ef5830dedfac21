// Nested differentiation: an __enzyme_autodiff call inside a function that
// is itself differentiated is rewritten first (innermost first), and the
// outer derivative differentiates the generated gradient code: second
// derivatives by reverse over reverse.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

static double f(double x, double y) { return x * x * x * sin(y) + exp(x * y); }

/* df/dx */
static double fx(double x, double y) {
  return __enzyme_autodiff((void *)f, x, enzyme_const, y);
}

/* sum of squares through a helper that differentiates inside a loop */
static double sq(double t) { return t * t * t; }
static double g(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += __enzyme_autodiff((void *)sq, x[i]) * x[i]; /* 3 x^3 */
  return s;
}

int main(void) {
  double x = lt_vd(0.7), y = lt_vd(0.3);
  double fxx = __enzyme_autodiff((void *)fx, x, enzyme_const, y);
  double fxy = __enzyme_autodiff((void *)fx, enzyme_const, x, y);
  lt_check("d2f/dx2", fxx, 6 * x * sin(y) + y * y * exp(x * y), 1e-12, 1e-14);
  lt_check("d2f/dxdy", fxy, 3 * x * x * cos(y) + (1 + x * y) * exp(x * y), 1e-12, 1e-14);
  double v[3] = {lt_vd(0.5), lt_vd(-1.25), lt_vd(2.0)}, dv[3] = {0};
  __enzyme_autodiff((void *)g, v, dv, enzyme_const, 3);
  for (int i = 0; i < 3; i++)
    lt_check("d/dx 3x^3 through an inner gradient in a loop", dv[i], 9 * v[i] * v[i], 1e-12, 1e-14);
  return lt_done();
}
