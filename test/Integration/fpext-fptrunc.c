// Mixed float/double: fptrunc to float, float arithmetic, fpext back.
// The gradient is computed partly in float, so compare with float tolerance.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>

/* f(x) = (double)((float)x * (float)x) * x + (double)(float)(3x)
 * f'(x) ~= 3x^2 + 3 */
double f(double x) {
  float y = (float)x;
  float z = y * y;
  float w = (float)(3.0 * x);
  return (double)z * x + (double)w;
}

/* Only the double part is active through a float detour:
 * g(x) = x * (double)(float)(x + 1) ; g'(x) ~= 2x + 1 */
double g(double x) { return x * (double)(float)(x + 1.0); }

int main(void) {
  const double xs[] = {0.6, -2.2};
  for (int i = 0; i < 2; i++) {
    double x = lt_vd(xs[i]);
    double d = __enzyme_autodiff((void *)f, x);
    lt_check("f analytic", d, 3 * x * x + 3, 1e-5, 1e-6);
    d = __enzyme_autodiff((void *)g, x);
    lt_check("g analytic", d, 2 * x + 1, 1e-5, 1e-6);
  }
  return lt_done();
}
