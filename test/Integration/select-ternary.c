// Ternaries / selects: `x > y ? x*x : y` with y constant and with y active,
// and a select between two active values; both sides are exercised.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>

static double pick(double x, double y) { return x > y ? x * x : y; }

/* s1(x) = x > 2 ? x^2 : 2 ; s1' = x > 2 ? 2x : 0 */
double s1(double x) { return pick(x, 2.0); }

/* s2(x) = x > 4-x ? x^2 : 4-x ; s2' = x > 2 ? 2x : -1 */
double s2(double x) { return pick(x, 4.0 - x); }

/* s3(x) = max(x^2, 3x+1) * x ; s3' = x^2 > 3x+1 ? 3x^2 : 6x+1 */
double s3(double x) {
  double a = x * x, b = 3.0 * x + 1.0;
  double m = a > b ? a : b;
  return m * x;
}

int main(void) {
  const double xs[] = {3.0, 1.5, -0.9, 5.25};
  for (int i = 0; i < 4; i++) {
    double x = lt_vd(xs[i]);
    double g = __enzyme_autodiff((void *)s1, x);
    lt_check("s1", g, x > 2 ? 2 * x : 0.0, 1e-12, 1e-14);
    g = __enzyme_autodiff((void *)s2, x);
    lt_check("s2", g, x > 2 ? 2 * x : -1.0, 1e-12, 1e-14);
    lt_check("s2 fd", g, lt_fd(s2, x), 1e-6, 1e-8);
    g = __enzyme_autodiff((void *)s3, x);
    lt_check("s3", g, x * x > 3 * x + 1 ? 3 * x * x : 6 * x + 1, 1e-12, 1e-14);
    lt_check("s3 fd", g, lt_fd(s3, x), 1e-6, 1e-8);
  }
  return lt_done();
}
