// An indirect call (through a function pointer argument) on an active value.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>
#include <math.h>

double f(double x, double (*h)(double)) { return h(x) * x; }

double g(double x) { return __enzyme_autodiff((void *)f, x, enzyme_const, sin); }

// CHECK: indirect-call-active.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: indirect call on an active value
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
