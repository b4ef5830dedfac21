// Found by the random tester (--omp --cxx with -fexceptions): the region's
// clone lacked the outlined function's personality (invalid IR, a crash
// in instruction selection). The program checks its gradient itself.
// REQUIRES: openmp
// RUN: %ltclangxx -fexceptions -O0 %openmp %s -o %t.O0 -lm
// RUN: env OMP_NUM_THREADS=2 %t.O0
// RUN: %ltclangxx -fexceptions -O2 %openmp %s -o %t.O2 -lm
// RUN: env OMP_NUM_THREADS=2 %t.O2
// clang++-22 -std=c++17 -fexceptions -fopenmp -O0 -fpass-plugin=... : a
// parallel for whose body calls a function that may throw (clang wraps it
// in an invoke with a terminate landing pad in the outlined function).
#include <cmath>
#include <cstdio>

int enzyme_dup, enzyme_const;
template <typename R, typename... T> R __enzyme_autodiff(T...);

__attribute__((noinline)) static double h(double v) { return std::sin(v) * v; }

double f(const double *x, int n) {
  double acc = 0.0;
#pragma omp parallel for reduction(+ : acc)
  for (int i = 0; i < n; i++)
    acc += h(x[i]);
  return acc;
}

int main() {
  double x[8], dx[8];
  for (int i = 0; i < 8; i++) { x[i] = 0.1 * i; dx[i] = 0.0; }
  __enzyme_autodiff<double>((void *)f, enzyme_dup, x, dx, enzyme_const, 8);
  int bad = 0;
  for (int i = 0; i < 8; i++) {
    double want = std::cos(x[i]) * x[i] + std::sin(x[i]);
    if (std::fabs(dx[i] - want) > 1e-12) { std::printf("dx[%d] = %g, want %g\n", i, dx[i], want); bad = 1; }
  }
  std::printf("%s\n", bad ? "FAIL" : "ok");
  return bad;
}
