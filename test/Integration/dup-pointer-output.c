// Results written to an output array whose shadow holds the seed adjoints
// (dout[i] = seed): dx += J^T seed, the seeds are consumed (dout is zero
// afterwards) and the primal outputs are written.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* out0 = x0 x1 ; out1 = x2 / x3 ; out2 = x0 + exp(x3) */
void f(const double *x, double *out) {
  out[0] = x[0] * x[1];
  out[1] = x[2] / x[3];
  out[2] = x[0] + exp(x[3]);
}

int main(void) {
  static const double init[4] = {1.1, -0.8, 3.0, 1.6};
  double x[4], dx[4] = {1.0, 2.0, 3.0, 4.0};
  double out[3] = {-7, -7, -7};
  double dout[3];
  lt_fill(x, init, 4);

  /* one-hot seed: row 0 of the Jacobian */
  dout[0] = lt_vd(1.0);
  dout[1] = 0.0;
  dout[2] = 0.0;
  double z[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, z, enzyme_dup, out, dout);
  lt_check("row0 d/dx0", z[0], x[1], 1e-12, 1e-14);
  lt_check("row0 d/dx1", z[1], x[0], 1e-12, 1e-14);
  lt_check("row0 d/dx2", z[2], 0.0, 1e-12, 1e-14);
  lt_check("row0 d/dx3", z[3], 0.0, 1e-12, 1e-14);

  /* general seed, accumulated onto a pre-filled dx */
  double s[3] = {lt_vd(0.5), lt_vd(-2.0), lt_vd(3.0)};
  dout[0] = s[0];
  dout[1] = s[1];
  dout[2] = s[2];
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, out, dout);
  lt_check("dx0", dx[0], 1.0 + s[0] * x[1] + s[2], 1e-12, 1e-13);
  lt_check("dx1", dx[1], 2.0 + s[0] * x[0], 1e-12, 1e-13);
  lt_check("dx2", dx[2], 3.0 + s[1] / x[3], 1e-12, 1e-13);
  lt_check("dx3", dx[3], 4.0 - s[1] * x[2] / (x[3] * x[3]) + s[2] * exp(x[3]),
           1e-12, 1e-13);
  lt_check("dout0 consumed", dout[0], 0.0, 0, 0);
  lt_check("dout1 consumed", dout[1], 0.0, 0, 0);
  lt_check("dout2 consumed", dout[2], 0.0, 0, 0);
  lt_check("out0", out[0], x[0] * x[1], 1e-15, 0);
  lt_check("out1", out[1], x[2] / x[3], 1e-15, 0);
  lt_check("out2", out[2], x[0] + exp(x[3]), 1e-15, 0);
  return lt_done();
}
