// A local array on the stack holding active values, indexed by a const int
// (so it stays an alloca at -O2).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>

/* a = [x, x^2, x^3, 1/x] ; f = a[i] * a[(i+1)&3] + a[i] */
double f(double x, int i) {
  double a[4];
  a[0] = x;
  a[1] = x * x;
  a[2] = a[1] * x;
  a[3] = 1.0 / x;
  return a[i] * a[(i + 1) & 3] + a[i];
}

/* products: x^3, x^5, x^2, 1 ; plus a[i] */
static double df(double x, int i) {
  switch (i) {
  case 0:
    return 3 * x * x + 1;
  case 1:
    return 5 * x * x * x * x + 2 * x;
  case 2:
    return 2 * x + 3 * x * x;
  default:
    return -1 / (x * x);
  }
}

int main(void) {
  double x = lt_vd(1.3);
  for (int i = 0; i < 4; i++) {
    int k = lt_vi(i);
    double g = __enzyme_autodiff((void *)f, x, k);
    lt_check("local array analytic", g, df(x, k), 1e-12, 1e-13);
    lt_check("local array fd", g, lt_fd_int(f, x, k), 1e-6, 1e-8);
  }
  return lt_done();
}
