// Two parallel regions in one block, the first with num_threads(2), the
// second with num_threads(1), run with OMP_NUM_THREADS=1 and 2: a region's
// tape is sized for the larger of omp_get_max_threads() and its own
// num_threads clause. The clause was searched backwards from the end of
// the augmented forward pass's block, so the first region took the
// second's num_threads(1): under OMP_NUM_THREADS=1 it was sized for one
// thread, ran on two and aborted ("a parallel region ran on more threads
// than ..."; fuzz --omp --alias seed 51100 with OMP_NUM_THREADS=1).
// Gradient against central differences, -O0 and -O2.
// REQUIRES: openmp
// RUN: %ltclang %openmp -O0 %s -o %t.O0 -lm
// RUN: env OMP_NUM_THREADS=1 %t.O0 && env OMP_NUM_THREADS=2 %t.O0
// RUN: %ltclang %openmp -O2 %s -o %t.O2 -lm
// RUN: env OMP_NUM_THREADS=1 %t.O2 && env OMP_NUM_THREADS=2 %t.O2
#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

static double f(const double *x) {
  double t[4], acc = 0.0;
#pragma omp parallel for num_threads(2)
  for (int i = 0; i < 4; i++)
    t[i] = sin(x[i]) * x[(i + 1) % 4];
#pragma omp parallel num_threads(1)
  {
#pragma omp for reduction(+ : acc)
    for (int i = 0; i < 4; i++)
      acc += t[i] * t[i] + tanh(x[i]);
  }
  return acc;
}

int main(void) {
  double x[4] = {lt_vd(0.3), lt_vd(-0.7), lt_vd(1.1), lt_vd(0.4)}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  for (int k = 0; k < 4; k++)
    lt_check("d/dx", dx[k], lt_fd_arr(f, x, 4, k), 1e-6, 1e-9);
  return lt_done();
}
