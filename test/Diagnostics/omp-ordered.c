// An `ordered` section in a differentiated worksharing loop is an error at
// its line naming the construct (never a crash).
// REQUIRES: openmp
// RUN: not %ltclang -O0 -g %openmp -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g %openmp -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>

double f(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for ordered
  for (int i = 0; i < n; i++) {
    double t = x[i] * x[i];
#pragma omp ordered
    {
      s = s * 0.5 + t;
      y[i] = s;
    }
  }
  return s;
}

double g(const double *x, double *dx, double *y, double *dy, int n) {
  return __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

// CHECK: omp-ordered.c:14:1: error: leantape: the OpenMP construct 'ordered' is not supported in differentiated code (parallel regions, worksharing loops, reductions, critical, atomic, single, master/masked and barriers are)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
