// An OpenMP `atomic` update other than + and - on an active double is a
// compare-and-exchange loop in the IR (clang has no atomic fmul): an error
// at the update's line that says so (activity.c's compare-and-exchange
// message, which names OpenMP's 'atomic'), never a crash. The same for a
// `*=` and for a max written as an atomic compare.
// REQUIRES: openmp
// RUN: not %ltclang -O0 -g %openmp -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g %openmp -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O0 -g %openmp -DDIV -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIV
// RUN: not %ltclang -O2 -g %openmp -DDIV -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DIV

#include <leantape.h>

double f(const double *x, int n) {
  double s = 1;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#ifndef DIV
#pragma omp atomic
    s *= x[i];
#else
#pragma omp atomic
    s /= x[i];
#endif
  }
  return s;
}

double g(const double *x, double *dx, int n) {
  return __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);
}

// CHECK: omp-atomic-mul.c:20:{{[0-9]+}}: error: leantape: a compare-and-exchange on active memory is not supported (for OpenMP: 'atomic' updates other than + and -
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// DIV: omp-atomic-mul.c:23:{{[0-9]+}}: error: leantape: a compare-and-exchange on active memory is not supported (for OpenMP: 'atomic' updates other than + and -
// DIV-NOT: PLEASE submit a bug report
// DIV-NOT: Stack dump
