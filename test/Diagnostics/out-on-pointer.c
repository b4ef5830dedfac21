// enzyme_out on a pointer argument.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// The error points at the __enzyme_autodiff call (CHECK just above it).

#include <leantape.h>

double f(const double *p) { return p[0] * p[0]; }

double g(const double *p) {
  // CHECK: out-on-pointer.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}enzyme_out requires a floating-point argument
  return __enzyme_autodiff((void *)f, enzyme_out, p);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
