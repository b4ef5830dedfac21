// enzyme_dup on an input array read at explicit indices x[0..3]; the shadow
// is accumulated into (+=): a pre-filled dx keeps its old value plus the
// gradient, and a second call adds the gradient again.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* f = x0 x1 + x2^2 / x3 + sin(x0 x3)
 * df/dx0 = x1 + x3 cos(x0 x3)   df/dx1 = x0
 * df/dx2 = 2 x2 / x3            df/dx3 = -x2^2 / x3^2 + x0 cos(x0 x3) */
double f(const double *x) {
  return x[0] * x[1] + x[2] * x[2] / x[3] + sin(x[0] * x[3]);
}

int main(void) {
  static const double init[4] = {0.9, -1.4, 2.2, 0.7};
  static const double old[4] = {10.0, -20.0, 30.5, 0.25};
  double x[4], dx[4], want[4];
  lt_fill(x, init, 4);
  lt_fill(dx, old, 4);
  want[0] = x[1] + x[3] * cos(x[0] * x[3]);
  want[1] = x[0];
  want[2] = 2 * x[2] / x[3];
  want[3] = -x[2] * x[2] / (x[3] * x[3]) + x[0] * cos(x[0] * x[3]);

  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  lt_check("dx0 += ", dx[0], old[0] + want[0], 1e-12, 1e-13);
  lt_check("dx1 += ", dx[1], old[1] + want[1], 1e-12, 1e-13);
  lt_check("dx2 += ", dx[2], old[2] + want[2], 1e-12, 1e-13);
  lt_check("dx3 += ", dx[3], old[3] + want[3], 1e-12, 1e-13);

  /* unmarked pointer: dup by default; accumulates a second time */
  __enzyme_autodiff((void *)f, x, dx);
  for (int i = 0; i < 4; i++)
    lt_check("dx twice", dx[i], old[i] + 2 * want[i], 1e-12, 1e-13);

  /* zero shadow against finite differences */
  double dz[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dz);
  for (int i = 0; i < 4; i++)
    lt_check("dx fd", dz[i], lt_fd_arr(f, x, 4, i), 1e-6, 1e-8);
  /* primal input untouched */
  for (int i = 0; i < 4; i++)
    lt_check("x unchanged", x[i], init[i], 0, 0);
  return lt_done();
}
