// firstprivate floats: clang passes a firstprivate double (or float) into
// the parallel region as integer bits; the region's clone takes it as a
// float parameter, each thread's reverse returns its adjoint, and the
// team's sum is the adjoint of the captured value (it was an error before:
// "active value ... reinterpreted as bits").
//  - scale: y[i] = x * i * s, x and s (float) firstprivate;
//  - privcopy: each thread changes its own copy (x = x * x) before the loop;
// Reverse and forward mode against the serial build (1e-12) and central
// differences, -O0/-O2, 1 and 2 threads.
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

#define N 23

double LT_FN(scale)(double *y, double x, float s, int n) {
#pragma omp parallel for firstprivate(x, s)
  for (int i = 0; i < n; i++)
    y[i] = x * i * s + sin(x * y[i]);
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * (i + 1);
  return r;
}

double LT_FN(privcopy)(double *y, double x, int n) {
#pragma omp parallel firstprivate(x)
  {
    x = x * x;
#pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = x * cos(i * x);
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i];
  return r;
}

/* d/dx, d/ds by reverse mode; d/dx by forward mode */
void LT_FN(grads)(double x, float s, double *out) {
  double y[N], dy[N];
  for (int i = 0; i < N; i++)
    y[i] = 0.01 * i, dy[i] = 0;
  double dx1 = __enzyme_autodiff((void *)LT_FN(privcopy), enzyme_dup, y, dy, enzyme_out, x,
                                 enzyme_const, N);
  for (int i = 0; i < N; i++)
    y[i] = 0.01 * i, dy[i] = 0;
  double ty[N] = {0};
  double t1 = __enzyme_fwddiff((void *)LT_FN(privcopy), enzyme_dup, y, ty, enzyme_dup, x, 1.0,
                               enzyme_const, N);
  for (int i = 0; i < N; i++)
    y[i] = 0.01 * i, dy[i] = 0;
  double dxs = __enzyme_autodiff((void *)LT_FN(scale), enzyme_dup, y, dy, enzyme_out, x,
                                 enzyme_const, s, enzyme_const, N);
  for (int i = 0; i < N; i++)
    y[i] = 0.01 * i, ty[i] = 0;
  double t2 = __enzyme_fwddiff((void *)LT_FN(scale), enzyme_dup, y, ty, enzyme_dup, x, 1.0,
                               enzyme_const, s, enzyme_const, N);
  out[0] = dx1, out[1] = t1, out[2] = dxs, out[3] = t2;
}

#ifndef LT_SERIAL
void grads_ser(double, float, double *);
static double obj_priv(const double *p, int n) {
  double y[N];
  for (int i = 0; i < N; i++)
    y[i] = 0.01 * i;
  return privcopy(y, p[0], N);
}
static double obj_scale(const double *p, int n) {
  double y[N];
  for (int i = 0; i < N; i++)
    y[i] = 0.01 * i;
  return scale(y, p[0], 0.75f, N);
}

int main(void) {
  lt_omp_team();
  double x = lt_vd(0.7), got[4], want[4];
  grads(x, 0.75f, got);
  grads_ser(x, 0.75f, want);
  lt_omp_same("privcopy reverse, forward; scale reverse, forward", got, want, 4);
  lt_omp_fd("privcopy reverse", obj_priv, &x, 1, &got[0], 1e-6);
  lt_omp_fd("privcopy forward", obj_priv, &x, 1, &got[1], 1e-6);
  lt_omp_fd("scale reverse", obj_scale, &x, 1, &got[2], 1e-6);
  lt_omp_fd("scale forward", obj_scale, &x, 1, &got[3], 1e-6);
  return lt_done();
}
#endif
