// A store of constant zero bits over active memory (memset, which -O2
// turns into an integer store of 0, or an explicit integer store through
// a union) ends the derivative of what was there: in reverse mode the
// shadow is zeroed as the reverse passes the store (dout[0] must end 0 and
// nothing flows from it into dx[0]); in forward mode the tangent becomes
// 0. Against the analytic derivative.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <string.h>

extern int enzyme_dup;
void __enzyme_autodiff(void *, ...);
void __enzyme_fwddiff(void *, ...);

void f(const double *x, double *out) {
  memcpy(out, x, 3 * sizeof *out);
  memset(out, 0, sizeof *out); /* out[0] = 0 */
  union {
    double d;
    unsigned long long u;
  } *p = (void *)(out + 2);
  p->u = 0; /* out[2] = 0.0 through its bits */
  out[1] *= 3;
}

int main(void) {
  double x[3] = {lt_vd(1.5), lt_vd(2.5), lt_vd(-1)}, dx[3] = {0, 0, 0}, out[3];
  double dout[3] = {1, 1, 1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, out, dout);
  lt_check("reverse: dx[0] (out[0] was zeroed)", dx[0], 0, 0, 0);
  lt_check("reverse: dx[1]", dx[1], 3, 0, 0);
  lt_check("reverse: dx[2] (out[2] zeroed through its bits)", dx[2], 0, 0, 0);
  lt_check("reverse: dout[0] consumed", dout[0], 0, 0, 0);
  lt_check("reverse: dout[2] consumed", dout[2], 0, 0, 0);
  double tx[3] = {1, 1, 1}, tout[3] = {7, 7, 7};
  __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_dup, out, tout);
  lt_check("forward: tangent of out[0]", tout[0], 0, 0, 0);
  lt_check("forward: tangent of out[1]", tout[1], 3, 0, 0);
  lt_check("forward: tangent of out[2]", tout[2], 0, 0, 0);
  return lt_done();
}
