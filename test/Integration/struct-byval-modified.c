// Reverse mode of a function that takes a large struct by value (byval in
// IR: the function owns a copy) marked enzyme_const, and modifies its copy
// with active values (s.a *= x, s.c += s.a). At -O2 the function writes
// into the byval memory itself; the copy must get a shadow, the gradient
// must be right, and the caller's struct must be unchanged. Two byval
// structs, one of them only read. Against the analytic gradient and
// central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <math.h>

extern int enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);

typedef struct {
  double a, b, c, d;
} S4;

double f(S4 s, double x, S4 t) {
  s.a *= x;
  s.c = s.c + s.a * t.b;
  return s.a * s.b + sin(s.c) * s.d * x + t.a * x * x;
}
static S4 S0 = {0.5, 1.5, -0.3, 2.0}, T0 = {0.25, -0.5, 3, 4};
static double f_x(double x) { return f(S0, x, T0); }

int main(void) {
  S4 s = S0, t = T0;
  double x = lt_vd(1.3);
  double a = s.a * x, c = s.c + a * t.b;
  double an = s.a * s.b + cos(c) * s.a * t.b * s.d * x + sin(c) * s.d + 2 * t.a * x;
  double g = __enzyme_autodiff((void *)f, enzyme_const, s, enzyme_out, x, enzyme_const, t);
  lt_grad("byval const struct modified with an active value", x, g, an, lt_fd(f_x, x), 1e-13,
          1e-6);
  lt_check("the caller's struct is unchanged (a)", s.a, S0.a, 0, 0);
  lt_check("the caller's struct is unchanged (c)", s.c, S0.c, 0, 0);
  return lt_done();
}
