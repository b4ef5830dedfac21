// BLAS and LAPACK routines without a derivative rule: on active data an
// error at the call names the routine and says how to register a custom
// derivative; the same routines on inactive data (a constant matrix and
// vector, an integer search) just run; a transpose only known at run time
// on active data is an error naming the call.
// REQUIRES: blas
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <cblas.h>
#include <leantape.h>

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, long l);

double band(double *y, const double *A) {
  double x[3] = {1, 2, 3};
  cblas_dgbmv(CblasColMajor, CblasNoTrans, 3, 3, 1, 1, 1.0, A, 3, x, 1, 0.0, y,
              1);
  return y[0] + y[1] + y[2];
}

double chol(double *A) {
  int n = 3, info;
  dpotrf_("L", &n, A, &n, &info, 1);
  return A[0] + A[4];
}

/* inactive: the routines run, nothing to differentiate */
static const double L[9] = {2, 0, 0, 1, 3, 0, 0, 1, 4};
double quiet(double *x) {
  double b[3] = {1, 2, 3};
  cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, 3, L, 3, b, 1);
  int k = (int)cblas_idamax(3, x, 1);
  return x[k] * b[0];
}

double runtime_trans(double *A, double *y, int t) {
  double x[2] = {1, 2};
  cblas_dgemv(CblasColMajor, t ? CblasTrans : CblasNoTrans, 2, 2, 1.0, A, 2, x, 1, 0.0, y, 1);
  return y[0];
}

void grads(double *A, double *dA, double *B, double *dB, double *y, double *dy, int t) {
  __enzyme_autodiff((void *)band, B, dB, A, dA);
  __enzyme_autodiff((void *)chol, A, dA);
  __enzyme_autodiff((void *)quiet, B, dB);
  __enzyme_autodiff((void *)runtime_trans, A, dA, y, dy, enzyme_const, t);
}

// CHECK: blas-no-rule.c:17:3: error: leantape: no derivative rule for 'cblas_dgbmv' (a BLAS/LAPACK routine Leantape has no rule for yet); mark its arguments enzyme_const, or register a custom derivative (void *__enzyme_register_gradient_<name>[3] = {cblas_dgbmv, augmented, gradient}; see the README)
// CHECK: blas-no-rule.c:24:3: error: leantape: no derivative rule for 'dpotrf_'
// CHECK-NOT: quiet
// CHECK: blas-no-rule.c:39:3: error: leantape: 'cblas_dgemv' on active data: its layout and transposes must be constants
// CHECK-NOT: error: leantape
// CHECK-NOT: PLEASE submit a bug report
