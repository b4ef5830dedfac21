// f32 arithmetic: a float function of float inputs read through dup pointers
// (no variadic float promotion involved), float return seeded with 1.0f.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>

/* f(a, b) = a*b - a/b - b^3 + 2.5
 * df/da = b - 1/b ; df/db = a + a/b^2 - 3 b^2 */
float f(const float *x) {
  float a = x[0], b = x[1];
  return a * b - a / b + -(b * b * b) + 2.5f;
}

int main(void) {
  float x[2] = {lt_vf(1.5f), lt_vf(-0.75f)};
  float dx[2] = {lt_vf(0.0f), lt_vf(0.0f)};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double a = x[0], b = x[1];
  lt_check("df/da", dx[0], b - 1 / b, 1e-5, 1e-6);
  lt_check("df/db", dx[1], a + a / (b * b) - 3 * b * b, 1e-5, 1e-6);
  lt_check("x[0] unchanged", x[0], 1.5, 0, 0);
  lt_check("x[1] unchanged", x[1], -0.75, 0, 0);
  return lt_done();
}
