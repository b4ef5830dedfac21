// A cycle entered at two places (goto into the middle of a loop) is
// irreducible; the canonical clone makes it a natural loop
// (fix-irreducible: one header that dispatches on where control came
// from) and differentiates it. Before, this was an error ("irreducible
// control flow"). Reverse and forward mode, both entries, against central
// differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include <leantape.h>

double __enzyme_fwddiff(void *, ...);

double f(double x, int k) {
  double s = x;
  if (k > 0)
    goto b;
a:
  s = s * x;
  if (s > 100)
    return s;
b:
  s = s + sin(x);
  goto a;
}

int main(void) {
  for (int k = 0; k < 2; k++)
    for (double x = 1.3; x < 2.5; x += 0.4) {
      double ad = __enzyme_autodiff((void *)f, x, enzyme_const, k);
      double tan = __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, k);
      double h = 1e-6;
      volatile double xp = x + h, xm = x - h;
      double fd = (f(xp, k) - f(xm, k)) / (xp - xm);
      char name[64];
      snprintf(name, sizeof name, "k=%d x=%.1f reverse", k, x);
      lt_check(name, ad, fd, 1e-6, 1e-8);
      snprintf(name, sizeof name, "k=%d x=%.1f forward", k, x);
      lt_check(name, tan, fd, 1e-6, 1e-8);
    }
  return lt_done();
}
