// Found by the random tester (--omp --pointers / --cxx); the program checks its
// gradient itself (exit status). -O0..-O2, 1 and 2 threads.
// REQUIRES: openmp
// RUN: %ltclang -O0 %openmp %s -o %t.O0 -lm
// RUN: env OMP_NUM_THREADS=1 %t.O0
// RUN: env OMP_NUM_THREADS=2 %t.O0
// RUN: %ltclang -O1 %openmp %s -o %t.O1 -lm
// RUN: env OMP_NUM_THREADS=1 %t.O1
// RUN: env OMP_NUM_THREADS=2 %t.O1
// RUN: %ltclang -O2 %openmp %s -o %t.O2 -lm
// RUN: env OMP_NUM_THREADS=1 %t.O2
// RUN: env OMP_NUM_THREADS=2 %t.O2
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

/* A heap array of pointers into an enzyme_const array, read inside a
   parallel for: the reverse pass of the region crashes. */
double f(const double *y, const double *c, int n) {
  const double **R0 = malloc(2 * sizeof *R0);
  R0[0] = c + 1;
  R0[1] = c + 3;
  double acc = 0.0;
  #pragma omp parallel for reduction(+:acc)
  for (int i = 0; i < n; i++)
    acc += y[i] * R0[i % 2][0];
  free(R0);
  return acc;
}

int main(void) {
  double y[8], dy[8], c[8];
  for (int i = 0; i < 8; i++) { y[i] = 0.1 * i; dy[i] = 0.0; c[i] = 1.0 + i; }
  __enzyme_autodiff((void *)f, enzyme_dup, y, dy, enzyme_const, c, enzyme_const, 8);
  int bad = 0;
  for (int i = 0; i < 8; i++) {
    double want = c[1 + 2 * (i % 2)];
    if (fabs(dy[i] - want) > 1e-12) { printf("dy[%d] = %g, want %g\n", i, dy[i], want); bad = 1; }
  }
  printf("%s\n", bad ? "FAIL" : "ok");
  return bad;
}
