// Common Enzyme style without leantape.h: the test itself defines the marker
// globals (`int enzyme_dup;` ...) and declares the entry point. The markers
// are recognised by name whether defined or only declared, at -O0 and -O2.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"

int enzyme_dup;
int enzyme_const;
int enzyme_out;
double __enzyme_autodiff(void *, ...);

/* f = x0 x1 w + c w^2 ; dx0 += x1 w ; dx1 += x0 w ; dw = x0 x1 + 2 c w */
double f(const double *x, double c, double w) {
  return x[0] * x[1] * w + c * w * w;
}

int main(void) {
  double x[2] = {lt_vd(1.5), lt_vd(-2.0)}, dx[2] = {0, 0};
  double c = lt_vd(0.5), w = lt_vd(3.0);
  double dw = __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, c,
                                enzyme_out, w);
  lt_check("dx0", dx[0], x[1] * w, 1e-12, 1e-14);
  lt_check("dx1", dx[1], x[0] * w, 1e-12, 1e-14);
  lt_check("dw", dw, x[0] * x[1] + 2 * c * w, 1e-12, 1e-14);
  return lt_done();
}
