// Two enzyme_out (unmarked double) arguments: the entry point declared with
// a struct-of-two-doubles return (returned in registers on x86-64) gets the
// gradients in argument order.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

typedef struct {
  double a, b;
} G2;
G2 __enzyme_autodiff2(void *, ...);

/* f = x^2 y + sin(y) / x
 * fx = 2xy - sin(y)/x^2 ; fy = x^2 + cos(y)/x                          */
double f(double x, double y) { return x * x * y + sin(y) / x; }

int main(void) {
  double x = lt_vd(1.3), y = lt_vd(-0.4);
  G2 g = __enzyme_autodiff2((void *)f, x, y);
  lt_check("fx", g.a, 2 * x * y - sin(y) / (x * x), 1e-12, 1e-13);
  lt_check("fy", g.b, x * x + cos(y) / x, 1e-12, 1e-13);
  /* the order follows the arguments: swap the roles */
  G2 h = __enzyme_autodiff2((void *)f, y, x);
  lt_check("swapped fx", h.a, 2 * y * x - sin(x) / (y * y), 1e-12, 1e-13);
  lt_check("swapped fy", h.b, y * y + cos(x) / y, 1e-12, 1e-13);
  return lt_done();
}
