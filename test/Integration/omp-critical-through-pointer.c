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

/* A loop with num_threads(1) reads the shared s outside the critical
   section that updates it (defined with one thread: no race), through a
   pointer kept in a struct (what a C++ lambda capturing by reference is). */
struct L { double *s; };
static double lam(const struct L *l, double u) { return cos(sin(u * *l->s)); }

double f(const double *x, int n) {
  double s = 0.5;
  struct L l = { &s };
  #pragma omp parallel for num_threads(1)
  for (int i = 0; i < n; i++) {
    double u = sin(x[i] * lam(&l, 0.543)); /* reads s through l.s */
    #pragma omp critical
    s = 0.7 * s + 0.3 * u;
  }
  return s;
}

static double fd(double *x, int k) {
  double h = 1e-6, xk = x[k];
  x[k] = xk + h; double a = f(x, 8);
  x[k] = xk - h; double b = f(x, 8);
  x[k] = xk;
  return (a - b) / (2 * h);
}

int main(void) {
  double x[8], dx[8];
  for (int i = 0; i < 8; i++) { x[i] = 0.3 + 0.1 * i; dx[i] = 0.0; }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 8);
  int bad = 0;
  for (int i = 0; i < 8; i++) {
    double want = fd(x, i);
    if (fabs(dx[i] - want) > 1e-6 * (1 + fabs(want))) { printf("dx[%d] = %.9g, fd %.9g\n", i, dx[i], want); bad = 1; }
  }
  printf("%s\n", bad ? "FAIL" : "ok");
  return bad;
}
