// if/else producing phis of active values (a call in each arm keeps the
// branch from being flattened into a select at -O2).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* x > 0: r = sin(x) * x, t = x + 1   ->  f = 2 r + t*t
 * else:  r = x^3,        t = exp(x)  ->  f = 2 r + t*t
 * f'(x) = x > 0 ? 2 (cos(x) x + sin(x)) + 2 (x+1)
 *               : 6 x^2 + 2 exp(2x)                                  */
double f(double x) {
  double r, t;
  if (x > 0.0) {
    r = sin(x) * x;
    t = x + 1.0;
  } else {
    r = x * x * x;
    t = exp(x);
  }
  return 2.0 * r + t * t;
}

static double df(double x) {
  return x > 0 ? 2 * (cos(x) * x + sin(x)) + 2 * (x + 1)
               : 6 * x * x + 2 * exp(2 * x);
}

int main(void) {
  const double xs[] = {0.8, -0.6, 2.1, -1.7};
  for (int i = 0; i < 4; i++) {
    double x = lt_vd(xs[i]);
    double g = __enzyme_autodiff((void *)f, x);
    lt_check("branch analytic", g, df(x), 1e-12, 1e-13);
    lt_check("branch fd", g, lt_fd(f, x), 1e-6, 1e-8);
  }
  return lt_done();
}
