// In-place update that overwrites its inputs: x[0] = x[0]*x[1];
// x[1] = sin(x[0]). The reverse pass needs the old x[0] and x[1], which the
// function has overwritten. Seeds are the adjoints of the final x[0], x[1].
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

void f(double *x) {
  x[0] = x[0] * x[1];
  x[1] = sin(x[0]);
}

int main(void) {
  double a = lt_vd(0.8), b = lt_vd(-1.9);
  double s0 = lt_vd(1.5), s1 = lt_vd(-0.5);
  double x[2] = {a, b};
  double dx[2] = {s0, s1};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  /* final: y0 = a b, y1 = sin(a b).
   * d(a) = (s0 + s1 cos(ab)) b ; d(b) = (s0 + s1 cos(ab)) a */
  double c = s0 + s1 * cos(a * b);
  lt_check("primal x0", x[0], a * b, 1e-15, 0);
  lt_check("primal x1", x[1], sin(a * b), 1e-15, 0);
  lt_check("d a", dx[0], c * b, 1e-12, 1e-13);
  lt_check("d b", dx[1], c * a, 1e-12, 1e-13);

  /* seed only x1: d(a) = cos(ab) b, d(b) = cos(ab) a */
  x[0] = a;
  x[1] = b;
  dx[0] = 0.0;
  dx[1] = lt_vd(1.0);
  __enzyme_autodiff((void *)f, x, dx);
  lt_check("x1-only d a", dx[0], cos(a * b) * b, 1e-12, 1e-13);
  lt_check("x1-only d b", dx[1], cos(a * b) * a, 1e-12, 1e-13);
  return lt_done();
}
