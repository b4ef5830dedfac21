// OpenMP atomics inside a differentiated function (atomicrmw fadd/fsub,
// atomic loads and stores; the rules in gen/revinst.c and gen/fwdmem.c):
//  - a_add: `atomic` s += x_i^2 x_0 into a shared local;
//  - a_sub: `atomic update` s -= sin(x_i) and `atomic` t += x_i into two
//    locals, returns s t;
//  - a_hist: `atomic` h[i % 3] += x_i^2 into a heap array shared by the
//    team (bins several threads add to);
//  - a_rw: `atomic read` v = x_i, `atomic write` y[i] = v^2 x_0 (a heap
//    array), then a serial sum.
// A compare-exchange loop (`atomic` with *=) is an error:
// test/Diagnostics/omp-atomic-mul.c. Reverse mode and forward mode (width 1
// and 4), against the same functions compiled without -fopenmp (1e-12) and
// central differences; 1 and 2 threads; n = 1, 8, 41.
// REQUIRES: openmp
// RUN: %ltclang -O0 -DLT_SERIAL -Wno-unknown-pragmas -Wno-source-uses-openmp -c %s -o %t.ser0.o
// RUN: %ltclang -O0 %openmp %s %t.ser0.o -o %t.O0 -lm
// RUN: env OMP_NUM_THREADS=1 %t.O0
// RUN: env OMP_NUM_THREADS=2 %t.O0
// RUN: %ltclang -O2 -DLT_SERIAL -Wno-unknown-pragmas -Wno-source-uses-openmp -c %s -o %t.ser2.o
// RUN: %ltclang -O2 %openmp %s %t.ser2.o -o %t.O2 -lm
// RUN: env OMP_NUM_THREADS=1 %t.O2
// RUN: env OMP_NUM_THREADS=2 %t.O2

#include "ompcheck.h"
#include <math.h>


double LT_FN(a_add)(const double *x, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    s += x[i] * x[i] * x[0];
  }
  return s;
}
LT_OMP_WRAPPERS(a_add)

double LT_FN(a_sub)(const double *x, int n) {
  double s = 1, t = 0.5;
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < n; i++) {
#pragma omp atomic update
    s -= sin(x[i]);
#pragma omp atomic
    t += x[i];
  }
  return s * t;
}
LT_OMP_WRAPPERS(a_sub)

double LT_FN(a_hist)(const double *x, int n) {
  double *h = calloc(3, sizeof *h);
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    h[i % 3] += x[i] * x[i];
  }
  double r = h[0] * h[1] + h[2] + h[0];
  free(h);
  return r;
}
LT_OMP_WRAPPERS(a_hist)

double LT_FN(a_rw)(const double *x, int n) {
  double *y = malloc(n * sizeof *y);
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v;
#pragma omp atomic read
    v = x[i];
#pragma omp atomic write
    y[i] = v * v * x[0];
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * (1 + 0.1 * i);
  free(y);
  return r;
}
LT_OMP_WRAPPERS(a_rw)

#ifndef LT_SERIAL

LT_OMP_KNOWN(a_add)
LT_OMP_KNOWN(a_sub)
LT_OMP_KNOWN(a_hist)
LT_OMP_KNOWN(a_rw)

static const LtOmpCase cases[] = {LT_OMP_CASE(a_add), LT_OMP_CASE(a_sub), LT_OMP_CASE(a_hist), LT_OMP_CASE(a_rw)};

int main(void) {
  static const int sizes[3] = {1, 8, 41};
  return lt_omp_run_cases(cases, sizeof cases / sizeof *cases, sizes, -1.1, 1.3, 5, 6);
}
#endif
