// OpenMP reductions inside a differentiated function: reduction(+:),
// reduction(*:), reduction(max:), reduction(min:) on `parallel for`; a
// `for reduction(+:)` inside `parallel`, blocking (__kmpc_reduce) and
// nowait (__kmpc_reduce_nowait); two reductions in one loop; and a
// reduction-heavy loss (log-sum-exp through a max and a sum reduction,
// then a least-squares term with two sums). The engine makes each combine
// a critical section. Reverse mode and forward mode (width 1 and 4),
// against the same functions compiled without -fopenmp (1e-12) and
// central differences; 1 and 2 threads; n = 1, 7, 40.
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

/* A scalar objective f(x, n) with its reverse and forward wrappers. */

/* s = sum x_i^2 sin(x_0) + x_i */
double LT_FN(r_sum)(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * sin(x[0]) + x[i];
  return s;
}
LT_OMP_WRAPPERS(r_sum)

/* p = prod (1 + 0.3 x_i cos x_i) */
double LT_FN(r_prod)(const double *x, int n) {
  double p = 1;
#pragma omp parallel for reduction(* : p) schedule(static, 2)
  for (int i = 0; i < n; i++)
    p *= 1 + 0.3 * x[i] * cos(x[i]);
  return p;
}
LT_OMP_WRAPPERS(r_prod)

/* m = max_i x_i^2 + 0.1 x_i x_0: only the arg max carries the gradient */
double LT_FN(r_max)(const double *x, int n) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) {
    double e = x[i] * x[i] + 0.1 * x[i] * x[0];
    m = e > m ? e : m;
  }
  return m * x[0];
}
LT_OMP_WRAPPERS(r_max)

/* m = min_i exp(x_i) - x_i^3 (fmin) */
double LT_FN(r_min)(const double *x, int n) {
  double m = 1e300;
#pragma omp parallel for reduction(min : m) schedule(dynamic, 3)
  for (int i = 0; i < n; i++)
    m = fmin(m, exp(x[i]) - x[i] * x[i] * x[i]);
  return m;
}
LT_OMP_WRAPPERS(r_min)

/* `for reduction` inside `parallel`: blocking, then nowait, both sums */
double LT_FN(r_inner)(const double *x, int n) {
  double a = 0, b = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : a)
    for (int i = 0; i < n; i++)
      a += sin(x[i]) * x[0];
#pragma omp for reduction(+ : b) nowait
    for (int i = 0; i < n; i++)
      b += cos(x[i]) * x[i];
  }
  return a * b + a;
}
LT_OMP_WRAPPERS(r_inner)

/* two reductions in one loop */
double LT_FN(r_two)(const double *x, int n) {
  double s1 = 0, s2 = 0;
#pragma omp parallel for reduction(+ : s1, s2)
  for (int i = 0; i < n; i++) {
    s1 += x[i];
    s2 += x[i] * x[i];
  }
  return s2 / n - (s1 / n) * (s1 / n); /* the variance */
}
LT_OMP_WRAPPERS(r_two)

/* A reduction-heavy loss: z_i = x_i x_0 + 0.2 i (scores); lse = m +
 * log sum exp(z_i - m) (max then sum reductions); least squares of
 * r_i = sin(x_i) - 0.1 i against the mean of r (two sums); the loss
 * lse - z_0 + lsq. */
double LT_FN(r_loss)(const double *x, int n) {
  double m = -1e300, s = 0, sr = 0, srr = 0;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) {
    double z = x[i] * x[0] + 0.2 * i;
    m = z > m ? z : m;
  }
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += exp(x[i] * x[0] + 0.2 * i - m);
#pragma omp parallel for reduction(+ : sr, srr) schedule(guided)
  for (int i = 0; i < n; i++) {
    double r = sin(x[i]) - 0.1 * i;
    sr += r;
    srr += r * r;
  }
  double lse = m + log(s), mean = sr / n;
  return lse - x[0] * x[0] + (srr - n * mean * mean);
}
LT_OMP_WRAPPERS(r_loss)

#ifndef LT_SERIAL

LT_OMP_KNOWN(r_sum)
LT_OMP_KNOWN(r_prod)
LT_OMP_KNOWN(r_max)
LT_OMP_KNOWN(r_min)
LT_OMP_KNOWN(r_inner)
LT_OMP_KNOWN(r_two)
LT_OMP_KNOWN(r_loss)

static const LtOmpCase cases[] = {LT_OMP_CASE(r_sum),   LT_OMP_CASE(r_prod), LT_OMP_CASE(r_max), LT_OMP_CASE(r_min),
                             LT_OMP_CASE(r_inner), LT_OMP_CASE(r_two),  LT_OMP_CASE(r_loss)};

int main(void) {
  static const int sizes[3] = {1, 7, 40};
  return lt_omp_run_cases(cases, sizeof cases / sizeof *cases, sizes, -1.1, 1.3, 7, 3);
}
#endif
