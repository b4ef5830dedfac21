// OpenMP synchronisation and thread numbers inside a differentiated
// function: `single` (with its implicit barrier) computing a shared value
// the team then reads; `master` and `masked` followed by an explicit
// `barrier`; a region whose threads split the work by
// omp_get_thread_num() / omp_get_num_threads() (cyclic and blocked index
// arithmetic, inactive) with a `barrier` between two phases; a
// num_threads(2) clause (two threads even when OMP_NUM_THREADS=1). The
// reverse pass must mirror each barrier: the adjoint of the shared value
// is complete only after every thread's reverse of the later phase.
// Reverse mode and forward mode (width 1 and 4), against the same
// functions compiled without -fopenmp (1e-12; there omp_get_thread_num()
// is 0 and omp_get_num_threads() 1) and central differences; 1 and 2
// threads; n = 1, 8, 41.
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

#define WRAPPERS(name)                                                                    \
  double LT_FN(grad_##name)(const double *x, double *dx, int n) {                         \
    return __enzyme_autodiff((void *)LT_FN(name), enzyme_dup, x, dx, enzyme_const, n);    \
  }                                                                                       \
  double LT_FN(fwd_##name)(const double *x, const double *v, int n) {                     \
    return __enzyme_fwddiff((void *)LT_FN(name), enzyme_dup, x, v, enzyme_const, n);      \
  }                                                                                       \
  LtD4 LT_FN(fwd4_##name)(const double *x, const double *v, int n) {                      \
    return __enzyme_fwddiff4((void *)LT_FN(name), enzyme_width, 4, enzyme_dup, x, v,      \
                             v + 64, v + 128, v + 192, enzyme_const, n);                  \
  }

/* single: t = sum x_i^2 by one thread; then every thread reads t */
double LT_FN(s_single)(const double *x, int n) {
  double t = 0, *y = malloc(n * sizeof *y);
#pragma omp parallel
  {
#pragma omp single
    for (int i = 0; i < n; i++)
      t += x[i] * x[i];
#pragma omp for
    for (int i = 0; i < n; i++)
      y[i] = t * sin(x[i]);
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * (1 + 0.1 * i);
  free(y);
  return r;
}
WRAPPERS(s_single)

/* master, then a barrier: t = x_0 x_{n-1} + 1 */
double LT_FN(s_master)(const double *x, int n) {
  double t = 0, *y = malloc(n * sizeof *y);
#pragma omp parallel
  {
#pragma omp master
    t = x[0] * x[n - 1] + 1;
#pragma omp barrier
#pragma omp for schedule(static, 2)
    for (int i = 0; i < n; i++)
      y[i] = exp(0.2 * t * x[i]);
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * (1 - 0.05 * i);
  free(y);
  return r;
}
WRAPPERS(s_master)

/* masked (thread 0), then a barrier; the value is read by every thread */
double LT_FN(s_masked)(const double *x, int n) {
  double t = 0, u = 0;
#pragma omp parallel
  {
#pragma omp masked
    t = cos(x[0]) + x[n / 2];
#pragma omp barrier
#pragma omp for reduction(+ : u)
    for (int i = 0; i < n; i++)
      u += t * x[i] * x[i];
  }
  return u + t;
}
WRAPPERS(s_masked)

/* cyclic split by thread number, a barrier, then a second phase reading
 * the neighbour another thread wrote */
double LT_FN(s_cyclic)(const double *x, int n) {
  double *t = malloc(n * sizeof *t), *y = malloc(n * sizeof *y);
#pragma omp parallel
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    for (int i = tid; i < n; i += nt)
      t[i] = x[i] * x[i] + 0.5 * x[0];
#pragma omp barrier
    for (int i = tid; i < n; i += nt)
      y[i] = t[i] * t[i + 1 == n ? 0 : i + 1];
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * (1 + 0.1 * i);
  free(t);
  free(y);
  return r;
}
WRAPPERS(s_cyclic)

/* blocked split by thread number: thread t owns [t n / nt, (t+1) n / nt) */
double LT_FN(s_blocked)(const double *x, int n) {
  double *y = malloc(n * sizeof *y);
#pragma omp parallel
  {
    int tid = omp_get_thread_num(), nt = omp_get_num_threads();
    int lo = tid * n / nt, hi = (tid + 1) * n / nt;
    for (int i = lo; i < hi; i++)
      y[i] = sin(x[i]) * x[i] + x[0] * x[i];
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * y[i];
  free(y);
  return r;
}
WRAPPERS(s_blocked)

/* num_threads(2): a team of two whatever OMP_NUM_THREADS says */
double LT_FN(s_numthreads)(const double *x, int n) {
  double s = 0;
#pragma omp parallel for num_threads(2) reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i] + x[0] * x[i];
  return s * s;
}
WRAPPERS(s_numthreads)

#ifndef LT_SERIAL

#define KNOWN(name)                                                                       \
  double name##_ser(const double *, int);                                                 \
  double grad_##name##_ser(const double *, double *, int);                                \
  double fwd_##name##_ser(const double *, const double *, int);                           \
  LtD4 fwd4_##name##_ser(const double *, const double *, int);
KNOWN(s_single)
KNOWN(s_master)
KNOWN(s_masked)
KNOWN(s_cyclic)
KNOWN(s_blocked)
KNOWN(s_numthreads)

typedef struct {
  const char *name;
  double (*f)(const double *, int), (*f_ser)(const double *, int);
  double (*g)(const double *, double *, int), (*g_ser)(const double *, double *, int);
  double (*t)(const double *, const double *, int), (*t_ser)(const double *, const double *, int);
  LtD4 (*t4)(const double *, const double *, int), (*t4_ser)(const double *, const double *, int);
} Case;
#define CASE(name)                                                                        \
  { #name, name, name##_ser, grad_##name, grad_##name##_ser, fwd_##name, fwd_##name##_ser,  \
    fwd4_##name, fwd4_##name##_ser }
static const Case cases[] = {CASE(s_single), CASE(s_master),  CASE(s_masked),
                             CASE(s_cyclic), CASE(s_blocked), CASE(s_numthreads)};

int main(void) {
  lt_omp_team();
  int sizes[3] = {lt_vi(1), lt_vi(8), lt_vi(41)};
  for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
    const Case *k = &cases[c];
    for (int s = 0; s < 3; s++) {
      int n = sizes[s];
      double x[64], dx[64], dxs[64], v[256];
      char w[120];
      lt_omp_fill(x, n, -1.1, 1.3, 5 + s);
      lt_omp_fill(v, 256, -1, 1, 6);

      double y = k->f(x, n), ys = k->f_ser(x, n);
      snprintf(w, sizeof w, "%s n=%d primal", k->name, n);
      lt_omp_same(w, &y, &ys, 1);

      memset(dx, 0, sizeof dx);
      memset(dxs, 0, sizeof dxs);
      k->g(x, dx, n);
      k->g_ser(x, dxs, n);
      snprintf(w, sizeof w, "%s n=%d reverse", k->name, n);
      lt_omp_same(w, dx, dxs, n);
      lt_omp_fd(w, k->f, x, n, dx, 1e-6);

      double t = k->t(x, v, n), ts = k->t_ser(x, v, n), adj = 0;
      snprintf(w, sizeof w, "%s n=%d forward", k->name, n);
      lt_omp_same(w, &t, &ts, 1);
      for (int i = 0; i < n; i++)
        adj += dx[i] * v[i];
      snprintf(w, sizeof w, "%s n=%d forward vs reverse", k->name, n);
      lt_check(w, t, adj, 1e-12, 1e-13 * (fabs(adj) + 1));
      snprintf(w, sizeof w, "%s n=%d forward vs FD along v", k->name, n);
      lt_check(w, t, lt_omp_fd_dir(k->f, x, v, n), 1e-6, 1e-8);

      LtD4 q = k->t4(x, v, n), qs = k->t4_ser(x, v, n);
      snprintf(w, sizeof w, "%s n=%d forward width 4", k->name, n);
      lt_omp_same(w, q.v, qs.v, 4);
      for (int l = 0; l < 4; l++) {
        double one = k->t(x, v + 64 * l, n);
        snprintf(w, sizeof w, "%s n=%d forward width 4 lane %d vs width 1", k->name, n, l);
        lt_check(w, q.v[l], one, 1e-12, 1e-13 * (fabs(one) + 1));
      }
    }
  }
  return lt_done();
}
#endif
