// memset of a local array and of a dup output array inside the function:
// the zeroed region has no derivative, so the output seeds of zeroed-then-
// overwritten slots flow only through the new values, and slots left at
// zero just consume their seed.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

/* local: loc = 0; loc1 = x0 x1; loc2 = x1; ret = loc0 + loc1 loc2 + loc3
 * = x0 x1^2 ; d0 = x1^2, d1 = 2 x0 x1 (loc indexed by an int so the alloca
 * survives -O2)                                                       */
double g(const double *x, int k) {
  double loc[4];
  memset(loc, 0, sizeof loc);
  loc[k] = x[0] * x[1];
  loc[k + 1] = x[1];
  return loc[0] + loc[1] * loc[2] + loc[3];
}

/* out = 0 (all 4); out0 += x0^2; out2 += x1 * 3 ; out1, out3 stay 0 */
void h(const double *x, double *out) {
  memset(out, 0, 4 * sizeof(double));
  out[0] += x[0] * x[0];
  out[2] += x[1] * 3.0;
}

int main(void) {
  double x[2] = {lt_vd(1.75), lt_vd(-0.6)};
  double dx[2] = {0, 0};
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx, enzyme_const, lt_vi(1));
  lt_check("g d0", dx[0], x[1] * x[1], 1e-12, 1e-14);
  lt_check("g d1", dx[1], 2 * x[0] * x[1], 1e-12, 1e-14);

  double out[4] = {9, 9, 9, 9};
  double dout[4] = {lt_vd(2.0), lt_vd(5.0), lt_vd(-3.0), lt_vd(7.0)};
  double d[2] = {0.5, 0.5};
  __enzyme_autodiff((void *)h, enzyme_dup, x, d, enzyme_dup, out, dout);
  lt_check("h d0", d[0], 0.5 + 2.0 * 2 * x[0], 1e-12, 1e-13);
  lt_check("h d1", d[1], 0.5 + -3.0 * 3.0, 1e-12, 1e-13);
  for (int i = 0; i < 4; i++)
    lt_check("dout consumed", dout[i], 0.0, 0, 0);
  lt_check("out0", out[0], x[0] * x[0], 1e-15, 0);
  lt_check("out1", out[1], 0.0, 0, 0);
  lt_check("out2", out[2], x[1] * 3.0, 1e-15, 0);
  lt_check("out3", out[3], 0.0, 0, 0);
  return lt_done();
}
