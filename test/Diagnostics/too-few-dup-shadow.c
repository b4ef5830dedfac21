// A dup pointer without its shadow argument.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// The error points at the __enzyme_autodiff call (CHECK just above it).

#include <leantape.h>

double f(double y, const double *x) { return x[0] * y; }

double g(const double *x, double y) {
  // CHECK: too-few-dup-shadow.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}too few arguments
  return __enzyme_autodiff((void *)f, y, enzyme_dup, x);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
