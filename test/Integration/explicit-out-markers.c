// Explicit enzyme_out markers: on a single double (double return) and on
// two doubles around an enzyme_const one (struct return); the result must
// equal the unmarked default.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

typedef struct {
  double a, b;
} G2;
G2 __enzyme_autodiff_pair(void *, ...);

/* f = x^3 / (1 + y^2) + y k  with k const
 * fx = 3x^2 / (1+y^2) ; fy = -2 y x^3 / (1+y^2)^2 + k                  */
double f(double x, double k, double y) {
  return x * x * x / (1.0 + y * y) + y * k;
}

double h(double x) { return log(x) * x; } /* h' = log(x) + 1 */

int main(void) {
  double x = lt_vd(1.4), y = lt_vd(-0.7), k = lt_vd(5.0);
  double d = __enzyme_autodiff((void *)h, enzyme_out, x);
  lt_check("single out", d, log(x) + 1, 1e-12, 1e-14);
  lt_check("single out fd", d, lt_fd(h, x), 1e-6, 1e-8);

  double q = 1 + y * y;
  G2 g = __enzyme_autodiff_pair((void *)f, enzyme_out, x, enzyme_const, k,
                                enzyme_out, y);
  lt_check("fx", g.a, 3 * x * x / q, 1e-12, 1e-13);
  lt_check("fy", g.b, -2 * y * x * x * x / (q * q) + k, 1e-12, 1e-13);
  return lt_done();
}
