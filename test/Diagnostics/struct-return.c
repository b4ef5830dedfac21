// A differentiated function returning a struct of doubles.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>

struct P {
  double x, y;
};

struct P f(double a) {
  struct P p = {a * a, a};
  return p;
}

double g(double x) { return __enzyme_autodiff((void *)f, x); }

// CHECK: struct-return.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: {{.*}}aggregate floating-point values are not supported
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
