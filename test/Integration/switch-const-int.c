// switch on an integer argument (unmarked int = const) selecting formulas,
// including the default case and a fall-through.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

double f(double x, int k) {
  double r = 0.0;
  switch (k) {
  case 0:
    r = x * x; /* 2x */
    break;
  case 1:
    r = sin(x) * 3.0; /* 3 cos x */
    break;
  case 2:
    r = x / 2.0; /* falls through: x/2 + x^3 -> 1/2 + 3x^2 */
  case 3:
    r += x * x * x; /* case 3 alone: 3x^2 */
    break;
  default:
    r = 5.0 - x; /* -1 */
    break;
  }
  return r * 2.0;
}

static double df(double x, int k) {
  switch (k) {
  case 0:
    return 2 * (2 * x);
  case 1:
    return 2 * (3 * cos(x));
  case 2:
    return 2 * (0.5 + 3 * x * x);
  case 3:
    return 2 * (3 * x * x);
  default:
    return -2.0;
  }
}

int main(void) {
  double x = lt_vd(1.3);
  for (int k = 0; k < 6; k++) {
    int kk = lt_vi(k);
    double g = __enzyme_autodiff((void *)f, x, kk);
    lt_check("switch analytic", g, df(x, kk), 1e-12, 1e-13);
    lt_check("switch fd", g, lt_fd_int(f, x, kk), 1e-6, 1e-8);
    /* explicit marker for the int: same result */
    g = __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const, kk);
    lt_check("switch marked", g, df(x, kk), 1e-12, 1e-13);
  }
  return lt_done();
}
