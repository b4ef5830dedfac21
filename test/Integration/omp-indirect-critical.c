// A parallel region whose body calls through a function pointer (a helper
// picks one of a table's functions by the iteration) beside a reduction or
// a critical section. Preprocessing inlines the indirect call's dispatcher
// in a second round; that round inlined the critical section's ticket
// helpers too (prep/omp.c's lt.omp.critical), and lowering wrapped the
// runtime call inside them again: each entry counted twice, the reverse
// waited for a turn that never came (found by the random tester, --omp
// --calls seed 23003; the program hung at every level, with 1 thread too).
//  - ind_red: reduction(+) of tanh(g_i(x_i)) x_0, g_i from a table;
//  - ind_crit: critical s = 0.8 s + 0.2 g_i(x_i) with num_threads(1) (an
//    order-dependent update: the reverse re-enters in the opposite order).
// Reverse mode and forward mode (width 1 and 4), against the same
// functions compiled without -fopenmp (1e-12) and central differences;
// 1 and 2 threads; n = 1, 8, 41; -O0 and -O2.
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

double LT_FN(g_sin)(double a, double b) { return sin(a - 0.3 * b); }
double LT_FN(g_tanh)(double a, double b) { return tanh(a) * b; }
static double (*const LT_FN(table)[2])(double, double) = {LT_FN(g_sin), LT_FN(g_tanh)};

__attribute__((noinline)) double LT_FN(apply)(double (*g)(double, double), double v,
                                              double w) {
  double u = g(v, w);
  return g(u, 0.5 * v);
}

double LT_FN(ind_red)(const double *x, int n) {
  double s = 0.25;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += tanh(LT_FN(apply)(LT_FN(table)[i % 2], x[i], 0.1 * i)) * x[0];
  return s;
}
LT_OMP_WRAPPERS(ind_red)

double LT_FN(ind_crit)(const double *x, int n) {
  double s = 0.5;
#pragma omp parallel for num_threads(1)
  for (int i = 0; i < n; i++) {
    double u = LT_FN(apply)(LT_FN(table)[(i + 1) % 2], x[i], x[0]);
#pragma omp critical
    s = 0.8 * s + 0.2 * u;
  }
  return s;
}
LT_OMP_WRAPPERS(ind_crit)

#ifndef LT_SERIAL

LT_OMP_KNOWN(ind_red)
LT_OMP_KNOWN(ind_crit)

static const LtOmpCase cases[] = {LT_OMP_CASE(ind_red), LT_OMP_CASE(ind_crit)};

int main(void) {
  static const int sizes[3] = {1, 8, 41};
  return lt_omp_run_cases(cases, sizeof cases / sizeof *cases, sizes, -1.1, 1.3, 7, 8);
}
#endif
