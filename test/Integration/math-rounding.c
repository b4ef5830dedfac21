// Rounding functions have a zero derivative almost everywhere: floor, ceil,
// round, roundeven, trunc, rint, nearbyint and the integer-valued lround,
// llround, lrint. Points are away from integers and half-integers.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include <leantape.h>
#include <math.h>

#include "check.h"

#define RA 1e-12
#define RF 1e-6

/* f(x) = r(x) * x + x, so f'(x) = r(x) + 1 where r' = 0. */
#define ROUNDER(name, expr)                                                    \
  static double f_##name(double x) { return (double)(expr)*x + x; }            \
  static double d_##name(double x) { return (double)(expr) + 1; }
ROUNDER(floor, floor(x))
ROUNDER(ceil, ceil(x))
ROUNDER(round, round(x))
ROUNDER(roundeven, __builtin_roundeven(x))
ROUNDER(trunc, trunc(x))
ROUNDER(rint, rint(x))
ROUNDER(nearbyint, nearbyint(x))
ROUNDER(lround, lround(x))
ROUNDER(llround, llround(x))
ROUNDER(lrint, lrint(x))

/* Only a rounded value: the derivative is exactly 0. */
static double f_floor_only(double x) { return floor(x) * 2; }

#define GRAD(f, x)                                                             \
  lt_grad(#f, x, __enzyme_autodiff((void *)f_##f, x), d_##f(x),                \
          lt_fd(f_##f, x), RA, RF)

static volatile double pts[] = {-3.7, -2.3, -0.6, 0.2, 1.4, 2.8, 6.1};

int main(void) {
  for (unsigned i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    double x = pts[i];
    GRAD(floor, x);
    GRAD(ceil, x);
    GRAD(round, x);
    GRAD(roundeven, x);
    GRAD(trunc, x);
    GRAD(rint, x);
    GRAD(nearbyint, x);
    GRAD(lround, x);
    GRAD(llround, x);
    GRAD(lrint, x);
    lt_check("floor(x)*2 (enzyme_out)",
             __enzyme_autodiff((void *)f_floor_only, enzyme_out, x), 0, 0, 0);
  }
  return lt_done();
}
