// Split mode with scalar enzyme_out arguments: the reverse entry point is
// declared with the return type of the gradients (double for one, a struct
// for two), like __enzyme_autodiff.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

typedef struct {
  double a, b;
} G2;
G2 __enzyme_reverse2(void *, ...);
double __enzyme_reverse1(void *, ...);

/* f = x y^2 + exp(x) ; fx = y^2 + exp(x) ; fy = 2 x y */
double f(double x, double y) { return x * y * y + exp(x); }

int main(void) {
  double x = lt_vd(0.8), y = lt_vd(-1.1), dret = lt_vd(2.5);
  void *tape = __enzyme_augmentfwd((void *)f, x, y);
  G2 g = __enzyme_reverse2((void *)f, x, y, dret, tape);
  lt_check("fx", g.a, 2.5 * (y * y + exp(x)), 1e-12, 1e-13);
  lt_check("fy", g.b, 2.5 * (2 * x * y), 1e-12, 1e-13);

  tape = __enzyme_augmentfwd((void *)f, enzyme_const, x, enzyme_out, y);
  double d =
      __enzyme_reverse1((void *)f, enzyme_const, x, enzyme_out, y, dret, tape);
  lt_check("fy only", d, 2.5 * (2 * x * y), 1e-12, 1e-13);
  return lt_done();
}
