// A noinline helper taking pointer arguments (reads one array, accumulates
// into a local and into a dup output), called twice with different pointers.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>

__attribute__((noinline)) void accum(const double *x, double *acc) {
  acc[0] += x[0] * x[1];
  acc[1] = acc[1] * x[0];
}

/* loc = [0, 1]; accum(x, loc): loc = [x0 x1, x0]
 * accum(x + 1, loc): loc = [x0 x1 + x1 x2, x0 x1]
 * out[0] = loc0 + loc1 = 2 x0 x1 + x1 x2
 * f      = loc0 * loc1 = (x0 x1 + x1 x2) x0 x1                        */
double f(const double *x, double *out) {
  double loc[2] = {0.0, 1.0};
  accum(x, loc);
  accum(x + 1, loc);
  out[0] = loc[0] + loc[1];
  return loc[0] * loc[1];
}

int main(void) {
  double x[3] = {lt_vd(0.9), lt_vd(-1.1), lt_vd(2.0)};
  double dx[3] = {0, 0, 0};
  double out[1] = {0}, dout[1] = {lt_vd(0.5)};
  double x0 = x[0], x1 = x[1], x2 = x[2];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, out, dout);
  double A = x0 * x1 + x1 * x2, B = x0 * x1;
  /* f = A B : dA = B, dB = A ; out0 = 2 x0 x1 + x1 x2 seeded 0.5 */
  double w0 = B * x1 + A * x1 + 0.5 * 2 * x1;
  double w1 = B * (x0 + x2) + A * x0 + 0.5 * (2 * x0 + x2);
  double w2 = B * x1 + 0.5 * x1;
  lt_check("d0", dx[0], w0, 1e-12, 1e-13);
  lt_check("d1", dx[1], w1, 1e-12, 1e-13);
  lt_check("d2", dx[2], w2, 1e-12, 1e-13);
  lt_check("dout consumed", dout[0], 0.0, 0, 0);
  lt_check("out", out[0], 2 * x0 * x1 + x1 * x2, 1e-15, 0);
  return lt_done();
}
