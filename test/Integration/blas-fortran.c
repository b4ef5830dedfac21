// The Fortran BLAS symbols (dgemm_, dgemv_, dger_, ddot_, daxpy_, dscal_,
// dnrm2_), every argument by reference, with and without the hidden
// string lengths after the arguments, transposes as string literals, and
// alpha and beta read through pointers into S (active memory) or into
// local constants. Gradients against central differences in reverse
// mode, forward mode at widths 1 and 4 (test/Inputs/blascheck.h).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#include "blascheck.h"

/* as gfortran declares them: hidden lengths for the character arguments */
void dgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const double *al, const double *a, const int *lda, const double *b, const int *ldb,
            const double *be, double *c, const int *ldc, long lta, long ltb);
/* as many C programs declare them: without */
void dgemv_(const char *t, const int *m, const int *n, const double *al, const double *a,
            const int *lda, const double *x, const int *incx, const double *be, double *y,
            const int *incy);
void dger_(const int *m, const int *n, const double *al, const double *x, const int *incx,
           const double *y, const int *incy, double *a, const int *lda);
double ddot_(const int *n, const double *x, const int *incx, const double *y, const int *incy);
void daxpy_(const int *n, const double *al, const double *x, const int *incx, double *y,
            const int *incy);
void dscal_(const int *n, const double *al, double *x, const int *incx);
double dnrm2_(const int *n, const double *x, const int *incx);

static LtT gemm_nt(LtT *A, LtT *B, LtT *C, LtT *S) {
  int m = 3, n = 4, k = 2, lda = 5, ldb = 6, ldc = 4;
  dgemm_("N", "T", &m, &n, &k, &S[0], A, &lda, B, &ldb, &S[1], C, &ldc, 1, 1);
  return lt_blas_loss(C, 16);
}
LT_BLAS_DERIVS(gemm_nt)

static LtT gemm_tn(LtT *A, LtT *B, LtT *C, LtT *S) {
  int m = 4, n = 3, k = 3, ld = 4;
  double one = 1.0;
  dgemm_("T", "N", &m, &n, &k, &S[0], A, &ld, B, &ld, &one, C, &ld, 1, 1);
  return lt_blas_loss(C, 12);
}
LT_BLAS_DERIVS(gemm_tn)

static LtT gemv_t(LtT *A, LtT *B, LtT *C, LtT *S) {
  int m = 4, n = 3, lda = 5, incx = 2, incy = 1;
  dgemv_("T", &m, &n, &S[0], A, &lda, B, &incx, &S[1], C, &incy);
  return lt_blas_loss(C, 3);
}
LT_BLAS_DERIVS(gemv_t)

static LtT ger(LtT *A, LtT *B, LtT *C, LtT *S) {
  int m = 3, n = 4, inc = 1, lda = 3;
  dger_(&m, &n, &S[0], B, &inc, C, &inc, A, &lda);
  return lt_blas_loss(A, 12);
}
LT_BLAS_DERIVS(ger)

static LtT level1(LtT *A, LtT *B, LtT *C, LtT *S) {
  int n = 5, one = 1, two = 2;
  double half = 0.5;
  daxpy_(&n, &S[0], A, &one, B, &two);
  dscal_(&n, &half, B, &one);
  dscal_(&n, &S[1], C, &one);
  return ddot_(&n, B, &two, C, &one) + dnrm2_(&n, A, &two) + lt_blas_loss(C, 5);
}
LT_BLAS_DERIVS(level1)

int main(void) {
  LT_BLAS_CASE(gemm_nt);
  LT_BLAS_CASE(gemm_tn);
  LT_BLAS_CASE(gemv_t);
  LT_BLAS_CASE(ger);
  LT_BLAS_CASE(level1);
  return lt_done();
}
