// enzyme_width after an argument that already took its shadow: the width
// must come before the arguments it gives shadows to (x got one tangent,
// y would get two). Also as an option after the last parameter.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O0 -g -c -DTRAILING %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TRAILING
// The error points at the __enzyme_fwddiff call (CHECK just above it).

extern int enzyme_width, enzyme_dup;
typedef struct {
  double a, b;
} D2;
D2 __enzyme_fwddiff2(void *, ...);

double f(double x, double y) { return x * y; }

#ifndef TRAILING
D2 g(double x, double y) {
  // CHECK: fwd-width-after-dup.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: enzyme_width must come before the arguments it gives shadows to
  return __enzyme_fwddiff2((void *)f, enzyme_dup, x, 1.0, enzyme_width, 2, enzyme_dup, y, 1.0, 0.0);
}
#else
D2 g(double x, double y) {
  // TRAILING: fwd-width-after-dup.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: enzyme_width must come before the arguments it gives shadows to
  return __enzyme_fwddiff2((void *)f, x, 1.0, y, 0.0, enzyme_width, 2);
}
#endif
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// TRAILING-NOT: PLEASE submit a bug report
