// Mixed markers: enzyme_const on a double (no gradient, value still used),
// an int parameter (const), enzyme_dupnoneed on an output buffer (only its
// shadow is checked: the primal result may not be written), enzyme_dup on
// an input, and an explicit enzyme_out scalar.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* out0 = c x0 + n w ; out1 = x1 w^2 ; ret = w x0 x1 + c w
 * with seeds t0, t1 on out and 1 on ret:
 * dx0 += t0 c + w x1 ; dx1 += t1 w^2 + w x0
 * dw = t0 n + 2 t1 x1 w + x0 x1 + c                                     */
double f(const double *x, double c, int n, double *out, double w) {
  out[0] = c * x[0] + n * w;
  out[1] = x[1] * w * w;
  return w * x[0] * x[1] + c * w;
}

/* only the const double: g = c sin(w) ; dg/dw = c cos(w) */
double g(double c, double w) { return c * sin(w); }

int main(void) {
  double x[2] = {lt_vd(1.1), lt_vd(-0.9)}, dx[2] = {0.25, 0.25};
  double c = lt_vd(2.5), w = lt_vd(0.6);
  int n = lt_vi(3);
  double out[2] = {0, 0}, dout[2] = {lt_vd(2.0), lt_vd(-1.0)};
  double t0 = dout[0], t1 = dout[1];
  double dw = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, c,
                                n, enzyme_dupnoneed, out, dout, enzyme_out, w);
  lt_check("dx0", dx[0], 0.25 + t0 * c + w * x[1], 1e-12, 1e-13);
  lt_check("dx1", dx[1], 0.25 + t1 * w * w + w * x[0], 1e-12, 1e-13);
  lt_check("dw", dw, t0 * n + 2 * t1 * x[1] * w + x[0] * x[1] + c, 1e-12,
           1e-13);
  lt_check("dout0 consumed", dout[0], 0.0, 0, 0);
  lt_check("dout1 consumed", dout[1], 0.0, 0, 0);

  double r = __enzyme_autodiff((void *)g, enzyme_const, c, w);
  lt_check("const double", r, c * cos(w), 1e-12, 1e-14);
  return lt_done();
}
