// dpotrf_'s reverse runs by blocks of 64 columns (gen/lapack.c, Murray's
// blocked algorithm); n = 150 has three blocks, the first a partial one.
// The gradient with respect to the whole matrix, for both triangles and
// both LAPACKE layouts, against central differences along four
// directions, and (<gradient, direction>) against the forward mode's
// tangent, which uses the unblocked formula.
// REQUIRES: lapacke
// RUN: %ltclang -O0 %s -o %t.O0 %lapackelibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %lapackelibs -lm && %t.O2

#include "check.h"
#include <lapacke.h>
#include <leantape.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#define N 150
double __enzyme_fwddiff(void *, ...);

/* a weighted loss of the factor (both triangles: the one potrf does not
 * touch passes through) */
static double loss(const double *L) {
  double s = 0;
  for (int i = 0; i < N * N; i++)
    s += (1 + 0.001 * (i % 97)) * L[i] + 0.1 * L[i] * L[i];
  return s;
}

#define CHOL(name, call)                                                                        \
  static double name(double *S, double *L) {                                                    \
    memcpy(L, S, sizeof(double) * N * N);                                                        \
    call;                                                                                        \
    return loss(L);                                                                              \
  }
static lapack_int n_ = N, info_;
CHOL(lower_f, LAPACK_dpotrf("L", &n_, L, &n_, &info_))
CHOL(upper_f, LAPACK_dpotrf("U", &n_, L, &n_, &info_))
CHOL(lower_row, LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'L', N, L, N))
CHOL(upper_row, LAPACKE_dpotrf(LAPACK_ROW_MAJOR, 'U', N, L, N))

typedef double (*fn_t)(double *, double *);

static void check_one(const char *name, fn_t f, void (*rev)(double *, double *, double *, double *),
                      double (*fwd)(double *, double *, double *, double *)) {
  double *S = malloc(sizeof(double) * N * N), *L = malloc(sizeof(double) * N * N);
  double *dS = calloc(N * N, sizeof(double)), *dL = calloc(N * N, sizeof(double));
  double *dir = malloc(sizeof(double) * N * N), *tL = calloc(N * N, sizeof(double));
  double *Sp = malloc(sizeof(double) * N * N);
  /* symmetric positive definite: a smooth kernel plus the identity */
  for (int i = 0; i < N; i++)
    for (int j = 0; j < N; j++) {
      double d = (i - j) * 0.05;
      S[i + j * N] = exp(-d * d) + (i == j ? 1.0 : 0.0) + 0.01 * sin(i + 2.0 * j) * (i == j);
    }
  rev(S, dS, L, dL);
  char buf[120];
  for (int l = 0; l < 4; l++) {
    double dot = 0;
    for (int i = 0; i < N * N; i++) {
      int r = i % N, c = i / N;
      /* a symmetric direction: potrf reads one triangle, both carry it */
      dir[i] = cos(0.37 * (r + c) + 1.1 * l + 0.013 * r * c);
      dot += dir[i] * dS[i];
    }
    memset(tL, 0, sizeof(double) * N * N);
    double t = fwd(S, dir, L, tL);
    double h = 1e-5;
    for (int i = 0; i < N * N; i++)
      Sp[i] = S[i] + h * dir[i];
    double fp = f(Sp, L);
    for (int i = 0; i < N * N; i++)
      Sp[i] = S[i] - h * dir[i];
    double fm = f(Sp, L);
    double fd = (fp - fm) / (2 * h);
    snprintf(buf, sizeof buf, "%s direction %d: <gradient, direction> vs central difference",
             name, l);
    lt_check(buf, dot, fd, 1e-5, 1e-5);
    snprintf(buf, sizeof buf, "%s direction %d: <gradient, direction> vs tangent", name, l);
    lt_check(buf, dot, t, 1e-9, 1e-9);
  }
  free(S), free(L), free(dS), free(dL), free(dir), free(tL), free(Sp);
}

#define DERIVS(name)                                                                            \
  static void name##_rev(double *S, double *dS, double *L, double *dL) {                         \
    __enzyme_autodiff((void *)name, enzyme_dup, S, dS, enzyme_dup, L, dL);                       \
  }                                                                                              \
  static double name##_fwd(double *S, double *dS, double *L, double *dL) {                       \
    return __enzyme_fwddiff((void *)name, enzyme_dup, S, dS, enzyme_dup, L, dL);                 \
  }
DERIVS(lower_f)
DERIVS(upper_f)
DERIVS(lower_row)
DERIVS(upper_row)

int main(void) {
  check_one("lower_f", lower_f, lower_f_rev, lower_f_fwd);
  check_one("upper_f", upper_f, upper_f_rev, upper_f_fwd);
  check_one("lower_row", lower_row, lower_row_rev, lower_row_fwd);
  check_one("upper_row", upper_row, upper_row_rev, upper_row_fwd);
  return lt_done();
}
