// Forward mode of a function taking a large struct by value (32 bytes:
// byval in IR, the callee owns a copy) and modifying its copy, with
// enzyme_dup and the tangent struct (also by value), and with
// enzyme_const. The tangent must be right and, as for any by-value
// argument, the caller's struct and tangent struct must be unchanged after
// the call. Tangents against the analytic value and central differences
// along the direction.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <math.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);

typedef struct {
  double a, b, c, d;
} S4;

double f(S4 s) {
  s.a *= 2;
  s.c = s.c + s.a;
  return s.a * s.b + sin(s.c) * s.d;
}
static S4 S0 = {0.5, 1.5, -0.3, 2.0}, DS0 = {1, 0.5, 2, -1};
static double f_dir(double t) {
  S4 s = {S0.a + t * DS0.a, S0.b + t * DS0.b, S0.c + t * DS0.c, S0.d + t * DS0.d};
  return f(s);
}

int main(void) {
  S4 s = S0, ds = DS0;
  s.a = lt_vd(s.a);
  double a2 = 2 * s.a, c2 = s.c + a2, da2 = 2 * ds.a, dc2 = ds.c + da2;
  double an = da2 * s.b + a2 * ds.b + cos(c2) * dc2 * s.d + sin(c2) * ds.d;
  lt_grad("byval struct, enzyme_dup", s.a, __enzyme_fwddiff((void *)f, enzyme_dup, s, ds), an,
          lt_fd(f_dir, 0), 1e-13, 1e-6);
  lt_check("byval struct: the caller's struct is unchanged", s.a, S0.a, 0, 0);
  lt_check("byval struct: the caller's struct is unchanged (c)", s.c, S0.c, 0, 0);
  lt_check("byval struct: the caller's tangent struct is unchanged", ds.a, DS0.a, 0, 0);
  lt_check("byval struct: the caller's tangent struct is unchanged (c)", ds.c, DS0.c, 0, 0);
  S4 s2 = S0;
  s2.a = lt_vd(s2.a);
  lt_check("byval struct, enzyme_const", __enzyme_fwddiff((void *)f, enzyme_const, s2), 0, 0, 0);
  lt_check("byval struct, enzyme_const: the caller's struct is unchanged", s2.a, S0.a, 0, 0);
  return lt_done();
}
