// Four enzyme_out doubles (sret struct) interleaved with a const double, a
// const int and a dup pointer: only the out arguments appear in the
// returned struct, in argument order.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>

typedef struct {
  double ga, gb, gc, gd;
} G4;
G4 __enzyme_autodiff4(void *, ...);

/* f = a b + c d k + s * (a - d) + p0 * c
 * fa = b + s ; fb = a ; fc = d k + p0 ; fd = c k - s ; dp0 += c         */
double f(double a, double s, double b, int k, double c, const double *p,
         double d) {
  return a * b + c * d * k + s * (a - d) + p[0] * c;
}

int main(void) {
  double a = lt_vd(1.5), s = lt_vd(0.25), b = lt_vd(-2.0), c = lt_vd(3.0),
         d = lt_vd(0.5);
  int k = lt_vi(4);
  double p[1] = {lt_vd(-0.75)}, dp[1] = {1.0};
  G4 r = __enzyme_autodiff4((void *)f, enzyme_out, a, enzyme_const, s, b, k,
                            enzyme_out, c, enzyme_dup, p, dp, d);
  lt_check("fa", r.ga, b + s, 1e-12, 1e-14);
  lt_check("fb", r.gb, a, 1e-12, 1e-14);
  lt_check("fc", r.gc, d * k + p[0], 1e-12, 1e-14);
  lt_check("fd", r.gd, c * k - s, 1e-12, 1e-14);
  lt_check("dp0", dp[0], 1.0 + c, 1e-12, 1e-14);
  return lt_done();
}
