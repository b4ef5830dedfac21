// A user helper called twice from the differentiated function, both as an
// inlinable static function and as a noinline one (so the call survives
// -O2 and the plugin must inline it itself).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

static double sq(double v) { return v * v; }
__attribute__((noinline)) double cube(double v) { return v * v * v; }

/* f = sq(x) * sq(x + 1) ; f' = 2x (x+1)^2 + 2 x^2 (x+1) */
double f(double x) { return sq(x) * sq(x + 1.0); }

/* g = cube(x) + cube(sin(x)) ; g' = 3x^2 + 3 sin^2(x) cos(x) */
double g(double x) { return cube(x) + cube(sin(x)); }

int main(void) {
  const double xs[] = {0.7, -1.6};
  for (int i = 0; i < 2; i++) {
    double x = lt_vd(xs[i]);
    double d = __enzyme_autodiff((void *)f, x);
    lt_check("sq twice", d, 2 * x * (x + 1) * (x + 1) + 2 * x * x * (x + 1),
             1e-12, 1e-13);
    lt_check("sq twice fd", d, lt_fd(f, x), 1e-6, 1e-8);
    d = __enzyme_autodiff((void *)g, x);
    lt_check("cube twice", d, 3 * x * x + 3 * sin(x) * sin(x) * cos(x), 1e-12,
             1e-13);
    lt_check("cube twice fd", d, lt_fd(g, x), 1e-6, 1e-8);
  }
  return lt_done();
}
