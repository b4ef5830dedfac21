// enzyme_dup on a double argument (user meant enzyme_out).
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// The error points at the __enzyme_autodiff call (CHECK just above it).

#include <leantape.h>

double f(double x) { return x * x; }

double g(double x, double dx) {
  // CHECK: dup-on-double.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}enzyme_dup requires a pointer argument
  return __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
