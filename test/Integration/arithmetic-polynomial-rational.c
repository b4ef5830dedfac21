// fadd/fsub/fmul/fdiv/fneg: a polynomial and a rational function of one
// double, unmarked (so enzyme_out by default), checked against the analytic
// derivative and a central difference.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>

/* p(x) = 3x^3 - 2x^2 + x/4 - 7 - (-x)  ;  p'(x) = 9x^2 - 4x + 1/4 + 1 */
double poly(double x) {
  double nx = -x;
  return 3.0 * x * x * x - 2.0 * x * x + x / 4.0 - 7.0 - nx;
}

/* r(x) = (x^2 - 3) / (2x^2 - x + 1)
 * r'(x) = (2x (2x^2 - x + 1) - (x^2 - 3)(4x - 1)) / (2x^2 - x + 1)^2 */
double rational(double x) {
  double num = x * x - 3.0;
  double den = 2.0 * x * x + (-x) + 1.0;
  return num / den;
}

/* Only fneg and fdiv: q(x) = -(1/x) / x = -1/x^2 ; q'(x) = 2/x^3 */
double negdiv(double x) { return -(1.0 / x) / x; }

static double dpoly(double x) { return 9 * x * x - 4 * x + 0.25 + 1.0; }
static double drational(double x) {
  double n = x * x - 3, d = 2 * x * x - x + 1;
  return (2 * x * d - n * (4 * x - 1)) / (d * d);
}

int main(void) {
  const double xs[] = {0.7, -1.3, 2.5};
  for (int i = 0; i < 3; i++) {
    double x = lt_vd(xs[i]);
    double g = __enzyme_autodiff((void *)poly, x);
    lt_check("poly analytic", g, dpoly(x), 1e-12, 1e-13);
    lt_check("poly fd", g, lt_fd(poly, x), 1e-6, 1e-8);

    g = __enzyme_autodiff((void *)rational, x);
    lt_check("rational analytic", g, drational(x), 1e-12, 1e-13);
    lt_check("rational fd", g, lt_fd(rational, x), 1e-6, 1e-8);

    g = __enzyme_autodiff((void *)negdiv, x);
    lt_check("negdiv analytic", g, 2.0 / (x * x * x), 1e-12, 1e-13);
    lt_check("negdiv fd", g, lt_fd(negdiv, x), 1e-6, 1e-8);
  }
  return lt_done();
}
