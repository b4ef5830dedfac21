// A chain of user calls a -> b -> c (noinline), each doing arithmetic on
// the result of the next.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

__attribute__((noinline)) double c(double x) { return exp(x) * x; }
__attribute__((noinline)) double b(double x) { return c(x * 2.0) + x * x; }
__attribute__((noinline)) double a(double x) { return b(x) * 3.0 - c(x); }

/* c' = exp(x)(1+x) ; b' = 2 c'(2x) + 2x ; a' = 3 b' - c'(x) */
static double dc(double x) { return exp(x) * (1 + x); }
static double da(double x) { return 3 * (2 * dc(2 * x) + 2 * x) - dc(x); }

int main(void) {
  const double xs[] = {0.3, -0.8};
  for (int i = 0; i < 2; i++) {
    double x = lt_vd(xs[i]);
    double g = __enzyme_autodiff((void *)a, x);
    lt_check("chain analytic", g, da(x), 1e-12, 1e-13);
    lt_check("chain fd", g, lt_fd(a, x), 1e-6, 1e-8);
  }
  return lt_done();
}
