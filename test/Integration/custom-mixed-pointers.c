// A function with a custom gradient and a registered forward derivative,
// called with a pointer that addresses an enzyme_dup array in some
// iterations and an enzyme_const one in others (row pointers): where the
// pointer has no shadow at run time, the custom derivatives get the
// pointer itself as its shadow, as an inactive pointer does (Enzyme's
// runtime-activity convention), and skip it (da == a). Segfaulted before
// (a null shadow). Gradient and tangent against the analytic values; the
// const array is unchanged.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <math.h>

extern int enzyme_dup, enzyme_const;
void __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double sq(const double *a) { return a[0] * a[0] * a[1]; }
double sq_aug(const double *a, const double *da) { return sq(a); }
void sq_rev(const double *a, double *da, double dret) {
  if (da == a)
    return; /* no derivative wanted */
  da[0] += 2 * a[0] * a[1] * dret;
  da[1] += a[0] * a[0] * dret;
}
typedef struct {
  double r, t;
} RT;
RT sq_fwd(const double *a, const double *da) {
  RT o = {sq(a), 0};
  if (da != a)
    o.t = 2 * a[0] * a[1] * da[0] + a[0] * a[0] * da[1];
  return o;
}
void *__enzyme_register_gradient_sq[3] = {(void *)sq, (void *)sq_aug, (void *)sq_rev};
void *__enzyme_register_derivative_sq[2] = {(void *)sq, (void *)sq_fwd};

typedef struct {
  const double *p;
} Row;
double f(double *x, const double *c, int n) {
  Row rows[2] = {{c}, {x}};
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sq(rows[i % 2].p + 2 * (i / 2));
  return s;
}

enum { N = 8 };
int main(void) {
  double x[N], c[N], gx[N] = {0}, dx[N];
  for (int i = 0; i < N; i++)
    x[i] = lt_vd(0.5 + 0.25 * i), c[i] = lt_vd(2.0 - 0.1 * i), dx[i] = 1;
  __enzyme_autodiff((void *)f, enzyme_dup, x, gx, enzyme_const, c, lt_vi(4));
  /* x pairs (0,1) and (2,3) are used (i = 1, 3) */
  for (int j = 0; j < 4; j += 2) {
    lt_check("d/dx[2j]", gx[j], 2 * x[j] * x[j + 1], 1e-14, 0);
    lt_check("d/dx[2j+1]", gx[j + 1], x[j] * x[j], 1e-14, 0);
  }
  lt_check("unused x has no gradient", gx[4] + gx[7], 0, 0, 0);
  lt_check("c unchanged", c[0] + c[1], 2.0 + 1.9, 0, 0);
  double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, dx, enzyme_const, c, lt_vi(4));
  double want = 0;
  for (int j = 0; j < 4; j += 2)
    want += 2 * x[j] * x[j + 1] + x[j] * x[j];
  lt_check("tangent along ones", t, want, 1e-14, 0);
  return lt_done();
}
