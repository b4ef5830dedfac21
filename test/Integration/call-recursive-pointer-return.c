// A recursive callee that returns a pointer into its argument (kept as a
// call), in a function that also reads an enzyme_const array through a
// pointer that may be either: the escape summary of a recursive parameter
// is a fixpoint (it used to be "escapes everywhere", so at -O0 the call was
// taken to store active data into the const array, and the program was
// rejected; fuzz --calls --pointers). Gradients against finite differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

__attribute__((noinline)) static double *pick(double *a, int k) {
  if (k < 4)
    return a + k;
  return pick(a, k - 4);
}

/* mutual recursion passing the pointer down and back */
static const double *walk_b(const double *a, int k);
static const double *walk_a(const double *a, int k) { return k <= 0 ? a : walk_b(a + 1, k - 1); }
static const double *walk_b(const double *a, int k) { return k <= 0 ? a : walk_a(a, k - 1); }

/* a recursive reader of the maybe-const pointer */
static double sum_r(const double *a, int m) {
  if (m <= 1)
    return a[0];
  int k = m / 2;
  return sum_r(a, k) + 0.5 * sum_r(a + k, m - k);
}

struct S { const double *p; double w; };

double f(double *x, double *y, const double *c, int n) {
  const double *p = (n % 2 == 0) ? x : c;
  /* pointers into dup and const memory side by side (one points-to set
   * for the array), one of them given to the recursive reader */
  struct S st[2] = {{y + 4, sin(x[0])}, {c + 1, cos(x[2])}};
  double s = sum_r(st[0].p, 1) * st[0].w + st[0].p[0] * st[1].w;
  for (int i = 0; i < n; i++) {
    double *q = pick(y, i + 2);
    q[0] = 0.5 * q[0] + sin(p[i % 4]) * x[i % 4];
    s += q[0] * walk_a(x, i % 5)[0] + p[(i + 1) % 4];
  }
  return s + y[3] * y[5] + sum_r(p, 4) * x[1];
}

static double c0[4] = {0.3, -0.2, 0.9, 0.4};
static int nn;
static double fx(const double *v) {
  double x[4], y[8];
  for (int i = 0; i < 4; i++)
    x[i] = v[i];
  for (int i = 0; i < 8; i++)
    y[i] = v[4 + i];
  return f(x, y, c0, nn);
}

int main(void) {
  for (nn = 5; nn <= 6; nn++) {
    double v[12], x[4], y[8], dx[4] = {0}, dy[8] = {0}, c[4];
    for (int i = 0; i < 12; i++)
      v[i] = lt_vd(0.1 * (i + 1) - 0.5);
    for (int i = 0; i < 4; i++)
      x[i] = v[i], c[i] = c0[i];
    for (int i = 0; i < 8; i++)
      y[i] = v[4 + i];
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, c, enzyme_const, lt_vi(nn));
    for (int i = 0; i < 12; i++) {
      char what[48];
      snprintf(what, sizeof what, "n=%d d/dv[%d]", nn, i);
      lt_check(what, i < 4 ? dx[i] : dy[i - 4], lt_fd_arr(fx, v, 12, i), 1e-6, 1e-9);
    }
    for (int i = 0; i < 4; i++)
      lt_check("c unchanged", c[i], c0[i], 0, 0);
  }
  return lt_done();
}
