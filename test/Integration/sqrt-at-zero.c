// sqrt at 0: its derivative is taken as 0 there, as Enzyme does (its
// test/Enzyme/ForwardMode/sqrt.ll selects 0 at x == 0). The norm of a
// vector that is zero by construction inside cos(|v|) has the derivative
// 0, and 0.5 * 0 / sqrt(0) made it NaN (fuzz --eigen seed 1140404:
// Eigen's .norm() of a product with a zero matrix). Elsewhere sqrt'(x) =
// 0.5 / sqrt(x). Reverse and forward mode, against the analytic values,
// at -O0 and -O2.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include <leantape.h>

double __enzyme_fwddiff(void *, ...);

static volatile double zero = 0.0;

/* cos(|z * x|) + x1 sqrt(x0): z is 0 at run time */
double f(const double *x) {
  double a = zero * x[0], b = zero * x[1];
  return cos(sqrt(a * a + b * b)) + x[1] * sqrt(x[0]);
}

int main(void) {
  double x[2] = {0.25, 3.0}, dx[2] = {0, 0};
  __enzyme_autodiff((void *)f, x, dx);
  /* d/dx0 = x1 * 0.5 / sqrt(x0) = 3, d/dx1 = sqrt(x0) = 0.5 */
  lt_check("reverse dx0", dx[0], 3.0, 1e-12, 1e-12);
  lt_check("reverse dx1", dx[1], 0.5, 1e-12, 1e-12);
  double t[2] = {1.0, 1.0};
  lt_check("forward", __enzyme_fwddiff((void *)f, x, t), 3.5, 1e-12, 1e-12);
  /* sqrt itself at 0: 0 by the convention, not inf or NaN */
  double y[2] = {0.0, 2.0}, dy[2] = {0, 0};
  __enzyme_autodiff((void *)f, y, dy);
  lt_check("reverse at x0 = 0", dy[0], 0.0, 0.0, 0.0);
  lt_check("reverse dx1 at x0 = 0", dy[1], 0.0, 0.0, 0.0);
  return lt_done();
}
