// enzyme_out on an integer argument.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// The error points at the __enzyme_autodiff call (CHECK just above it).

#include <leantape.h>

double f(double x, int n) { return x * n; }

double g(double x, int n) {
  // CHECK: out-on-integer.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}enzyme_out requires a floating-point argument
  return __enzyme_autodiff((void *)f, x, enzyme_out, n);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
