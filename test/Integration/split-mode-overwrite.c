// Split mode on a function that overwrites its input array in the forward
// pass: the reverse pass cannot re-load x[0], x[1] and must use taped
// values. Return adjoint dret = 2.5.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* a = x0, b = x1 ; t = a b ; x0 <- t^2 ; x1 <- 2 ; x2 <- exp(b) ;
 * return t + a
 * seeds s0, s1, s2 in dx (adjoints of the new x0, x1, x2):
 *   adj_t = dret + 2 t s0
 *   dx0   = dret + adj_t b
 *   dx1   = adj_t a + s2 exp(b)    (s1 is dropped: x1 <- 2 is constant)
 *   dx2   = 0                       (old x2 is never read)            */
double f(double *x) {
  double a = x[0], b = x[1];
  double t = a * b;
  x[0] = t * t;
  x[1] = 2.0;
  x[2] = exp(b);
  return t + a;
}

int main(void) {
  double a = lt_vd(0.6), b = lt_vd(-1.5);
  double s0 = lt_vd(0.5), s1 = lt_vd(7.0), s2 = lt_vd(-2.0);
  double x[3] = {a, b, lt_vd(9.0)};
  double dx[3] = {s0, s1, s2};
  double dret = lt_vd(2.5);

  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx);
  lt_check("primal x0", x[0], (a * b) * (a * b), 1e-15, 0);
  lt_check("primal x1", x[1], 2.0, 0, 0);
  lt_check("primal x2", x[2], exp(b), 1e-15, 0);
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, dret, tape);

  double t = a * b, adj_t = 2.5 + 2 * t * s0;
  lt_check("dx0", dx[0], 2.5 + adj_t * b, 1e-12, 1e-13);
  lt_check("dx1", dx[1], adj_t * a + s2 * exp(b), 1e-12, 1e-13);
  lt_check("dx2", dx[2], 0.0, 0, 1e-300);
  return lt_done();
}
