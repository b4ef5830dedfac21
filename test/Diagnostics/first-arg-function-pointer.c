// The function to differentiate is a function pointer parameter (noinline
// and externally visible, so -O2 cannot resolve it to a definition).
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// The error points at the __enzyme_autodiff call (CHECK just above it).

#include <leantape.h>

double sq(double x) { return x * x; }

__attribute__((noinline)) double g(double (*fp)(double), double x) {
  // CHECK: first-arg-function-pointer.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}first argument must be a function defined in this module
  return __enzyme_autodiff((void *)fp, x);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
