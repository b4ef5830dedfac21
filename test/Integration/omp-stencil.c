// A time loop around OpenMP parallel regions: the explicit 1-D heat
// equation u'[i] = u[i] + r (u[i-1] - 2 u[i] + u[i+1]) with fixed ends,
// T steps over two heap buffers swapped every step, f = sum u_T[i]^2:
//  - h_loop: a `parallel for` per step (a parallel region inside a loop:
//    T region tapes, reversed last first);
//  - h_inside: one `parallel` region around the time loop, a `for` per
//    step (its implicit barrier between steps, mirrored in reverse);
//  - h_nonlin: a `parallel for` per step of a nonlinear stencil
//    (u' = u + r (u[i-1] - 2 u[i] + u[i+1]) + 0.1 sin(u[i]) u[i-1]),
//    schedule(static, 4), whose reverse needs the values of each step;
//  - h_rfactor: the diffusion number read from x (active and shared by
//    every thread): its adjoint is added by every thread.
// Reverse mode and forward mode (width 1 and 4) with respect to the initial
// condition, against the same functions compiled without -fopenmp (1e-12)
// and central differences; 1 and 2 threads; n = 1, 8, 41 (n < 3: no
// interior, the primal is the identity).
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

enum { STEPS = 12 };


double LT_FN(h_loop)(const double *x, int n) {
  double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v), r = 0.3;
  for (int i = 0; i < n; i++)
    u[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    v[0] = u[0];
    v[n - 1] = u[n - 1];
#pragma omp parallel for
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i] + r * (u[i - 1] - 2 * u[i] + u[i + 1]);
    double *tmp = u;
    u = v;
    v = tmp;
  }
  double f = 0;
  for (int i = 0; i < n; i++)
    f += u[i] * u[i];
  free(u);
  free(v);
  return f;
}
LT_OMP_WRAPPERS(h_loop)

double LT_FN(h_inside)(const double *x, int n) {
  double *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), r = 0.3;
  for (int i = 0; i < n; i++)
    a[i] = x[i];
  b[0] = a[0];
  b[n - 1] = a[n - 1];
#pragma omp parallel
  for (int t = 0; t < STEPS; t++) {
    const double *u = t % 2 ? b : a;
    double *v = t % 2 ? a : b;
#pragma omp for
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i] + r * (u[i - 1] - 2 * u[i] + u[i + 1]);
  }
  const double *u = STEPS % 2 ? b : a;
  double f = 0;
  for (int i = 0; i < n; i++)
    f += u[i] * u[i];
  free(a);
  free(b);
  return f;
}
LT_OMP_WRAPPERS(h_inside)

double LT_FN(h_nonlin)(const double *x, int n) {
  double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v), r = 0.25;
  for (int i = 0; i < n; i++)
    u[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    v[0] = u[0];
    v[n - 1] = u[n - 1];
#pragma omp parallel for schedule(static, 4)
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i] + r * (u[i - 1] - 2 * u[i] + u[i + 1]) + 0.1 * sin(u[i]) * u[i - 1];
    double *tmp = u;
    u = v;
    v = tmp;
  }
  double f = 0;
  for (int i = 0; i < n; i++)
    f += u[i] * u[i];
  free(u);
  free(v);
  return f;
}
LT_OMP_WRAPPERS(h_nonlin)

/* x[n-1] is the diffusion number's perturbation: r = 0.2 + 0.05 x[n-1] */
double LT_FN(h_rfactor)(const double *x, int n) {
  double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
  double r = 0.2 + 0.05 * x[n - 1];
  for (int i = 0; i < n; i++)
    u[i] = x[i];
  for (int t = 0; t < STEPS; t++) {
    v[0] = u[0];
    v[n - 1] = u[n - 1];
#pragma omp parallel for schedule(dynamic, 3)
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i] + r * (u[i - 1] - 2 * u[i] + u[i + 1]);
    double *tmp = u;
    u = v;
    v = tmp;
  }
  double f = 0;
  for (int i = 0; i < n; i++)
    f += u[i] * u[i] * (1 + 0.1 * i);
  free(u);
  free(v);
  return f;
}
LT_OMP_WRAPPERS(h_rfactor)

#ifndef LT_SERIAL

LT_OMP_KNOWN(h_loop)
LT_OMP_KNOWN(h_inside)
LT_OMP_KNOWN(h_nonlin)
LT_OMP_KNOWN(h_rfactor)

static const LtOmpCase cases[] = {LT_OMP_CASE(h_loop), LT_OMP_CASE(h_inside), LT_OMP_CASE(h_nonlin), LT_OMP_CASE(h_rfactor)};

int main(void) {
  static const int sizes[3] = {1, 8, 41};
  return lt_omp_run_cases(cases, sizeof cases / sizeof *cases, sizes, -1.0, 1.0, 9, 6);
}
#endif
