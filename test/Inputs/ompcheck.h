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

#endif /* !LT_SERIAL */
#endif
