// A struct of doubles (with an int field in the middle) accessed through a
// dup pointer; the shadow is a struct of the same type. One field is
// written as an output.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

struct P {
  double x;
  int tag;
  double y, z;
  double out;
};

/* returns x y + z^2 x (times tag, an inactive int)
 * and stores p->out = y / z                                           */
double f(struct P *p) {
  p->out = p->y / p->z;
  return (p->x * p->y + p->z * p->z * p->x) * p->tag;
}

int main(void) {
  struct P p = {lt_vd(1.2), lt_vi(3), lt_vd(-0.4), lt_vd(2.5), -1.0};
  struct P dp = {0.5, 12345, 0.0, 0.0, lt_vd(2.0)}; /* dp.out = seed of out */
  double x = p.x, y = p.y, z = p.z;
  __enzyme_autodiff((void *)f, enzyme_dup, &p, &dp);
  /* return seed 1 (times tag 3) and out seed 2 */
  lt_check("d x", dp.x, 0.5 + 3 * (y + z * z), 1e-12, 1e-13);
  lt_check("d y", dp.y, 3 * x + 2.0 / z, 1e-12, 1e-13);
  lt_check("d z", dp.z, 3 * (2 * z * x) - 2.0 * y / (z * z), 1e-12, 1e-13);
  lt_check("d out consumed", dp.out, 0.0, 0, 0);
  lt_check("shadow int untouched", dp.tag, 12345, 0, 0);
  lt_check("primal out", p.out, y / z, 1e-15, 0);
  return lt_done();
}
