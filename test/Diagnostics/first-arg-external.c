// The function to differentiate is only declared (no body in this module).
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// The error points at the __enzyme_autodiff call (CHECK just above it).

#include <leantape.h>

extern double ext(double);

double g(double x) {
  // CHECK: first-arg-external.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}first argument must be a function defined in this module
  return __enzyme_autodiff((void *)ext, x);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
