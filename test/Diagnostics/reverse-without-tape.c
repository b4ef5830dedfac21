// __enzyme_reverse whose last argument is not a tape.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>

double f(double *x) { return x[0] * x[0]; }

void g(double *x, double *dx) { __enzyme_reverse((void *)f, x, dx, 1.0); }

// CHECK: reverse-without-tape.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: the last argument of __enzyme_reverse must be the tape
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
