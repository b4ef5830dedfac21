// An atomic read-modify-write of an active value.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>

double f(double *x, double *acc) {
  __atomic_fetch_add(acc, x[0] * x[0], __ATOMIC_RELAXED);
  return acc[0];
}

void g(double *x, double *dx, double *a, double *da) {
  __enzyme_autodiff((void *)f, x, dx, a, da);
}

// CHECK: atomic-active.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: atomic operations on active memory are not supported
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
