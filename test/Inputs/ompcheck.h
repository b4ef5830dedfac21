/* ompcheck.h: helpers for the OpenMP integration tests (omp-*.c), next to
 * check.h and testutil.h.
 *
 * Each test compiles its source twice at the same -O level: with %openmp
 * into the program, and with -DLT_SERIAL and without -fopenmp (the pragmas
 * ignored: the serial program) into an object whose functions carry the
 * suffix _ser (LT_FN). The parallel program's main calls every gradient of
 * both, and checks the OpenMP one against the serial one (lt_omp_same:
 * 1e-12 relative, the rounding of sums added in another order) and against
 * central differences of the OpenMP primal (lt_omp_fd). The program runs
 * with OMP_NUM_THREADS=1 and =2; lt_omp_team checks the team is that big,
 * so that a run with 2 threads does test two.
 *
 * In the serial compile, omp_get_thread_num() is 0 and omp_get_num_threads()
 * is 1, as in a team of one.
 */
#ifndef LT_OMPCHECK_H
#define LT_OMPCHECK_H

#include "check.h"
#include "testutil.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifdef LT_SERIAL
#define LT_FN(name) name##_ser
static inline int omp_get_thread_num(void) { return 0; }
static inline int omp_get_num_threads(void) { return 1; }
static inline int omp_get_max_threads(void) { return 1; }
#else
#define LT_FN(name) name
#include <omp.h>
#endif

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out, enzyme_width,
    enzyme_dupv;
double __enzyme_autodiff(void *, ...);
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);
typedef struct {
  double v[2];
} LtD2;
LtD2 __enzyme_fwddiff2(void *, ...);
typedef struct {
  double v[4];
} LtD4;
LtD4 __enzyme_fwddiff4(void *, ...);

/* A test function's gradient, tangent and width-4 tangent, for both
 * builds (LT_OMP_WRAPPERS(name) after the function). */
#define LT_OMP_WRAPPERS(name)                                                             \
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

#ifndef LT_SERIAL

/* Deterministic values in [lo, hi), laundered through volatile. */
static void lt_omp_fill(double *a, int n, double lo, double hi, int seed) {
  for (int i = 0; i < n; i++) {
    double t = fmod(0.6180339887 * (i + 1) * (seed + 1) + 0.137 * seed, 1.0);
    a[i] = lt_vd(lo + (hi - lo) * t);
  }
}

static double lt_omp_maxabs(const double *a, int n) {
  double m = 0;
  for (int i = 0; i < n; i++)
    m = fmax(m, fabs(a[i]));
  return m;
}

/* got[0..n) against the serial program's want[0..n): 1e-12 relative,
 * with a floor of 1e-12 of the largest |want| (sums of other orders). */
static void lt_omp_same(const char *what, const double *got, const double *want, int n) {
  double floor = 1e-12 * lt_omp_maxabs(want, n) + 1e-300;
  for (int i = 0; i < n; i++) {
    char b[200];
    snprintf(b, sizeof b, "%s [%d]: OpenMP vs serial", what, i);
    lt_check(b, got[i], want[i], 1e-12, floor);
  }
}

/* f(x) for x[0..n): an objective of the packed inputs. */
typedef double (*lt_omp_obj)(const double *x, int n);

/* got[i] against the central difference of f at x in x[i], for every i
 * (every stride-th when n is large). */
static void lt_omp_fd(const char *what, lt_omp_obj f, const double *x, int n,
                      const double *got, double rtol) {
  double *xp = malloc(n * sizeof *xp);
  double floor = rtol * 1e-2 * (lt_omp_maxabs(got, n) + 1);
  int stride = n > 48 ? n / 24 : 1;
  for (int i = 0; i < n; i += stride) {
    memcpy(xp, x, n * sizeof *xp);
    double h = 1e-6 * fmax(1.0, fabs(x[i]));
    volatile double p = x[i] + h, m = x[i] - h;
    xp[i] = p;
    double fp = f(xp, n);
    xp[i] = m;
    double fm = f(xp, n);
    char b[200];
    snprintf(b, sizeof b, "%s [%d]: AD vs finite difference", what, i);
    lt_check(b, got[i], (fp - fm) / (p - m), rtol, floor);
  }
  free(xp);
}

/* The directional derivative of f at x along v, central differences. */
static double lt_omp_fd_dir(lt_omp_obj f, const double *x, const double *v, int n) {
  double *xp = malloc(n * sizeof *xp), *xm = malloc(n * sizeof *xm), h = 1e-6;
  for (int i = 0; i < n; i++)
    xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  double d = (f(xp, n) - f(xm, n)) / (2 * h);
  free(xp);
  free(xm);
  return d;
}

/* The team a parallel region gets is what OMP_NUM_THREADS says. */
static void lt_omp_team(void) {
  int team = 0;
#pragma omp parallel
  {
#pragma omp single
    team = omp_get_num_threads();
  }
  const char *e = getenv("OMP_NUM_THREADS");
  printf("team of %d thread(s), OMP_NUM_THREADS=%s\n", team, e ? e : "(unset)");
  if (e)
    lt_check("team size is OMP_NUM_THREADS", team, atoi(e), 0, 0);
}


/* The serial build's forms of a test function (declarations), one test
 * function in all its forms, and the run of a table of them: at each of
 * three sizes, the primal, the gradient and the tangents against the
 * serial build, the gradient against central differences, the tangent
 * against the gradient and against central differences along v, each
 * width-4 lane against width 1. */
#define LT_OMP_KNOWN(name)                                                                \
  double name##_ser(const double *, int);                                                 \
  double grad_##name##_ser(const double *, double *, int);                                \
  double fwd_##name##_ser(const double *, const double *, int);                           \
  LtD4 fwd4_##name##_ser(const double *, const double *, int);
typedef struct {
  const char *name;
  double (*f)(const double *, int), (*f_ser)(const double *, int);
  double (*g)(const double *, double *, int), (*g_ser)(const double *, double *, int);
  double (*t)(const double *, const double *, int), (*t_ser)(const double *, const double *, int);
  LtD4 (*t4)(const double *, const double *, int), (*t4_ser)(const double *, const double *, int);
} LtOmpCase;
#define LT_OMP_CASE(name)                                                                 \
  { #name, name, name##_ser, grad_##name, grad_##name##_ser, fwd_##name, fwd_##name##_ser,  \
    fwd4_##name, fwd4_##name##_ser }

/* sizes: three n (at most 64); x filled in [lo, hi) from seed + size
 * index, the tangent directions v from vseed */
static int lt_omp_run_cases(const LtOmpCase *cases, unsigned ncases, const int *sizes,
                            double lo, double hi, int seed, int vseed) {
  lt_omp_team();
  for (unsigned c = 0; c < ncases; c++) {
    const LtOmpCase *k = &cases[c];
    for (int s = 0; s < 3; s++) {
      int n = lt_vi(sizes[s]);
      double x[64], dx[64], dxs[64], v[256];
      char w[120];
      lt_omp_fill(x, n, lo, hi, seed + s);
      lt_omp_fill(v, 256, -1, 1, vseed);

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

#endif /* !LT_SERIAL */
#endif
