// A program's own function named gamma (C11 <math.h> declares none) is
// not the C library's, which writes only signgam (analysis/writes.c
// lgamma_call takes declared functions of a float only): this one writes
// v[0], and f's reads of x[0] before the call must not be read again
// after it (e67b7ea took it for glibc's: a wrong gradient). Against a
// central difference at -O0 and -O2.
// RUN: %ltclang -std=c11 -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -std=c11 -O2 %s -o %t2 -lm && %t2

#include "check.h"
#include <leantape.h>
#include <math.h>

/* recursive: stays a call */
__attribute__((noinline)) double gamma(double *v) {
  if (v[0] > 0.2) {
    double a = v[0];
    v[0] = 0.5 * a;
    return a * gamma(v);
  }
  double g = 1.0 / sqrt(1.0 + v[0] * v[0]);
  v[0] = 0.5 * v[0] + 0.1;
  return g;
}

__attribute__((noinline)) double f(double *x) {
  double s = sin(x[0]) * x[0]; /* x[0] as it was on entry */
  s += gamma(x);               /* overwrites x[0] */
  return s + x[0] * x[0];
}

int main(void) {
  for (double x0 = 0.15; x0 < 1.0; x0 += 0.3) {
    double x[1] = {x0}, dx[1] = {0}, h = 1e-6;
    double xp[1] = {x0 + h}, xm[1] = {x0 - h};
    double fd = (f(xp) - f(xm)) / (2 * h);
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
    char what[32];
    snprintf(what, sizeof what, "d/dx at %.2f", x0);
    lt_check(what, dx[0], fd, 1e-6, 1e-9);
  }
  return lt_done();
}
