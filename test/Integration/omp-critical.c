// OpenMP critical sections inside a differentiated function. The reverse
// pass must re-enter a critical section in the opposite order of the
// forward entries when the update is not commutative:
//  - c_affine: s = s * cos(a_i) + b_i^2 under `critical` (a parallel
//    for, schedule(dynamic)): the result depends on the order in which
//    the threads entered, which the function records (an inactive int
//    array); the reference is the serial replay of that order;
//  - c_quad: s = 0.5 s^2 + 0.3 x_i (the adjoint needs the s each entry
//    saw, which other threads overwrote since), recorded order too;
//  - c_named: two named critical sections in one loop (a sum and a
//    product of positive factors, commutative: the serial function is the
//    reference) and a histogram h[i % 3] += x_i^2 under a third.
// Reverse mode and forward mode (width 1 and 2), against the serial
// functions (1e-12) and central differences of the replay; 1 and 2 threads.
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

/* x = (a_0..a_{n-1}, b_0..b_{n-1}); order receives the entry order */
double LT_FN(c_affine)(const double *restrict x, int *restrict order, int n) {
  double s = 1.0;
  int cnt = 0;
#pragma omp parallel for schedule(dynamic)
  for (int i = 0; i < n; i++) {
    double a = cos(x[i]), b = x[n + i] * x[n + i];
#pragma omp critical
    {
      s = s * a + b;
      order[cnt++] = i;
    }
  }
  return s;
}

/* the same updates, serially, in a given order */
double LT_FN(c_affine_replay)(const double *restrict x, const int *restrict order, int n) {
  double s = 1.0;
  for (int k = 0; k < n; k++) {
    int i = order[k];
    s = s * cos(x[i]) + x[n + i] * x[n + i];
  }
  return s;
}

double LT_FN(c_quad)(const double *restrict x, int *restrict order, int n) {
  double s = 0.2;
  int cnt = 0;
#pragma omp parallel for schedule(static, 1)
  for (int i = 0; i < n; i++) {
    double d = 0.3 * x[i];
#pragma omp critical
    {
      order[cnt++] = i;
      s = 0.5 * s * s + d;
    }
  }
  return s;
}

double LT_FN(c_quad_replay)(const double *restrict x, const int *restrict order, int n) {
  double s = 0.2;
  for (int k = 0; k < n; k++)
    s = 0.5 * s * s + 0.3 * x[order[k]];
  return s;
}

/* named sections: a sum, a product, and a histogram (h: 3 outputs) */
double LT_FN(c_named)(const double *restrict x, double *restrict h, int n) {
  double s = 0, p = 1;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    double e = exp(0.2 * x[i]);
#pragma omp critical(sum)
    s += e * x[0];
#pragma omp critical(prod)
    p *= 1 + 0.1 * e;
#pragma omp critical(hist)
    h[i % 3] += x[i] * x[i];
  }
  return s + p;
}

#define ORDERED(name)                                                                     \
  double LT_FN(grad_##name)(const double *x, double *dx, int *order, int n) {             \
    return __enzyme_autodiff((void *)LT_FN(name), enzyme_dup, x, dx, enzyme_const, order, \
                             enzyme_const, n);                                            \
  }                                                                                       \
  double LT_FN(fwd_##name)(const double *x, const double *v, int *order, int n) {         \
    return __enzyme_fwddiff((void *)LT_FN(name), enzyme_dup, x, v, enzyme_const, order,   \
                            enzyme_const, n);                                             \
  }                                                                                       \
  LtD2 LT_FN(fwd2_##name)(const double *x, const double *v0, const double *v1, int *order, \
                          int n) {                                                        \
    return __enzyme_fwddiff2((void *)LT_FN(name), enzyme_width, 2, enzyme_dup, x, v0, v1, \
                             enzyme_const, order, enzyme_const, n);                       \
  }
ORDERED(c_affine)
ORDERED(c_quad)
ORDERED(c_affine_replay)
ORDERED(c_quad_replay)

double LT_FN(grad_c_named)(const double *x, double *dx, double *h, double *dh, int n) {
  return __enzyme_autodiff((void *)LT_FN(c_named), enzyme_dup, x, dx, enzyme_dup, h, dh,
                           enzyme_const, n);
}
double LT_FN(fwd_c_named)(const double *x, const double *v, double *h, double *dh, int n) {
  return __enzyme_fwddiff((void *)LT_FN(c_named), enzyme_dup, x, v, enzyme_dup, h, dh,
                          enzyme_const, n);
}

#ifndef LT_SERIAL

double grad_c_affine_replay_ser(const double *, double *, int *, int);
double grad_c_quad_replay_ser(const double *, double *, int *, int);
double fwd_c_affine_replay_ser(const double *, const double *, int *, int);
double fwd_c_quad_replay_ser(const double *, const double *, int *, int);
LtD2 fwd2_c_affine_replay_ser(const double *, const double *, const double *, int *, int);
LtD2 fwd2_c_quad_replay_ser(const double *, const double *, const double *, int *, int);
double c_named_ser(const double *restrict, double *restrict, int);
double grad_c_named_ser(const double *, double *, double *, double *, int);
double fwd_c_named_ser(const double *, const double *, double *, double *, int);

enum { NMAX = 33 };
static int ORDER[NMAX];
static double (*REPLAY)(const double *restrict, const int *restrict, int);
static int NN;
/* the replay of the recorded order, as a function of x (2n or n values) */
static double replay_obj(const double *x, int m) {
  (void)m;
  return REPLAY(x, ORDER, NN);
}
static double H0[3] = {0.5, -0.25, 1.0}, HW[3] = {1.5, -0.7, 0.3};
static double named_obj(const double *x, int n) {
  double h[3];
  memcpy(h, H0, sizeof h);
  double r = c_named(x, h, n);
  return r + HW[0] * h[0] + HW[1] * h[1] + HW[2] * h[2];
}

static int is_permutation(const int *o, int n) {
  int seen[NMAX] = {0};
  for (int k = 0; k < n; k++) {
    if (o[k] < 0 || o[k] >= n || seen[o[k]])
      return 0;
    seen[o[k]] = 1;
  }
  return 1;
}

typedef struct {
  const char *name;
  int twice; /* x holds 2n values */
  double (*g)(const double *, double *, int *, int);
  double (*t)(const double *, const double *, int *, int);
  LtD2 (*t2)(const double *, const double *, const double *, int *, int);
  double (*g_ref)(const double *, double *, int *, int);
  double (*t_ref)(const double *, const double *, int *, int);
  LtD2 (*t2_ref)(const double *, const double *, const double *, int *, int);
  double (*replay)(const double *restrict, const int *restrict, int);
} Ordered;

int main(void) {
  lt_omp_team();
  const Ordered ord[2] = {
      {"c_affine", 1, grad_c_affine, fwd_c_affine, fwd2_c_affine, grad_c_affine_replay_ser,
       fwd_c_affine_replay_ser, fwd2_c_affine_replay_ser, c_affine_replay},
      {"c_quad", 0, grad_c_quad, fwd_c_quad, fwd2_c_quad, grad_c_quad_replay_ser,
       fwd_c_quad_replay_ser, fwd2_c_quad_replay_ser, c_quad_replay}};
  int sizes[3] = {lt_vi(1), lt_vi(6), lt_vi(33)};
  for (int s = 0; s < 3; s++) {
    int n = sizes[s];
    NN = n;
    for (int c = 0; c < 2; c++) {
      const Ordered *k = &ord[c];
      int m = k->twice ? 2 * n : n;
      double x[2 * NMAX], dx[2 * NMAX], dxr[2 * NMAX], v[2 * NMAX], v1[2 * NMAX];
      int order[NMAX];
      char w[120];
      lt_omp_fill(x, m, -1.0, 1.0, 11 + s);
      lt_omp_fill(v, m, -1, 1, 12);
      lt_omp_fill(v1, m, -1, 1, 13);
      REPLAY = k->replay;

      /* reverse: the gradient of the order this forward pass took */
      memset(dx, 0, sizeof dx);
      memset(dxr, 0, sizeof dxr);
      double y = k->g(x, dx, order, n);
      snprintf(w, sizeof w, "%s n=%d: the entry order is a permutation", k->name, n);
      lt_check(w, is_permutation(order, n), 1, 0, 0);
      memcpy(ORDER, order, sizeof order);
      double yr = k->g_ref(x, dxr, ORDER, n);
      snprintf(w, sizeof w, "%s n=%d reverse: primal vs serial replay", k->name, n);
      lt_omp_same(w, &y, &yr, 1);
      snprintf(w, sizeof w, "%s n=%d reverse", k->name, n);
      lt_omp_same(w, dx, dxr, m);
      lt_omp_fd(w, replay_obj, x, m, dx, 1e-6);

      /* forward */
      double t = k->t(x, v, order, n);
      memcpy(ORDER, order, sizeof order);
      double tr = k->t_ref(x, v, ORDER, n);
      snprintf(w, sizeof w, "%s n=%d forward", k->name, n);
      lt_omp_same(w, &t, &tr, 1);
      lt_check(w, t, lt_omp_fd_dir(replay_obj, x, v, m), 1e-6, 1e-8);
      LtD2 q = k->t2(x, v, v1, order, n);
      memcpy(ORDER, order, sizeof order);
      LtD2 qr = k->t2_ref(x, v, v1, ORDER, n);
      snprintf(w, sizeof w, "%s n=%d forward width 2", k->name, n);
      lt_omp_same(w, q.v, qr.v, 2);
    }

    /* named sections */
    {
      double x[NMAX], dx[NMAX], dxs[NMAX], v[NMAX], h[3], hs[3], dh[3], dhs[3];
      char w[120];
      lt_omp_fill(x, n, -1.0, 1.0, 21 + s);
      lt_omp_fill(v, n, -1, 1, 22);
      memcpy(h, H0, sizeof h);
      memcpy(hs, H0, sizeof hs);
      double y = c_named(x, h, n), ys = c_named_ser(x, hs, n);
      snprintf(w, sizeof w, "c_named n=%d primal", n);
      lt_omp_same(w, &y, &ys, 1);
      lt_omp_same(w, h, hs, 3);
      memset(dx, 0, sizeof dx);
      memset(dxs, 0, sizeof dxs);
      memcpy(h, H0, sizeof h);
      memcpy(hs, H0, sizeof hs);
      memcpy(dh, HW, sizeof dh);
      memcpy(dhs, HW, sizeof dhs);
      grad_c_named(x, dx, h, dh, n);
      grad_c_named_ser(x, dxs, hs, dhs, n);
      snprintf(w, sizeof w, "c_named n=%d reverse", n);
      lt_omp_same(w, dx, dxs, n);
      lt_omp_fd(w, named_obj, x, n, dx, 1e-6);
      memcpy(h, H0, sizeof h);
      memcpy(hs, H0, sizeof hs);
      memset(dh, 0, sizeof dh);
      memset(dhs, 0, sizeof dhs);
      double t = fwd_c_named(x, v, h, dh, n), ts = fwd_c_named_ser(x, v, hs, dhs, n);
      t += HW[0] * dh[0] + HW[1] * dh[1] + HW[2] * dh[2];
      ts += HW[0] * dhs[0] + HW[1] * dhs[1] + HW[2] * dhs[2];
      snprintf(w, sizeof w, "c_named n=%d forward", n);
      lt_omp_same(w, &t, &ts, 1);
      lt_check(w, t, lt_omp_fd_dir(named_obj, x, v, n), 1e-6, 1e-8);
    }
  }
  return lt_done();
}
#endif
