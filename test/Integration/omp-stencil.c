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
WRAPPERS(h_loop)

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
WRAPPERS(h_inside)

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
WRAPPERS(h_nonlin)

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
WRAPPERS(h_rfactor)

#ifndef LT_SERIAL

#define KNOWN(name)                                                                       \
  double name##_ser(const double *, int);                                                 \
  double grad_##name##_ser(const double *, double *, int);                                \
  double fwd_##name##_ser(const double *, const double *, int);                           \
  LtD4 fwd4_##name##_ser(const double *, const double *, int);
KNOWN(h_loop)
KNOWN(h_inside)
KNOWN(h_nonlin)
KNOWN(h_rfactor)

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
static const Case cases[] = {CASE(h_loop), CASE(h_inside), CASE(h_nonlin), CASE(h_rfactor)};

int main(void) {
  lt_omp_team();
  int sizes[3] = {lt_vi(1), lt_vi(8), lt_vi(41)};
  for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
    const Case *k = &cases[c];
    for (int s = 0; s < 3; s++) {
      int n = sizes[s];
      double x[64], dx[64], dxs[64], v[256];
      char w[120];
      lt_omp_fill(x, n, -1.0, 1.0, 9 + s);
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
