// switch on an integer computed from an active float ((int)floor(x)): the
// case choice carries no derivative, the selected formula does.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* piecewise: [0,1): x^2   [1,2): 3x - 1   [2,3): exp(x)   else: x * |x| */
double f(double x) {
  switch ((int)floor(x)) {
  case 0:
    return x * x;
  case 1:
    return 3.0 * x - 1.0;
  case 2:
    return exp(x);
  default:
    return x * fabs(x);
  }
}

static double df(double x) {
  switch ((int)floor(x)) {
  case 0:
    return 2 * x;
  case 1:
    return 3.0;
  case 2:
    return exp(x);
  default:
    return 2 * fabs(x);
  }
}

int main(void) {
  const double xs[] = {0.4, 1.6, 2.3, 4.5, -1.5};
  for (int i = 0; i < 5; i++) {
    double x = lt_vd(xs[i]);
    double g = __enzyme_autodiff((void *)f, x);
    lt_check("switch(floor) analytic", g, df(x), 1e-12, 1e-13);
    lt_check("switch(floor) fd", g, lt_fd(f, x), 1e-6, 1e-8);
  }
  return lt_done();
}
