// Too few tangents or shadows in forward mode (one case per prefix):
//  SCALAR  enzyme_width 2, the last float has one tangent of two;
//  ONE     no width, the last float has no tangent at all;
//  PTR     enzyme_width 4, the last pointer has three shadow pointers.
// RUN: not %ltclang -O0 -g -c -DSCALAR %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not %ltclang -O2 -g -c -DSCALAR %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SCALAR
// RUN: not %ltclang -O0 -g -c -DONE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not %ltclang -O2 -g -c -DONE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ONE
// RUN: not %ltclang -O0 -g -c -DPTR %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTR
// RUN: not %ltclang -O2 -g -c -DPTR %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PTR
// The error points at the __enzyme_fwddiff call (CHECK just above it).

extern int enzyme_width, enzyme_dup;
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);
typedef struct {
  double a, b;
} D2;
D2 __enzyme_fwddiff2(void *, ...);

double f(double x, double y) { return x * y; }
void g(const double *x, double *y) { y[0] = x[0] * x[0]; }

#ifdef SCALAR
D2 t(double x, double y) {
  // SCALAR: fwd-too-few-tangents.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: too few arguments: enzyme_dup parameter 2 of 'f' needs 2 tangents after its value
  return __enzyme_fwddiff2((void *)f, enzyme_width, 2, x, 1.0, 0.0, y, 1.0);
}
#endif
#ifdef ONE
double t(double x, double y) {
  // ONE: fwd-too-few-tangents.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: too few arguments: enzyme_dup parameter 2 of 'f' needs 1 tangent after its value
  return __enzyme_fwddiff((void *)f, x, 1.0, y);
}
#endif
#ifdef PTR
void t(const double *x, const double *dx, double *y, double *dy) {
  // PTR: fwd-too-few-tangents.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: too few arguments: enzyme_dup parameter 2 of 'g' needs 4 shadow pointers after its value
  __enzyme_fwddiff_v((void *)g, enzyme_width, 4, x, dx, dx + 1, dx + 2, dx + 3, enzyme_dup, y, dy, dy + 1, dy + 2);
}
#endif
// SCALAR-NOT: PLEASE submit a bug report
// ONE-NOT: PLEASE submit a bug report
// PTR-NOT: PLEASE submit a bug report
