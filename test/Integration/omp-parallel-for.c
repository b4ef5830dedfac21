// OpenMP worksharing loops inside a differentiated function: `parallel for`
// with schedule(static), schedule(static, 3), schedule(dynamic, 2),
// schedule(guided), collapse(2); `for` inside `parallel` (two loops, the
// second reading the first's results after the implicit barrier, and a
// nowait pair of static loops that touch the same iterations); an
// orphaned `for` in a helper called inside the region. Each kernel
// writes y from x (restrict pointers); every iteration also reads x[0] and
// a neighbour, so the adjoints of x are shared between threads, and each
// writes its own x[i]. Reverse mode (dy seeded with w: the gradient of
// sum w_i y_i) and forward mode at width 1 and 2, against the same
// functions compiled without -fopenmp (1e-12) and central differences;
// n = 1 (fewer iterations than threads), 7 and 37; 1 and 2 threads.
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

#define BODY(i, n) (sin(x[i]) * x[(i) + 1 == (n) ? 0 : (i) + 1] + 0.5 * x[0] * x[i])

/* A kernel y = F(x) with its reverse and forward (width 1, 2) wrappers. */
#define WRAPPERS(name)                                                                    \
  void LT_FN(grad_##name)(const double *x, double *dx, double *y, double *dy, int n) {     \
    __enzyme_autodiff((void *)LT_FN(name), enzyme_dup, x, dx, enzyme_dup, y, dy,          \
                      enzyme_const, n);                                                   \
  }                                                                                       \
  void LT_FN(fwd_##name)(const double *x, const double *v, double *y, double *dy, int n) { \
    __enzyme_fwddiff_v((void *)LT_FN(name), enzyme_dup, x, v, enzyme_dup, y, dy,          \
                       enzyme_const, n);                                                  \
  }                                                                                       \
  void LT_FN(fwd2_##name)(const double *x, const double *v0, const double *v1, double *y, \
                          double *d0, double *d1, int n) {                                \
    __enzyme_fwddiff_v((void *)LT_FN(name), enzyme_width, 2, enzyme_dup, x, v0, v1,       \
                       enzyme_dup, y, d0, d1, enzyme_const, n);                           \
  }

#define LOOP_KERNEL(name, pragma)                                                         \
  void LT_FN(name)(const double *restrict x, double *restrict y, int n) {                 \
    _Pragma(pragma) for (int i = 0; i < n; i++) y[i] = BODY(i, n);                        \
  }                                                                                       \
  WRAPPERS(name)

LOOP_KERNEL(k_static, "omp parallel for schedule(static)")
LOOP_KERNEL(k_chunk, "omp parallel for schedule(static, 3)")
LOOP_KERNEL(k_dynamic, "omp parallel for schedule(dynamic, 2)")
LOOP_KERNEL(k_guided, "omp parallel for schedule(guided)")
LOOP_KERNEL(k_default, "omp parallel for")

/* collapse(2): x is an r x c matrix (n = r c, c = 3 when 3 divides n) */
void LT_FN(k_collapse)(const double *restrict x, double *restrict y, int n) {
  int c = n % 3 == 0 ? 3 : 1, r = n / c;
#pragma omp parallel for collapse(2) schedule(static)
  for (int i = 0; i < r; i++)
    for (int j = 0; j < c; j++)
      y[i * c + j] = x[i * c + j] * x[j] * cos(x[i * c]) + x[0];
}
WRAPPERS(k_collapse)

/* `for` in `parallel`: t = x^2 + x[0] (heap scratch shared by the team);
 * the implicit barrier; y reads t at i and i+1 */
void LT_FN(k_two_loops)(const double *restrict x, double *restrict y, int n) {
  double *t = malloc(n * sizeof *t);
#pragma omp parallel
  {
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      t[i] = x[i] * x[i] + x[0];
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      y[i] = t[i] * t[i + 1 == n ? 0 : i + 1] + sin(t[i]);
  }
  free(t);
}
WRAPPERS(k_two_loops)

/* nowait between two static loops of the same trip count: a thread gets
 * the same iterations in both, so it reads only its own t */
void LT_FN(k_nowait)(const double *restrict x, double *restrict y, int n) {
  double *t = malloc(n * sizeof *t);
#pragma omp parallel
  {
#pragma omp for schedule(static) nowait
    for (int i = 0; i < n; i++)
      t[i] = exp(0.3 * x[i]) * x[0];
#pragma omp for schedule(static)
    for (int i = 0; i < n; i++)
      y[i] = t[i] * t[i] + x[i];
  }
  free(t);
}
WRAPPERS(k_nowait)

/* an orphaned `for` in a helper called by every thread of the region */
static void LT_FN(orphan_for)(const double *restrict x, double *restrict y, int n) {
#pragma omp for schedule(dynamic)
  for (int i = 0; i < n; i++)
    y[i] = BODY(i, n);
}
void LT_FN(k_orphan)(const double *restrict x, double *restrict y, int n) {
#pragma omp parallel
  LT_FN(orphan_for)(x, y, n);
}
WRAPPERS(k_orphan)

#ifndef LT_SERIAL

#define KNOWN(name)                                                                       \
  void name##_ser(const double *restrict x, double *restrict y, int n);                   \
  void grad_##name##_ser(const double *, double *, double *, double *, int);              \
  void fwd_##name##_ser(const double *, const double *, double *, double *, int);         \
  void fwd2_##name##_ser(const double *, const double *, const double *, double *,        \
                         double *, double *, int);
KNOWN(k_static)
KNOWN(k_chunk)
KNOWN(k_dynamic)
KNOWN(k_guided)
KNOWN(k_default)
KNOWN(k_collapse)
KNOWN(k_two_loops)
KNOWN(k_nowait)
KNOWN(k_orphan)

typedef void (*kern)(const double *restrict, double *restrict, int);
typedef void (*gradf)(const double *, double *, double *, double *, int);
typedef void (*fwdf)(const double *, const double *, double *, double *, int);
typedef void (*fwd2f)(const double *, const double *, const double *, double *, double *,
                      double *, int);
typedef struct {
  const char *name;
  kern k, k_ser;
  gradf g, g_ser;
  fwdf f, f_ser;
  fwd2f f2, f2_ser;
} Case;
#define CASE(name)                                                                        \
  { #name, name, name##_ser, grad_##name, grad_##name##_ser, fwd_##name, fwd_##name##_ser,  \
    fwd2_##name, fwd2_##name##_ser }
static const Case cases[] = {CASE(k_static),    CASE(k_chunk),   CASE(k_dynamic),
                             CASE(k_guided),    CASE(k_default), CASE(k_collapse),
                             CASE(k_two_loops), CASE(k_nowait),  CASE(k_orphan)};

enum { NMAX = 37 };
static const Case *cur;
static double W[NMAX];
/* L(x) = sum w_i y_i, y = the OpenMP kernel's */
static double L(const double *x, int n) {
  double y[NMAX];
  cur->k(x, y, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += W[i] * y[i];
  return s;
}

int main(void) {
  lt_omp_team();
  int sizes[3] = {lt_vi(1), lt_vi(7), lt_vi(37)};
  for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
    cur = &cases[c];
    for (int s = 0; s < 3; s++) {
      int n = sizes[s];
      double x[NMAX], v[NMAX], v1[NMAX], y[NMAX], ys[NMAX], dx[NMAX], dxs[NMAX], dy[NMAX];
      double t[NMAX], ts[NMAX], t1[NMAX], t1s[NMAX], u[NMAX], u1[NMAX];
      char w[120];
      lt_omp_fill(x, n, -1.2, 1.4, 1);
      lt_omp_fill(v, n, -1, 1, 2);
      lt_omp_fill(v1, n, -1, 1, 3);
      lt_omp_fill(W, n, -2, 2, 4);

      /* primal */
      cur->k(x, y, n);
      cur->k_ser(x, ys, n);
      snprintf(w, sizeof w, "%s n=%d primal", cur->name, n);
      lt_omp_same(w, y, ys, n);

      /* reverse */
      memset(dx, 0, sizeof dx);
      memcpy(dy, W, sizeof dy);
      cur->g(x, dx, y, dy, n);
      snprintf(w, sizeof w, "%s n=%d reverse: y after", cur->name, n);
      lt_omp_same(w, y, ys, n);
      memset(dxs, 0, sizeof dxs);
      memcpy(dy, W, sizeof dy);
      cur->g_ser(x, dxs, y, dy, n);
      snprintf(w, sizeof w, "%s n=%d reverse", cur->name, n);
      lt_omp_same(w, dx, dxs, n);
      lt_omp_fd(w, L, x, n, dx, 1e-6);

      /* forward, width 1: w . dy against FD of L along v */
      cur->f(x, v, y, t, n);
      cur->f_ser(x, v, ys, ts, n);
      snprintf(w, sizeof w, "%s n=%d forward", cur->name, n);
      lt_omp_same(w, t, ts, n);
      double wt = 0, wt1 = 0;
      for (int i = 0; i < n; i++)
        wt += W[i] * t[i];
      snprintf(w, sizeof w, "%s n=%d forward: w.dy vs FD along v", cur->name, n);
      lt_check(w, wt, lt_omp_fd_dir(L, x, v, n), 1e-6, 1e-8);
      /* and the transpose: w . (J v) = (J^T w) . v */
      double adj = 0;
      for (int i = 0; i < n; i++)
        adj += dx[i] * v[i];
      snprintf(w, sizeof w, "%s n=%d forward vs reverse", cur->name, n);
      lt_check(w, wt, adj, 1e-12, 1e-13);

      /* forward, width 2 */
      cur->f2(x, v, v1, y, u, u1, n);
      cur->f2_ser(x, v, v1, ys, ts, t1s, n);
      cur->f(x, v1, y, t1, n);
      snprintf(w, sizeof w, "%s n=%d forward width 2 lane 0", cur->name, n);
      lt_omp_same(w, u, ts, n);
      lt_omp_same(w, u, t, n);
      snprintf(w, sizeof w, "%s n=%d forward width 2 lane 1", cur->name, n);
      lt_omp_same(w, u1, t1s, n);
      lt_omp_same(w, u1, t1, n);
      for (int i = 0; i < n; i++)
        wt1 += W[i] * u1[i];
      snprintf(w, sizeof w, "%s n=%d forward width 2 lane 1 vs FD", cur->name, n);
      lt_check(w, wt1, lt_omp_fd_dir(L, x, v1, n), 1e-6, 1e-8);
    }
  }
  return lt_done();
}
#endif
