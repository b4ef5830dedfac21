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

/* A struct array whose pointer field points into an enzyme_const array,
   read inside a parallel for (the same crash as omp-constptr-array.c). */
struct S { const double *p; double w; };

double f(const double *y, const double *c, int n) {
  struct S st[2] = { { c + 1, 0.5 }, { y, 0.25 } };
  double acc = 0.0;
  #pragma omp parallel for reduction(+:acc)
  for (int i = 0; i < n; i++)
    acc += y[i] * st[i % 2].p[0];
  return acc;
}

int main(void) {
  double y[8], dy[8], c[8];
  for (int i = 0; i < 8; i++) { y[i] = 0.1 * i; dy[i] = 0.0; c[i] = 1.0 + i; }
  __enzyme_autodiff((void *)f, enzyme_dup, y, dy, enzyme_const, c, enzyme_const, 8);
  int bad = 0;
  for (int i = 0; i < 8; i++) {
    /* acc = sum_i y[i] * (i odd ? y[0] : c[1]) */
    double want = i % 2 ? y[0] : c[1];
    if (i == 0) want += y[1] + y[3] + y[5] + y[7];
    if (fabs(dy[i] - want) > 1e-12) { printf("dy[%d] = %g, want %g\n", i, dy[i], want); bad = 1; }
  }
  printf("%s\n", bad ? "FAIL" : "ok");
  return bad;
}
