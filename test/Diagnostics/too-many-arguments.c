// More values than the function has parameters.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// The error points at the __enzyme_autodiff call (CHECK just above it).

#include <leantape.h>

double f(double x) { return x * x; }

double g(double x, double y) {
  // CHECK: too-many-arguments.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}too many arguments
  return __enzyme_autodiff((void *)f, x, enzyme_const, y);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
