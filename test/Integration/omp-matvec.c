// Matrix-vector products under OpenMP, with restrict and with plain
// pointers (no restrict: the engine cannot assume y does not alias A or x):
//  - mv / mv_plain: y = tanh(A x) row-parallel (`parallel for` over rows,
//    a serial dot product each): every thread reads all of x, so dx is
//    added by every thread; each row of dA by one;
//  - mvt / mvt_plain: y = A^T x column-parallel, schedule(dynamic);
//  - mv_inplace (plain pointers): z[i] = z[i] * (A z_old)[i] through a
//    scratch copy, then in place z[i] = sin(z[i]) in a second loop.
// The inputs are packed p = (A row-major m x m, x) and the outputs seeded
// with w: reverse mode gives the gradient of sum w_i y_i; forward mode
// (width 1 and 2) its directional derivatives. Against the same functions
// compiled without -fopenmp (1e-12) and central differences; 1 and 2
// threads; m = 1, 3, 9.
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

/* p = (A, x): y = tanh(A x) */
void LT_FN(mv)(const double *restrict p, double *restrict y, int m) {
  const double *A = p, *x = p + m * m;
#pragma omp parallel for
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < m; j++)
      s += A[i * m + j] * x[j];
    y[i] = tanh(s);
  }
}

void LT_FN(mv_plain)(const double *p, double *y, int m) {
  const double *A = p, *x = p + m * m;
#pragma omp parallel for
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < m; j++)
      s += A[i * m + j] * x[j];
    y[i] = tanh(s);
  }
}

/* y = A^T x */
void LT_FN(mvt)(const double *restrict p, double *restrict y, int m) {
  const double *A = p, *x = p + m * m;
#pragma omp parallel for schedule(dynamic)
  for (int j = 0; j < m; j++) {
    double s = 0;
    for (int i = 0; i < m; i++)
      s += A[i * m + j] * x[i];
    y[j] = s * x[j];
  }
}

void LT_FN(mvt_plain)(const double *p, double *y, int m) {
  const double *A = p, *x = p + m * m;
#pragma omp parallel for schedule(dynamic)
  for (int j = 0; j < m; j++) {
    double s = 0;
    for (int i = 0; i < m; i++)
      s += A[i * m + j] * x[i];
    y[j] = s * x[j];
  }
}

/* y = z: the copy of x, multiplied by A x in place, then sin in place */
void LT_FN(mv_inplace)(const double *p, double *y, int m) {
  const double *A = p, *x = p + m * m;
  double *old = malloc(m * sizeof *old);
#pragma omp parallel for
  for (int i = 0; i < m; i++)
    y[i] = old[i] = x[i];
#pragma omp parallel for
  for (int i = 0; i < m; i++) {
    double s = 0;
    for (int j = 0; j < m; j++)
      s += A[i * m + j] * old[j];
    y[i] = y[i] * s;
  }
#pragma omp parallel for
  for (int i = 0; i < m; i++)
    y[i] = sin(y[i]);
  free(old);
}

#define WRAPPERS(name)                                                                    \
  void LT_FN(grad_##name)(const double *p, double *dp, double *y, double *dy, int m) {    \
    __enzyme_autodiff((void *)LT_FN(name), enzyme_dup, p, dp, enzyme_dup, y, dy,          \
                      enzyme_const, m);                                                   \
  }                                                                                       \
  void LT_FN(fwd_##name)(const double *p, const double *v, double *y, double *dy, int m) { \
    __enzyme_fwddiff_v((void *)LT_FN(name), enzyme_dup, p, v, enzyme_dup, y, dy,          \
                       enzyme_const, m);                                                  \
  }                                                                                       \
  void LT_FN(fwd2_##name)(const double *p, const double *v0, const double *v1, double *y, \
                          double *d0, double *d1, int m) {                                \
    __enzyme_fwddiff_v((void *)LT_FN(name), enzyme_width, 2, enzyme_dup, p, v0, v1,       \
                       enzyme_dup, y, d0, d1, enzyme_const, m);                           \
  }
WRAPPERS(mv)
WRAPPERS(mv_plain)
WRAPPERS(mvt)
WRAPPERS(mvt_plain)
WRAPPERS(mv_inplace)

#ifndef LT_SERIAL

#define KNOWN(name)                                                                       \
  void name##_ser(const double *, double *, int);                                         \
  void grad_##name##_ser(const double *, double *, double *, double *, int);              \
  void fwd_##name##_ser(const double *, const double *, double *, double *, int);         \
  void fwd2_##name##_ser(const double *, const double *, const double *, double *,        \
                         double *, double *, int);
KNOWN(mv)
KNOWN(mv_plain)
KNOWN(mvt)
KNOWN(mvt_plain)
KNOWN(mv_inplace)

typedef struct {
  const char *name;
  void (*k)(const double *, double *, int), (*k_ser)(const double *, double *, int);
  void (*g)(const double *, double *, double *, double *, int);
  void (*g_ser)(const double *, double *, double *, double *, int);
  void (*f)(const double *, const double *, double *, double *, int);
  void (*f_ser)(const double *, const double *, double *, double *, int);
  void (*f2)(const double *, const double *, const double *, double *, double *, double *, int);
  void (*f2_ser)(const double *, const double *, const double *, double *, double *, double *,
                 int);
} Case;
#define CASE(name)                                                                        \
  { #name, (void (*)(const double *, double *, int))name, name##_ser, grad_##name,         \
    grad_##name##_ser, fwd_##name, fwd_##name##_ser, fwd2_##name, fwd2_##name##_ser }
static const Case cases[] = {CASE(mv), CASE(mv_plain), CASE(mvt), CASE(mvt_plain),
                             CASE(mv_inplace)};

enum { MMAX = 9, PMAX = MMAX * MMAX + MMAX };
static const Case *cur;
static int M;
static double W[MMAX];
static double L(const double *p, int np) {
  (void)np;
  double y[MMAX];
  cur->k(p, y, M);
  double s = 0;
  for (int i = 0; i < M; i++)
    s += W[i] * y[i];
  return s;
}

int main(void) {
  lt_omp_team();
  int sizes[3] = {lt_vi(1), lt_vi(3), lt_vi(9)};
  for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
    cur = &cases[c];
    for (int s = 0; s < 3; s++) {
      int m = M = sizes[s], np = m * m + m;
      double p[PMAX], dp[PMAX], dps[PMAX], v[PMAX], v1[PMAX];
      double y[MMAX], ys[MMAX], dy[MMAX], t[MMAX], ts[MMAX], t1[MMAX], u[MMAX], u1[MMAX],
          u1s[MMAX];
      char w[120];
      lt_omp_fill(p, np, -0.8, 0.9, 3 + s);
      lt_omp_fill(v, np, -1, 1, 4);
      lt_omp_fill(v1, np, -1, 1, 5);
      lt_omp_fill(W, m, -2, 2, 6);

      cur->k(p, y, m);
      cur->k_ser(p, ys, m);
      snprintf(w, sizeof w, "%s m=%d primal", cur->name, m);
      lt_omp_same(w, y, ys, m);

      memset(dp, 0, sizeof dp);
      memset(dps, 0, sizeof dps);
      memcpy(dy, W, sizeof dy);
      cur->g(p, dp, y, dy, m);
      memcpy(dy, W, sizeof dy);
      cur->g_ser(p, dps, ys, dy, m);
      snprintf(w, sizeof w, "%s m=%d reverse", cur->name, m);
      lt_omp_same(w, dp, dps, np);
      lt_omp_fd(w, L, p, np, dp, 1e-6);

      cur->f(p, v, y, t, m);
      cur->f_ser(p, v, ys, ts, m);
      snprintf(w, sizeof w, "%s m=%d forward", cur->name, m);
      lt_omp_same(w, t, ts, m);
      double wt = 0, adj = 0;
      for (int i = 0; i < m; i++)
        wt += W[i] * t[i];
      for (int i = 0; i < np; i++)
        adj += dp[i] * v[i];
      snprintf(w, sizeof w, "%s m=%d forward vs FD along v", cur->name, m);
      lt_check(w, wt, lt_omp_fd_dir(L, p, v, np), 1e-6, 1e-8);
      snprintf(w, sizeof w, "%s m=%d forward vs reverse", cur->name, m);
      lt_check(w, wt, adj, 1e-12, 1e-13);

      cur->f2(p, v, v1, y, u, u1, m);
      cur->f2_ser(p, v, v1, ys, ts, u1s, m);
      cur->f(p, v1, y, t1, m);
      snprintf(w, sizeof w, "%s m=%d forward width 2", cur->name, m);
      lt_omp_same(w, u, ts, m);
      lt_omp_same(w, u1, u1s, m);
      lt_omp_same(w, u1, t1, m);
    }
  }
  return lt_done();
}
#endif
