// GCC vector extension types holding active values.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>

typedef double v2 __attribute__((vector_size(16)));

double f(double x) {
  v2 a = {x, 2 * x};
  a = a * a;
  return a[0] + a[1];
}

double g(double x) { return __enzyme_autodiff((void *)f, x); }

// CHECK: vector-extension.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: vector or aggregate floating-point values are not supported
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
