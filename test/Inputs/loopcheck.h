/* loopcheck.h: helpers for the loop tests (test/Integration/loop-*.c).
 *
 * lt_fdv is a central finite difference of a scalar objective of a double
 * array with respect to one entry; the objective always gets a fresh copy
 * of the array, so primals that overwrite their input are fine. lt_gradv
 * checks a gradient vector: AD against the analytic gradient and against
 * finite differences, and the analytic gradient against finite differences
 * (which guards the test itself). Tolerances are rtol * (|want| + gmax)
 * with gmax the largest analytic component (norm-wise relative error).
 *
 * Compiling with -DNO_AD (without the plugin) replaces the __enzyme_*
 * entry points by stubs that do nothing and skips every check that
 * depends on AD (lt_check_ad, the AD half of lt_gradv); the remaining
 * analytic-vs-finite-difference checks validate the test itself.
 * None of these helpers is differentiated.
 */
#ifndef LT_LOOPCHECK_H
#define LT_LOOPCHECK_H

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#ifdef NO_AD
#define LT_AD 0
int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *fn, ...) {
  (void)fn;
  return 0;
}
void *__enzyme_augmentfwd(void *fn, ...) {
  (void)fn;
  return 0;
}
void __enzyme_reverse(void *fn, ...) { (void)fn; }
#else
#define LT_AD 1
#endif

/* A scalar objective of x[0..n); ctx carries the constant parameters. The
 * objective may modify x (it gets a private copy). */
typedef double (*lt_obj)(double *x, void *ctx);

/* Central difference d obj / d x[i] with step rel * max(1, |x[i]|),
 * divided by the step actually taken. */
static inline double lt_fdv_h(lt_obj f, const double *x, int n, int i, void *ctx,
                       double rel) {
  double *xp = malloc(n * sizeof *xp), *xm = malloc(n * sizeof *xm);
  double h = rel * fmax(1.0, fabs(x[i]));
  volatile double vp = x[i] + h, vm = x[i] - h;
  memcpy(xp, x, n * sizeof *xp);
  memcpy(xm, x, n * sizeof *xm);
  xp[i] = vp;
  xm[i] = vm;
  double fp = f(xp, ctx), fm = f(xm, ctx);
  free(xp);
  free(xm);
  return (fp - fm) / (vp - vm);
}
static inline double lt_fdv(lt_obj f, const double *x, int n, int i, void *ctx) {
  return lt_fdv_h(f, x, n, i, ctx, 1e-6);
}
/* The whole finite-difference gradient into g[0..n). */
static inline void lt_fd_grad(lt_obj f, const double *x, int n, void *ctx,
                       double *g) {
  for (int i = 0; i < n; i++)
    g[i] = lt_fdv(f, x, n, i, ctx);
}

/* A check that only makes sense when AD ran. */
static inline void lt_check_ad(const char *what, double got, double want,
                               double rtol, double atol) {
  if (LT_AD)
    lt_check(what, got, want, rtol, atol);
}

/* Gradient vector check: ad (may be NULL) vs an (rtol_an), ad vs fd and
 * an vs fd (rtol_fd); absolute floor rtol * max_k |an[k]|. */
static inline void lt_gradv(const char *what, int n, const double *ad,
                     const double *an, const double *fd, double rtol_an,
                     double rtol_fd) {
  double gmax = 0;
  char buf[200];
  for (int k = 0; k < n; k++)
    gmax = fmax(gmax, fabs(an[k]));
  if (!(gmax > 0))
    gmax = 1;
  for (int k = 0; k < n; k++) {
    if (LT_AD && ad) {
      snprintf(buf, sizeof buf, "%s[%d]: AD vs analytic", what, k);
      lt_check(buf, ad[k], an[k], rtol_an, rtol_an * gmax);
      if (fd) {
        snprintf(buf, sizeof buf, "%s[%d]: AD vs finite difference", what, k);
        lt_check(buf, ad[k], fd[k], rtol_fd, rtol_fd * gmax);
      }
    }
    if (fd) {
      snprintf(buf, sizeof buf, "%s[%d]: analytic vs finite difference", what,
               k);
      lt_check(buf, an[k], fd[k], rtol_fd, rtol_fd * gmax);
    }
  }
}

/* Deterministic, non-foldable test data in [lo, hi). */
static inline void lt_data(double *a, int n, double lo, double hi, int seed) {
  for (int i = 0; i < n; i++) {
    double u = 0.5 + 0.5 * sin(1.7 * (i + 1) + 0.31 * seed * seed + seed);
    a[i] = lt_vd(lo + (hi - lo) * u);
  }
}

#endif
