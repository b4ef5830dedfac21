// Split mode where the caller overwrites the input array between the
// forward and the reverse half (Enzyme's default split-mode contract: the
// reverse pass may not assume the arguments' memory is unchanged, so the
// values it needs must come from the tape).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* f = x0^2 x1 + sin(x1) ; d0 = 2 x0 x1 ; d1 = x0^2 + cos(x1) */
double f(const double *x) { return x[0] * x[0] * x[1] + sin(x[1]); }

int main(void) {
  double x0 = lt_vd(1.3), x1 = lt_vd(0.4);
  double x[2] = {x0, x1}, dx[2] = {0, 0};
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx);
  x[0] = lt_vd(-100.0);
  x[1] = lt_vd(55.0);
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, lt_vd(2.5), tape);
  lt_check("d0", dx[0], 2.5 * (2 * x0 * x1), 1e-12, 1e-13);
  lt_check("d1", dx[1], 2.5 * (x0 * x0 + cos(x1)), 1e-12, 1e-13);
  return lt_done();
}
