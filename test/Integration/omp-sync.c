// OpenMP synchronisation and thread numbers inside a differentiated
// function: `single` (with its implicit barrier) computing a shared value
// the team then reads; `master` and `masked` followed by an explicit
// `barrier`; a region whose threads split the work by
// omp_get_thread_num() / omp_get_num_threads() (cyclic and blocked index
// arithmetic, inactive) with a `barrier` between two phases; a
// num_threads(2) clause (two threads even when OMP_NUM_THREADS=1). The
// reverse pass must mirror each barrier: the adjoint of the shared value
// is complete only after every thread's reverse of the later phase.
// Reverse mode and forward mode (width 1 and 4), against the same
// functions compiled without -fopenmp (1e-12; there omp_get_thread_num()
// is 0 and omp_get_num_threads() 1) and central differences; 1 and 2
// threads; n = 1, 8, 41.
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


/* single: t = sum x_i^2 by one thread; then every thread reads t */
double LT_FN(s_single)(const double *x, int n) {
  double t = 0, *y = malloc(n * sizeof *y);
#pragma omp parallel
  {
#pragma omp single
    for (int i = 0; i < n; i++)
      t += x[i] * x[i];
#pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = t * sin(x[i]);
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * (1 + 0.1 * i);
  free(y);
  return r;
}
LT_OMP_WRAPPERS(s_single)

/* master, then a barrier: t = x_0 x_{n-1} + 1 */
double LT_FN(s_master)(const double *x, int n) {
  double t = 0, *y = malloc(n * sizeof *y);
#pragma omp parallel
  {
#pragma omp master
    t = x[0] * x[n - 1] + 1;
#pragma omp barrier
#pragma omp for schedule(static, 2)
    for (int i = 0; i < n; i++)
      y[i] = exp(0.2 * t * x[i]);
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * (1 - 0.05 * i);
  free(y);
  return r;
}
LT_OMP_WRAPPERS(s_master)

/* masked (thread 0), then a barrier; the value is read by every thread */
double LT_FN(s_masked)(const double *x, int n) {
  double t = 0, u = 0;
#pragma omp parallel
  {
#pragma omp masked
    t = cos(x[0]) + x[n / 2];
#pragma omp barrier
#pragma omp for reduction(+ : u)
    for (int i = 0; i < n; i++)
      u += t * x[i] * x[i];
  }
  return u + t;
}
LT_OMP_WRAPPERS(s_masked)

/* cyclic split by thread number, a barrier, then a second phase reading
 * the neighbour another thread wrote */
double LT_FN(s_cyclic)(const double *x, int n) {
  double *t = malloc(n * sizeof *t), *y = malloc(n * sizeof *y);
#pragma omp parallel
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int i = tid; i < n; i += nt)
      t[i] = x[i] * x[i] + 0.5 * x[0];
#pragma omp barrier
    for (int i = tid; i < n; i += nt)
      y[i] = t[i] * t[i + 1 == n ? 0 : i + 1];
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * (1 + 0.1 * i);
  free(t);
  free(y);
  return r;
}
LT_OMP_WRAPPERS(s_cyclic)

/* blocked split by thread number: thread t owns [t n / nt, (t+1) n / nt) */
double LT_FN(s_blocked)(const double *x, int n) {
  double *y = malloc(n * sizeof *y);
#pragma omp parallel
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    int lo = tid * n / nt, hi = (tid + 1) * n / nt;
    for (int i = lo; i < hi; i++)
      y[i] = sin(x[i]) * x[i] + x[0] * x[i];
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * y[i];
  free(y);
  return r;
}
LT_OMP_WRAPPERS(s_blocked)

/* num_threads(2): a team of two whatever OMP_NUM_THREADS says */
double LT_FN(s_numthreads)(const double *x, int n) {
  double s = 0;
#pragma omp parallel for num_threads(2) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i] + x[0] * x[i];
  return s * s;
}
LT_OMP_WRAPPERS(s_numthreads)

#ifndef LT_SERIAL

LT_OMP_KNOWN(s_single)
LT_OMP_KNOWN(s_master)
LT_OMP_KNOWN(s_masked)
LT_OMP_KNOWN(s_cyclic)
LT_OMP_KNOWN(s_blocked)
LT_OMP_KNOWN(s_numthreads)

static const LtOmpCase cases[] = {LT_OMP_CASE(s_single), LT_OMP_CASE(s_master),  LT_OMP_CASE(s_masked),
                             LT_OMP_CASE(s_cyclic), LT_OMP_CASE(s_blocked), LT_OMP_CASE(s_numthreads)};

int main(void) {
  static const int sizes[3] = {1, 8, 41};
  return lt_omp_run_cases(cases, sizeof cases / sizeof *cases, sizes, -1.1, 1.3, 5, 6);
}
#endif
