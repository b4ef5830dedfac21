// Differentiating a variadic function.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>
#include <stdarg.h>

double v(double x, ...) {
  va_list ap;
  va_start(ap, x);
  double y = va_arg(ap, double);
  va_end(ap);
  return x * y;
}

double g(double x) { return __enzyme_autodiff((void *)v, x, 2.0); }

// CHECK: variadic-function.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: cannot differentiate a variadic function
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
