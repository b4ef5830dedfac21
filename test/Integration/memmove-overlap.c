// memmove with overlapping source and destination inside the function:
// memmove(x+1, x, 3 doubles) then x0 = x1 * x2.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

/* x = [a b c d] -> [a a b c] -> [a b, a, b, c] */
void f(double *x) {
  memmove(x + 1, x, 3 * sizeof(double));
  x[0] = x[1] * x[2];
}

int main(void) {
  double a = lt_vd(1.25), b = lt_vd(-2.0), c = lt_vd(0.5), d = lt_vd(3.0);
  double s[4] = {lt_vd(1.0), lt_vd(10.0), lt_vd(100.0), lt_vd(1000.0)};
  double x[4] = {a, b, c, d};
  double dx[4] = {s[0], s[1], s[2], s[3]};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  lt_check("x0", x[0], a * b, 1e-15, 0);
  lt_check("x1", x[1], a, 0, 0);
  lt_check("x2", x[2], b, 0, 0);
  lt_check("x3", x[3], c, 0, 0);
  /* d a = s0 b + s1 ; d b = s0 a + s2 ; d c = s3 ; d d = 0 */
  lt_check("d a", dx[0], s[0] * b + s[1], 1e-12, 1e-13);
  lt_check("d b", dx[1], s[0] * a + s[2], 1e-12, 1e-13);
  lt_check("d c", dx[2], s[3], 1e-12, 1e-13);
  lt_check("d d", dx[3], 0.0, 0, 0);
  return lt_done();
}
