// Nested if/else (a diamond inside a diamond) with active phis at both
// join points; every one of the four paths is taken.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* x > 0, x > 1 : a = x^3          a' = 3x^2
 * x > 0, x <= 1: a = sqrt(x) * 4  a' = 2/sqrt(x)
 * x <= 0, x > -1: a = x * exp(x)  a' = (1+x) exp(x)
 * x <= -1       : a = 1/x         a' = -1/x^2
 * f = a * x + a                  f' = a' x + a + a'                  */
double f(double x) {
  double a;
  if (x > 0.0) {
    if (x > 1.0)
      a = x * x * x;
    else
      a = sqrt(x) * 4.0;
  } else {
    if (x > -1.0)
      a = x * exp(x);
    else
      a = 1.0 / x;
  }
  return a * x + a;
}

static void ref(double x, double *a, double *da) {
  if (x > 0) {
    if (x > 1) {
      *a = x * x * x;
      *da = 3 * x * x;
    } else {
      *a = sqrt(x) * 4;
      *da = 2 / sqrt(x);
    }
  } else {
    if (x > -1) {
      *a = x * exp(x);
      *da = (1 + x) * exp(x);
    } else {
      *a = 1 / x;
      *da = -1 / (x * x);
    }
  }
}

int main(void) {
  const double xs[] = {1.7, 0.36, -0.4, -2.5};
  for (int i = 0; i < 4; i++) {
    double x = lt_vd(xs[i]), a, da;
    ref(x, &a, &da);
    double g = __enzyme_autodiff((void *)f, x);
    lt_check("nested analytic", g, da * x + a + da, 1e-12, 1e-13);
    lt_check("nested fd", g, lt_fd(f, x), 1e-6, 1e-8);
  }
  return lt_done();
}
