// BLAS and LAPACK routines without a derivative rule (cblas_dgbmv; the
// symmetric eigensolver dsyev_, through both interfaces): on active data
// an error at the call names the routine and says how to register a
// custom derivative; an LU of a rectangular matrix (dgetrf_ with m and n
// different) is an error too; the same routines on inactive data (a constant matrix and
// vector, an integer search) just run; a transpose only known at run time
// on active data is an error naming the call.
// REQUIRES: blas
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <cblas.h>
#include <leantape.h>

void dsyev_(const char *jobz, const char *uplo, const int *n, double *a, const int *lda,
            double *w, double *work, const int *lwork, int *info, long l1, long l2);
int LAPACKE_dsyev(int layout, char jobz, char uplo, int n, double *a, int lda, double *w);
void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);

double band(double *y, const double *A) {
  double x[3] = {1, 2, 3};
  cblas_dgbmv(CblasColMajor, CblasNoTrans, 3, 3, 1, 1, 1.0, A, 3, x, 1, 0.0, y,
              1);
  return y[0] + y[1] + y[2];
}

double eig(double *A) {
  int n = 3, lwork = 16, info;
  double w[3], work[16];
  dsyev_("V", "L", &n, A, &n, w, work, &lwork, &info, 1, 1);
  return A[0] + w[1];
}

double eig_c(double *A) {
  double w[3];
  LAPACKE_dsyev(102, 'V', 'L', 3, A, 3, w);
  return A[0] + w[1];
}

double lu_rect(double *A) {
  int m = 3, n = 2, ipiv[2], info;
  dgetrf_(&m, &n, A, &m, ipiv, &info);
  return A[0];
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
  __enzyme_autodiff((void *)eig, A, dA);
  __enzyme_autodiff((void *)eig_c, A, dA);
  __enzyme_autodiff((void *)lu_rect, A, dA);
  __enzyme_autodiff((void *)quiet, B, dB);
  __enzyme_autodiff((void *)runtime_trans, A, dA, y, dy, enzyme_const, t);
}

// CHECK: blas-no-rule.c:22:3: error: leantape: no derivative rule for 'cblas_dgbmv' (a BLAS/LAPACK routine Leantape has no rule for yet); mark its arguments enzyme_const, or register a custom derivative (void *__enzyme_register_gradient_<name>[3] = {cblas_dgbmv, augmented, gradient}; see the README)
// CHECK: blas-no-rule.c:30:3: error: leantape: no derivative rule for 'dsyev_'
// CHECK: blas-no-rule.c:36:3: error: leantape: no derivative rule for 'LAPACKE_dsyev'
// CHECK: blas-no-rule.c:42:3: error: leantape: 'dgetrf_' on active data: the rule is for square matrices; pass the same variable or constant as m and n
// CHECK-NOT: quiet
// CHECK: blas-no-rule.c:57:3: error: leantape: 'cblas_dgemv' on active data: its layout and transposes must be constants
// CHECK-NOT: error: leantape
// CHECK-NOT: PLEASE submit a bug report
