/* blascheck.h: checking BLAS derivatives (test/Integration/blas-*.c).
 *
 * A case is a function  T f(T *A, T *B, T *C, T *S)  that calls BLAS on
 * parts of four arrays of LT_N elements (S[0], S[1] are alpha and beta)
 * and returns a loss of what it computed (lt_blas_loss). LT_BLAS_CASE(f)
 * checks, from the same starting point:
 *  - reverse mode: __enzyme_autodiff with all four arrays enzyme_dup,
 *    every element's derivative against central differences;
 *  - forward mode, width 1: the tangent along a fixed direction against
 *    the directional central difference and against <gradient, direction>;
 *  - forward mode, width 4 (enzyme_dupv): each lane against width 1.
 * T is LT_BLAS_T (double unless defined before inclusion). Failures are
 * printed one by one, passes once per case and mode.
 */
#ifndef LT_BLASCHECK_H
#define LT_BLASCHECK_H

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

#ifndef LT_BLAS_T
#define LT_BLAS_T double
#endif
typedef LT_BLAS_T LtT;
#define LT_N 48

extern int enzyme_width, enzyme_dupv;
LtT __enzyme_fwddiff(void *, ...);
typedef struct {
  LtT v[4];
} LtT4;
LtT4 __enzyme_fwddiff4(void *, ...);

typedef LtT (*LtBlasFn)(LtT *, LtT *, LtT *, LtT *);
typedef void (*LtBlasRev)(LtT *, LtT *, LtT *, LtT *, LtT *, LtT *, LtT *, LtT *);
typedef LtT (*LtBlasFwd)(LtT *, LtT *, LtT *, LtT *, LtT *, LtT *, LtT *, LtT *);
typedef LtT4 (*LtBlasFwd4)(LtT *, LtT (*)[LT_N], LtT *, LtT (*)[LT_N], LtT *, LtT (*)[LT_N],
                           LtT *, LtT (*)[LT_N]);

/* A loss that weighs every element differently and is not linear. */
static inline LtT lt_blas_loss(const LtT *v, int n) {
  LtT s = 0;
  for (int i = 0; i < n; i++)
    s += (LtT)(1 + 0.1 * i) * v[i] + (LtT)0.25 * v[i] * v[i];
  return s;
}

#define LT_BLAS_DERIVS(f)                                                                          \
  static void f##_rev(LtT *A, LtT *dA, LtT *B, LtT *dB, LtT *C, LtT *dC, LtT *S, LtT *dS) {        \
    __enzyme_autodiff((void *)f, enzyme_dup, A, dA, enzyme_dup, B, dB, enzyme_dup, C, dC,         \
                      enzyme_dup, S, dS);                                                          \
  }                                                                                                \
  static LtT f##_fwd(LtT *A, LtT *dA, LtT *B, LtT *dB, LtT *C, LtT *dC, LtT *S, LtT *dS) {         \
    return __enzyme_fwddiff((void *)f, enzyme_dup, A, dA, enzyme_dup, B, dB, enzyme_dup, C, dC,   \
                            enzyme_dup, S, dS);                                                    \
  }                                                                                                \
  static LtT4 f##_fwd4(LtT *A, LtT(*dA)[LT_N], LtT *B, LtT(*dB)[LT_N], LtT *C, LtT(*dC)[LT_N],    \
                       LtT *S, LtT(*dS)[LT_N]) {                                                   \
    return __enzyme_fwddiff4((void *)f, enzyme_width, 4, enzyme_dupv, sizeof *dA, A, dA,          \
                             enzyme_dupv, sizeof *dB, B, dB, enzyme_dupv, sizeof *dC, C, dC,      \
                             enzyme_dupv, sizeof *dS, S, dS);                                      \
  }
#define LT_BLAS_CASE(f) lt_blas_case(#f, f, f##_rev, f##_fwd, f##_fwd4)

typedef struct {
  LtT a[4][LT_N];
} LtBlasPt;

static inline void lt_blas_init(LtBlasPt *p) {
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < LT_N; i++)
      p->a[k][i] = (LtT)(0.3 * sin(1.7 * i + 2.3 * k + 0.5) + (k == 3 ? 0.9 : 0.1));
}

static inline LtT lt_blas_eval(LtBlasFn f, const LtBlasPt *p) {
  LtBlasPt q = *p; /* f writes its outputs: always from the same start */
  return f(q.a[0], q.a[1], q.a[2], q.a[3]);
}

static inline double lt_blas_tol(void) { return sizeof(LtT) == 4 ? 2e-2 : 1e-6; }
static inline double lt_blas_h(void) { return sizeof(LtT) == 4 ? 1e-2 : 1e-6; }

/* One comparison; prints only failures. Returns 1 on failure. */
static inline int lt_blas_cmp(const char *what, const char *f, int k, int i, double got,
                              double want) {
  double tol = lt_blas_tol() * (1 + fabs(want));
  if (fabs(got - want) <= tol)
    return 0;
  char buf[160];
  snprintf(buf, sizeof buf, "%s %s array %d element %d", f, what, k, i);
  lt_check(buf, got, want, lt_blas_tol(), lt_blas_tol());
  return 1;
}

static inline void lt_blas_case(const char *name, LtBlasFn f, LtBlasRev rev, LtBlasFwd fwd,
                                LtBlasFwd4 fwd4) {
  LtBlasPt p, q, d, dir[4];
  lt_blas_init(&p);
  int bad = 0;
  /* reverse */
  q = p;
  memset(&d, 0, sizeof d);
  rev(q.a[0], d.a[0], q.a[1], d.a[1], q.a[2], d.a[2], q.a[3], d.a[3]);
  double h = lt_blas_h();
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < LT_N; i++) {
      LtBlasPt pp = p, pm = p;
      volatile LtT xp = (LtT)(p.a[k][i] + h), xm = (LtT)(p.a[k][i] - h);
      pp.a[k][i] = xp;
      pm.a[k][i] = xm;
      double fd = ((double)lt_blas_eval(f, &pp) - (double)lt_blas_eval(f, &pm)) /
                  ((double)xp - (double)xm);
      bad += lt_blas_cmp("reverse vs FD", name, k, i, d.a[k][i], fd);
    }
  char buf[160];
  snprintf(buf, sizeof buf, "%s reverse: elements off", name);
  lt_check(buf, bad, 0, 0, 0);
  /* forward, width 1, four directions */
  double t1[4];
  for (int l = 0; l < 4; l++) {
    double dot = 0;
    for (int k = 0; k < 4; k++)
      for (int i = 0; i < LT_N; i++) {
        dir[l].a[k][i] = (LtT)cos(0.9 * i + 1.3 * k + 0.7 * l);
        dot += (double)dir[l].a[k][i] * (double)d.a[k][i];
      }
    LtBlasPt pp = p, pm = p, dd = dir[l];
    for (int k = 0; k < 4; k++)
      for (int i = 0; i < LT_N; i++)
        pp.a[k][i] += (LtT)h * dir[l].a[k][i], pm.a[k][i] -= (LtT)h * dir[l].a[k][i];
    double fd = ((double)lt_blas_eval(f, &pp) - (double)lt_blas_eval(f, &pm)) / (2 * h);
    q = p;
    t1[l] = fwd(q.a[0], dd.a[0], q.a[1], dd.a[1], q.a[2], dd.a[2], q.a[3], dd.a[3]);
    snprintf(buf, sizeof buf, "%s forward lane %d vs directional FD", name, l);
    lt_check(buf, t1[l], fd, lt_blas_tol(), lt_blas_tol());
    snprintf(buf, sizeof buf, "%s forward lane %d vs <gradient, direction>", name, l);
    lt_check(buf, t1[l], dot, lt_blas_tol(), lt_blas_tol());
  }
  /* forward, width 4 */
  LtT d4[4][4][LT_N];
  for (int l = 0; l < 4; l++)
    for (int k = 0; k < 4; k++)
      memcpy(d4[k][l], dir[l].a[k], sizeof d4[k][l]);
  q = p;
  LtT4 r = fwd4(q.a[0], d4[0], q.a[1], d4[1], q.a[2], d4[2], q.a[3], d4[3]);
  for (int l = 0; l < 4; l++) {
    snprintf(buf, sizeof buf, "%s forward width 4 lane %d vs width 1", name, l);
    lt_check(buf, r.v[l], t1[l], sizeof(LtT) == 4 ? 1e-4 : 1e-12, 1e-12);
  }
}

#endif
