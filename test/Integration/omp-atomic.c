// OpenMP atomics inside a differentiated function (atomicrmw fadd/fsub,
// atomic loads and stores; the rules in gen/revinst.c and gen/fwdinst.c):
//  - a_add: `atomic` s += x_i^2 x_0 into a shared local;
//  - a_sub: `atomic update` s -= sin(x_i) and `atomic` t += x_i into two
//    locals, returns s t;
//  - a_hist: `atomic` h[i % 3] += x_i^2 into a heap array shared by the
//    team (bins several threads add to);
//  - a_rw: `atomic read` v = x_i, `atomic write` y[i] = v^2 x_0 (a heap
//    array), then a serial sum.
// A compare-exchange loop (`atomic` with *=) is an error:
// test/Diagnostics/omp-atomic-mul.c. Reverse mode and forward mode (width 1
// and 4), against the same functions compiled without -fopenmp (1e-12) and
// central differences; 1 and 2 threads; n = 1, 8, 41.
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

double LT_FN(a_add)(const double *x, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    s += x[i] * x[i] * x[0];
  }
  return s;
}
WRAPPERS(a_add)

double LT_FN(a_sub)(const double *x, int n) {
  double s = 1, t = 0.5;
#pragma omp parallel for schedule(dynamic, 2)
  for (int i = 0; i < n; i++) {
#pragma omp atomic update
    s -= sin(x[i]);
#pragma omp atomic
    t += x[i];
  }
  return s * t;
}
WRAPPERS(a_sub)

double LT_FN(a_hist)(const double *x, int n) {
  double *h = calloc(3, sizeof *h);
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp atomic
    h[i % 3] += x[i] * x[i];
  }
  double r = h[0] * h[1] + h[2] + h[0];
  free(h);
  return r;
}
WRAPPERS(a_hist)

double LT_FN(a_rw)(const double *x, int n) {
  double *y = malloc(n * sizeof *y);
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double v;
#pragma omp atomic read
    v = x[i];
#pragma omp atomic write
    y[i] = v * v * x[0];
  }
  double r = 0;
  for (int i = 0; i < n; i++)
    r += y[i] * (1 + 0.1 * i);
  free(y);
  return r;
}
WRAPPERS(a_rw)

#ifndef LT_SERIAL

#define KNOWN(name)                                                                       \
  double name##_ser(const double *, int);                                                 \
  double grad_##name##_ser(const double *, double *, int);                                \
  double fwd_##name##_ser(const double *, const double *, int);                           \
  LtD4 fwd4_##name##_ser(const double *, const double *, int);
KNOWN(a_add)
KNOWN(a_sub)
KNOWN(a_hist)
KNOWN(a_rw)

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
static const Case cases[] = {CASE(a_add), CASE(a_sub), CASE(a_hist), CASE(a_rw)};

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
