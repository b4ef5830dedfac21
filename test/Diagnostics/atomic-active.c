// Atomic operations on active memory without a derivative rule are errors
// at their line: a floating-point atomic maximum (atomicrmw fmax), and a
// compare-and-exchange loop (how C writes an atomic multiply). Atomic add,
// subtract and exchange of floats have rules (test/Integration/omp-atomic.c).
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O0 -g -c -DCAS %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAS
// RUN: not %ltclang -O2 -g -c -DCAS %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CAS

#include <leantape.h>

double f(double *x, double *acc) {
#ifndef CAS
  __atomic_fetch_max(acc, x[0] * x[0], __ATOMIC_RELAXED);
#else
  double e = acc[0], d;
  do {
    d = e * x[0];
  } while (!__atomic_compare_exchange(acc, &e, &d, 0, __ATOMIC_RELAXED, __ATOMIC_RELAXED));
#endif
  return acc[0];
}

void g(double *x, double *dx, double *a, double *da) {
  __enzyme_autodiff((void *)f, x, dx, a, da);
}

// CHECK: atomic-active.c:14:3: error: leantape: this atomic operation on active memory is not supported
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// CAS: atomic-active.c:19:{{[0-9]+}}: error: leantape:
// CAS-NOT: PLEASE submit a bug report
// CAS-NOT: Stack dump
