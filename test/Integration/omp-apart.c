// Parallel regions over plain pointers whose arrays may or may not overlap
// at run time (gen/ompcheck.c): the derivative that assumes them apart
// (plain adds, per-thread buffers) runs only when a test on the arguments
// says so, else the one that assumes nothing (atomic adds). Each function
// is called with its arrays apart and overlapping in ways a correct
// OpenMP program may have (the primal has no data race either way):
//  - mv: y = tanh(A x), x inside A (read-only arrays overlap: a row of dA
//    that one thread adds to plainly is also dx that every thread adds to);
//  - axpy_inplace: y[i] = sin(x[i]) * a[0] + x[i]^2 with y == x (each
//    element read and then written by one iteration);
//  - stencil: v[i] = u[i] + k[0] (u[i-1] - 2 u[i] + u[i+1]), k == &u[0],
//    a boundary value no iteration writes;
//  - dot_red: y[i] = a[0] sin(x[i]) + x[i]^2, reduction(+) of y[i] x[i] into
//    y[n], with y == x (the reduction's lock and private copies do not
//    stop the test);
//  - crit_sum: y[i] = x[i]^2, and in a critical section y[n] += cos(x[i])
//    y[i], with y == x.
// The gradient of sum w_i out_i with respect to the packed inputs, against
// the serial build (1e-12) and central differences; 1 and 2 threads; at
// -O0 and -O2 (at -O0 no range is computable: the test is never built).
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

void LT_FN(mv)(const double *A, const double *x, double *y, int m) {
#pragma omp parallel for
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < m; j++)
      s += A[i * m + j] * x[j];
    y[i] = tanh(s);
  }
}

void LT_FN(axpy_inplace)(const double *x, const double *a, double *y, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++)
    y[i] = sin(x[i]) * a[0] + x[i] * x[i];
}

void LT_FN(stencil)(const double *u, const double *k, double *v, int n) {
#pragma omp parallel for
  for (int i = 1; i < n - 1; i++)
    v[i] = u[i] + k[0] * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.1 * sin(u[i]);
}

void LT_FN(dot_red)(const double *x, const double *a, double *y, int n) {
  double acc = 0;
#pragma omp parallel for reduction(+ : acc)
  for (int i = 0; i < n; i++) {
    y[i] = a[0] * sin(x[i]) + x[i] * x[i];
    acc += y[i] * x[i];
  }
  y[n] = acc;
}

void LT_FN(crit_sum)(const double *x, double *y, int n) {
  y[n] = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * x[i];
#pragma omp critical
    y[n] += cos(x[i]) * y[i];
  }
}

/* The layouts: p packs the inputs; *out is where the outputs go (inside p
 * when they overlap an input). shape 0: apart; 1: overlapping. */
enum { M = 8, N = 24, PMAX = M * M + M + N + 4, NOUT = N + 1 };
#ifdef LT_SERIAL
extern int shape, fn_k; /* the program's (both builds read them) */
#else
int shape, fn_k;
#endif

/* function fn_k with inputs in p, its outputs in out or inside p */
void LT_FN(objective)(double *p, double *out, int unused);
void LT_FN(objective)(double *p, double *out, int unused) {
  (void)unused;
  switch (fn_k) {
  case 0: /* A = p[0..M*M), x = p + M*M or p + 3 (inside A) */
    LT_FN(mv)(p, shape ? p + 3 : p + M * M, out, M);
    break;
  case 1: /* x = p[0..N), a = p + N; y = out or x itself */
    LT_FN(axpy_inplace)(p, p + N, shape ? p : out, N);
    break;
  case 2: /* u = p[0..N), k = p + N or &u[0]; v = out */
    LT_FN(stencil)(p, shape ? p : p + N, out, N);
    break;
  case 3: /* x = p[0..N), a = p + N + 1; y[0..N] = out or x itself */
    LT_FN(dot_red)(p, p + N + 1, shape ? p : out, N);
    break;
  default: /* x = p[0..N); y[0..N] = out or x itself */
    LT_FN(crit_sum)(p, shape ? p : out, N);
    break;
  }
}

void LT_FN(grad)(double *p, double *dp, double *out, double *dout) {
  __enzyme_autodiff((void *)LT_FN(objective), enzyme_dup, p, dp, enzyme_dup, out, dout,
                    enzyme_const, 0);
}

#ifndef LT_SERIAL
static double W[NOUT];
void objective_ser(double *p, double *out, int unused);
void grad_ser(double *p, double *dp, double *out, double *dout);

/* the outputs of fn_k: where they are (out, or inside p) and how many */
static double *outputs(double *p, double *out, int *n) {
  *n = fn_k == 0 ? M : fn_k >= 3 ? N + 1 : N;
  return (fn_k == 1 || fn_k >= 3) && shape ? p : out;
}

static double L(const double *p0, int np) {
  double p[PMAX], out[NOUT] = {0};
  memcpy(p, p0, np * sizeof *p);
  objective(p, out, 0);
  int n;
  double *o = outputs(p, out, &n), s = 0;
  for (int i = 0; i < n; i++)
    s += W[i] * o[i];
  return s;
}

int main(void) {
  lt_omp_team();
  static const char *names[5] = {"mv", "axpy_inplace", "stencil", "dot_red", "crit_sum"};
  int np[5] = {M * M + M, N + 1, N + 1, N + 2, N + 1};
  for (fn_k = 0; fn_k < 5; fn_k++)
    for (shape = 0; shape < 2; shape++) {
      double p[PMAX], ps[PMAX], dp[PMAX], dps[PMAX], out[NOUT], outs[NOUT], dout[NOUT],
          douts[NOUT];
      char w[120];
      int n = np[fn_k], no;
      lt_omp_fill(p, n, -0.8, 0.9, 3 + fn_k);
      lt_omp_fill(W, NOUT, -2, 2, 6);
      memcpy(ps, p, sizeof p);
      memset(out, 0, sizeof out);
      memset(outs, 0, sizeof outs);
      memset(dp, 0, sizeof dp);
      memset(dps, 0, sizeof dps);
      /* the seed: w on the outputs, wherever they are */
      memset(dout, 0, sizeof dout);
      memset(douts, 0, sizeof douts);
      double *od = outputs(dp, dout, &no), *ods = outputs(dps, douts, &no);
      for (int i = 0; i < no; i++)
        od[i] = ods[i] = W[i];
      double p0[PMAX];
      memcpy(p0, p, sizeof p);
      grad(p, dp, out, dout);
      grad_ser(ps, dps, outs, douts);
      snprintf(w, sizeof w, "%s %s: primal", names[fn_k], shape ? "overlapping" : "apart");
      double *o = outputs(p, out, &no), *os = outputs(ps, outs, &no);
      lt_omp_same(w, o, os, no);
      snprintf(w, sizeof w, "%s %s: reverse", names[fn_k], shape ? "overlapping" : "apart");
      lt_omp_same(w, dp, dps, n);
      lt_omp_fd(w, L, p0, n, dp, 1e-6);
    }
  return lt_done();
}
#endif
