// f32 scalars passed through a non-variadic prototype of an entry point
// (common Enzyme style: `float __enzyme_autodiff(void *, float)` under a
// name with the __enzyme_autodiff prefix), so the float is not promoted to
// double and the float gradient is returned as float.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>

float __enzyme_autodiff_f32(void *, float);

/* f(x) = x^3 - 2/x ; f'(x) = 3x^2 + 2/x^2 */
float f(float x) { return x * x * x - 2.0f / x; }

int main(void) {
  float x = lt_vf(1.25f);
  float g = __enzyme_autodiff_f32((void *)f, x);
  double xd = x;
  lt_check("f32 scalar", g, 3 * xd * xd + 2 / (xd * xd), 1e-5, 1e-6);
  return lt_done();
}
