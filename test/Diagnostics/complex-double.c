// _Complex double arithmetic on an active value.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <complex.h>
#include <leantape.h>

double f(double x) {
  _Complex double z = x + 2.0 * I;
  z = z * z;
  return creal(z) + cimag(z);
}

double g(double x) { return __enzyme_autodiff((void *)f, x); }

// CHECK: complex-double.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: {{.*}}aggregate floating-point values are not supported
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
