// OpenMP reductions inside a differentiated function: reduction(+:),
// reduction(*:), reduction(max:), reduction(min:) on `parallel for`; a
// `for reduction(+:)` inside `parallel`, blocking (__kmpc_reduce) and
// nowait (__kmpc_reduce_nowait); two reductions in one loop; and a
// reduction-heavy loss (log-sum-exp through a max and a sum reduction,
// then a least-squares term with two sums). The engine makes each combine
// a critical section. Reverse mode and forward mode (width 1 and 4),
// against the same functions compiled without -fopenmp (1e-12) and
// central differences; 1 and 2 threads; n = 1, 7, 40.
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

/* A scalar objective f(x, n) with its reverse and forward wrappers. */
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

/* s = sum x_i^2 sin(x_0) + x_i */
double LT_FN(r_sum)(const double *x, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * sin(x[0]) + x[i];
  return s;
}
WRAPPERS(r_sum)

/* p = prod (1 + 0.3 x_i cos x_i) */
double LT_FN(r_prod)(const double *x, int n) {
  double p = 1;
#pragma omp parallel for reduction(* : p) schedule(static, 2)
  for (int i = 0; i < n; i++)
    p *= 1 + 0.3 * x[i] * cos(x[i]);
  return p;
}
WRAPPERS(r_prod)

/* m = max_i x_i^2 + 0.1 x_i x_0: only the arg max carries the gradient */
double LT_FN(r_max)(const double *x, int n) {
  double m = -1e300;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) {
    double e = x[i] * x[i] + 0.1 * x[i] * x[0];
    m = e > m ? e : m;
  }
  return m * x[0];
}
WRAPPERS(r_max)

/* m = min_i exp(x_i) - x_i^3 (fmin) */
double LT_FN(r_min)(const double *x, int n) {
  double m = 1e300;
#pragma omp parallel for reduction(min : m) schedule(dynamic, 3)
  for (int i = 0; i < n; i++)
    m = fmin(m, exp(x[i]) - x[i] * x[i] * x[i]);
  return m;
}
WRAPPERS(r_min)

/* `for reduction` inside `parallel`: blocking, then nowait, both sums */
double LT_FN(r_inner)(const double *x, int n) {
  double a = 0, b = 0;
#pragma omp parallel
  {
#pragma omp for reduction(+ : a)
    for (int i = 0; i < n; i++)
      a += sin(x[i]) * x[0];
#pragma omp for reduction(+ : b) nowait
    for (int i = 0; i < n; i++)
      b += cos(x[i]) * x[i];
  }
  return a * b + a;
}
WRAPPERS(r_inner)

/* two reductions in one loop */
double LT_FN(r_two)(const double *x, int n) {
  double s1 = 0, s2 = 0;
#pragma omp parallel for reduction(+ : s1, s2)
  for (int i = 0; i < n; i++) {
    s1 += x[i];
    s2 += x[i] * x[i];
  }
  return s2 / n - (s1 / n) * (s1 / n); /* the variance */
}
WRAPPERS(r_two)

/* A reduction-heavy loss: z_i = x_i x_0 + 0.2 i (scores); lse = m +
 * log sum exp(z_i - m) (max then sum reductions); least squares of
 * r_i = sin(x_i) - 0.1 i against the mean of r (two sums); the loss
 * lse - z_0 + lsq. */
double LT_FN(r_loss)(const double *x, int n) {
  double m = -1e300, s = 0, sr = 0, srr = 0;
#pragma omp parallel for reduction(max : m)
  for (int i = 0; i < n; i++) {
    double z = x[i] * x[0] + 0.2 * i;
    m = z > m ? z : m;
  }
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++)
    s += exp(x[i] * x[0] + 0.2 * i - m);
#pragma omp parallel for reduction(+ : sr, srr) schedule(guided)
  for (int i = 0; i < n; i++) {
    double r = sin(x[i]) - 0.1 * i;
    sr += r;
    srr += r * r;
  }
  double lse = m + log(s), mean = sr / n;
  return lse - x[0] * x[0] + (srr - n * mean * mean);
}
WRAPPERS(r_loss)

#ifndef LT_SERIAL

#define KNOWN(name)                                                                       \
  double name##_ser(const double *, int);                                                 \
  double grad_##name##_ser(const double *, double *, int);                                \
  double fwd_##name##_ser(const double *, const double *, int);                           \
  LtD4 fwd4_##name##_ser(const double *, const double *, int);
KNOWN(r_sum)
KNOWN(r_prod)
KNOWN(r_max)
KNOWN(r_min)
KNOWN(r_inner)
KNOWN(r_two)
KNOWN(r_loss)

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
static const Case cases[] = {CASE(r_sum),   CASE(r_prod), CASE(r_max), CASE(r_min),
                             CASE(r_inner), CASE(r_two),  CASE(r_loss)};

int main(void) {
  lt_omp_team();
  int sizes[3] = {lt_vi(1), lt_vi(7), lt_vi(40)};
  for (unsigned c = 0; c < sizeof cases / sizeof *cases; c++) {
    const Case *k = &cases[c];
    for (int s = 0; s < 3; s++) {
      int n = sizes[s];
      double x[64], dx[64], dxs[64], v[256];
      char w[120];
      lt_omp_fill(x, n, -1.1, 1.3, 7 + s);
      lt_omp_fill(v, 256, -1, 1, 3);

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
