// A marker with no value after it (the last argument is missing).
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// The error points at the __enzyme_autodiff call (CHECK just above it).

#include <leantape.h>

double f(double x, double y) { return x * y; }

double g(double x) {
  // CHECK: too-few-after-marker.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}too few arguments
  return __enzyme_autodiff((void *)f, enzyme_out, x, enzyme_const);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
