// Forward mode of a kept (recursive) callee whose pointer argument may
// address active or inactive memory: a table of row pointers into an
// enzyme_dup array x and an enzyme_const array c, one picked per loop
// iteration. The callee's tangent function gets a shadow that may be null
// and reads zeros through it (segfaulted before: fuzz seeds 12001, 12009,
// 12027 --fwd --calls --pointers). The tangent along a direction against
// the reverse-mode gradient's dot product with it and central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <math.h>

extern int enzyme_dup, enzyme_const;
double __enzyme_fwddiff(void *, ...);
void __enzyme_autodiff(void *, ...);

static double walk(double *o, const double *a, int d) {
  if (d <= 0) {
    o[0] = cos(a[0]);
    return o[0];
  }
  o[0] = sin(a[0]) * 2;
  double t = walk(o + 1, a + 1, d - 1);
  return 0.66 * t + 0.34 * o[0] * o[1];
}
typedef struct {
  const double *p;
  double w;
} Row;
double f(double *x, const double *c, double *y, int n) {
  Row rows[3] = {{c, 1}, {x + 1, 2}, {c + 2, 3}};
  double s = 0;
  for (int i = 0; i < n; i++)
    s += rows[i % 3].w * walk(y, rows[i % 3].p, 3);
  return s + y[2];
}

enum { N = 8 };
static double X[N] = {.1, .2, .3, .4, .5, .6, .7, .8}, C[N] = {.3, .1, .4, .1, .5, .9, .2, .6};
static double D[N] = {1, -0.5, 0.25, 2, -1, 0.5, 1.5, -2};
static double f_dir(double t) {
  double x[N], y[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = X[i] + t * D[i];
  return f(x, C, y, 5);
}

int main(void) {
  double x[N], dx[N], y[N] = {0}, dy[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = lt_vd(X[i]), dx[i] = D[i];
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, C, enzyme_dup, y, dy,
                              lt_vi(5));
  double g[N] = {0}, gy[N] = {0}, y2[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, g, enzyme_const, C, enzyme_dup, y2, gy, lt_vi(5));
  double dot = 0;
  for (int i = 0; i < N; i++)
    dot += g[i] * D[i];
  lt_grad("tangent through a maybe-null shadow", 0, t, dot, lt_fd(f_dir, 0), 1e-12, 1e-6);
  return lt_done();
}
