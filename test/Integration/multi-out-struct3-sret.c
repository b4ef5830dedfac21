// Three enzyme_out arguments: a struct of three doubles is returned through
// an sret pointer on x86-64 (the call's first IR argument is the sret
// buffer, not the function).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

typedef struct {
  double dx, dy, dz;
} G3;
G3 __enzyme_autodiff3(void *, ...);

/* f = x y z + exp(x) - z / y
 * fx = yz + exp(x) ; fy = xz + z/y^2 ; fz = xy - 1/y                   */
double f(double x, double y, double z) { return x * y * z + exp(x) - z / y; }

int main(void) {
  double x = lt_vd(0.5), y = lt_vd(2.0), z = lt_vd(-1.5);
  G3 g = __enzyme_autodiff3((void *)f, enzyme_out, x, enzyme_out, y, enzyme_out,
                            z);
  lt_check("fx", g.dx, y * z + exp(x), 1e-12, 1e-13);
  lt_check("fy", g.dy, x * z + z / (y * y), 1e-12, 1e-13);
  lt_check("fz", g.dz, x * y - 1 / y, 1e-12, 1e-13);
  /* unmarked: same */
  G3 h = __enzyme_autodiff3((void *)f, x, y, z);
  lt_check("unmarked fx", h.dx, g.dx, 0, 0);
  lt_check("unmarked fy", h.dy, g.dy, 0, 0);
  lt_check("unmarked fz", h.dz, g.dz, 0, 0);
  return lt_done();
}
