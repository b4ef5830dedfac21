// Arrays that every thread of a parallel region reads: their adjoints come
// from every thread. Where the reads' range is known when the reverse
// starts, each thread adds into its own buffer and adds the buffer into
// the shadow once at the end; elsewhere each addition is atomic; reads
// proven thread-private add plainly. All three meet in one array here:
//  - loss: a data-parallel loss over rows X[i] with weights w[0..D) that
//    every iteration reads (a buffer), plus w[D + i % 4] (not affine in
//    the worksharing loop's own iteration: atomic);
//  - mixed: y[i] = x[0] x[i] + x[i + 1]: x[0] by every thread (buffer),
//    x[i] and x[i + 1] by neighbours (atomic);
//  - loss at n = 0 and n = 1 (threads without iterations: an empty or
//    unused buffer).
// Gradients against the serial build (1e-12) and central differences, at
// -O0 and -O2, with 1 and 2 threads; plain pointers.
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

#define D 6
#define NMAX 40

/* w: D + 4 weights; X: n rows of D; lab: n labels */
double LT_FN(loss)(const double *w, const double *X, const double *lab, int n) {
  double l = 0;
#pragma omp parallel for reduction(+ : l) schedule(static)
  for (int i = 0; i < n; i++) {
    double z = w[D + i % 4];
    for (int d = 0; d < D; d++)
      z += w[d] * X[i * D + d];
    l += log1p(exp(-lab[i] * z)) + 0.01 * z * z;
  }
  return l;
}

void LT_FN(mixed)(const double *x, double *y, int n) {
#pragma omp parallel for schedule(dynamic, 3)
  for (int i = 0; i < n; i++)
    y[i] = x[0] * x[i] + sin(x[i + 1]);
}

void LT_FN(grad_loss)(const double *w, double *dw, const double *X, const double *lab, int n) {
  __enzyme_autodiff((void *)LT_FN(loss), enzyme_dup, w, dw, enzyme_const, X, enzyme_const, lab,
                    enzyme_const, n);
}

void LT_FN(grad_mixed)(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)LT_FN(mixed), enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

#ifndef LT_SERIAL
void grad_loss_ser(const double *, double *, const double *, const double *, int);
void grad_mixed_ser(const double *, double *, double *, double *, int);

static double X[NMAX * D], LAB[NMAX];
static int NN;
static double loss_obj(const double *w, int n) { return loss(w, X, LAB, NN); }
static double mixed_obj(const double *x, int n) {
  double y[NMAX], s = 0;
  mixed(x, y, n - 1);
  for (int i = 0; i < n - 1; i++)
    s += (i + 1) * y[i];
  return s;
}

int main(void) {
  lt_omp_team();
  lt_omp_fill(X, NMAX * D, -1, 1, 3);
  lt_omp_fill(LAB, NMAX, -1, 1, 4);
  for (int i = 0; i < NMAX; i++)
    LAB[i] = LAB[i] < 0 ? -1 : 1;
  double w[D + 4];
  lt_omp_fill(w, D + 4, -0.5, 0.5, 5);
  int sizes[3] = {NMAX, 1, 0};
  for (int k = 0; k < 3; k++) {
    NN = lt_vi(sizes[k]);
    double dw[D + 4] = {0}, dws[D + 4] = {0};
    grad_loss(w, dw, X, LAB, NN);
    grad_loss_ser(w, dws, X, LAB, NN);
    char what[40];
    snprintf(what, sizeof what, "loss n=%d", NN);
    lt_omp_same(what, dw, dws, D + 4);
    lt_omp_fd(what, loss_obj, w, D + 4, dw, 1e-6);
  }
  int n = lt_vi(NMAX - 1);
  double x[NMAX], dx[NMAX] = {0}, dxs[NMAX] = {0}, y[NMAX], dy[NMAX], dys[NMAX];
  lt_omp_fill(x, NMAX, -1, 1, 6);
  for (int i = 0; i < n; i++)
    dy[i] = dys[i] = i + 1;
  grad_mixed(x, dx, y, dy, n);
  grad_mixed_ser(x, dxs, y, dys, n);
  lt_omp_same("mixed", dx, dxs, n + 1);
  lt_omp_fd("mixed", mixed_obj, x, n + 1, dx, 1e-6);
  return lt_done();
}
#endif
