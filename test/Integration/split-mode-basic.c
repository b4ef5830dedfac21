// Split mode: __enzyme_augmentfwd runs the forward pass and returns a tape;
// __enzyme_reverse later takes the same arguments, the return adjoint
// (dret = 2.5, not 1) and the tape. Two tapes are live at once and
// reversed in the opposite order, so each must carry its own values.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* y0 = x0 x1 ; ret = sin(x0) + x1^2
 * dx0 += s y1... : dx0 += s x1 + dret cos(x0) ; dx1 += s x0 + dret 2 x1
 * where s is the seed in dy0 (consumed)                                 */
double f(const double *x, double *y) {
  y[0] = x[0] * x[1];
  return sin(x[0]) + x[1] * x[1];
}

int main(void) {
  double x[2] = {lt_vd(0.7), lt_vd(-1.2)}, dx[2] = {0.5, -0.5};
  double y[1] = {0}, dy[1] = {lt_vd(3.0)};
  double u[2] = {lt_vd(-0.3), lt_vd(2.0)}, du[2] = {0, 0};
  double v[1] = {0}, dv[1] = {lt_vd(-1.0)};
  double dret = lt_vd(2.5), dret2 = lt_vd(-4.0);

  void *t1 =
      __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  lt_check("fwd primal y0", y[0], x[0] * x[1], 1e-15, 0);
  void *t2 =
      __enzyme_augmentfwd((void *)f, enzyme_dup, u, du, enzyme_dup, v, dv);
  lt_check("fwd primal v0", v[0], u[0] * u[1], 1e-15, 0);

  __enzyme_reverse((void *)f, enzyme_dup, u, du, enzyme_dup, v, dv, dret2, t2);
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, dret, t1);

  lt_check("dx0", dx[0], 0.5 + 3.0 * x[1] + 2.5 * cos(x[0]), 1e-12, 1e-13);
  lt_check("dx1", dx[1], -0.5 + 3.0 * x[0] + 2.5 * 2 * x[1], 1e-12, 1e-13);
  lt_check("dy consumed", dy[0], 0.0, 0, 0);
  lt_check("du0", du[0], -1.0 * u[1] - 4.0 * cos(u[0]), 1e-12, 1e-13);
  lt_check("du1", du[1], -1.0 * u[0] - 4.0 * 2 * u[1], 1e-12, 1e-13);
  lt_check("dv consumed", dv[0], 0.0, 0, 0);
  return lt_done();
}
