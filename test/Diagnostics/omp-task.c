// OpenMP tasks in a differentiated function are an error at the task's
// line naming the construct the program wrote (never a crash, never a
// wrong derivative): an explicit `task`, and a `taskloop` (which clang
// wraps in a taskgroup: the error names the taskloop).
// REQUIRES: openmp
// RUN: not %ltclang -O0 -g %openmp -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g %openmp -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O0 -g %openmp -DTASKLOOP -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOP
// RUN: not %ltclang -O2 -g %openmp -DTASKLOOP -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=LOOP

#include <leantape.h>

void f(const double *x, double *y, int n) {
#ifndef TASKLOOP
#pragma omp parallel
#pragma omp single
  for (int i = 0; i < n; i++) {
#pragma omp task
    y[i] = x[i] * x[i];
  }
#else
#pragma omp parallel
#pragma omp single
#pragma omp taskloop
  for (int i = 0; i < n; i++)
    y[i] = x[i] * x[i];
#endif
}

void g(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

// CHECK: omp-task.c:18:1: error: leantape: the OpenMP construct 'task' is not supported in differentiated code (parallel regions, worksharing loops, reductions, critical, atomic, single, master/masked and barriers are)
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
// LOOP: omp-task.c:24:{{[0-9]+}}: error: leantape: the OpenMP construct 'taskloop' is not supported in differentiated code
// LOOP-NOT: PLEASE submit a bug report
// LOOP-NOT: Stack dump
