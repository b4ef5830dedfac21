// enzyme_out in forward mode: it belongs to reverse mode; a floating-point
// argument of __enzyme_fwddiff is followed by its tangent (or marked
// enzyme_const).
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// The error points at the __enzyme_fwddiff call (CHECK just above it).

extern int enzyme_out;
double __enzyme_fwddiff(void *, ...);

double f(double x, double y) { return x * y; }

double g(double x, double y) {
  // CHECK: fwd-out-marker.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}enzyme_out is for reverse mode{{.*}}(parameter 1 of 'f')
  return __enzyme_fwddiff((void *)f, enzyme_out, x, y, 1.0);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
