// Single precision: cblas_sgemm, sgemv, sger, sdot, saxpy, sscal, snrm2,
// sasum and the Fortran sgemm_, with float scalars and float results.
// Gradients against central differences (float steps and tolerances) in
// reverse mode, forward mode at widths 1 and 4 (test/Inputs/blascheck.h).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#define LT_BLAS_T float
#include "blascheck.h"
#include <cblas.h>

void sgemm_(const char *ta, const char *tb, const int *m, const int *n, const int *k,
            const float *al, const float *a, const int *lda, const float *b, const int *ldb,
            const float *be, float *c, const int *ldc, long lta, long ltb);

static LtT gemm(LtT *A, LtT *B, LtT *C, LtT *S) {
  cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, 3, 4, 2, S[0], A, 3, B, 4, S[1], C, 4);
  return lt_blas_loss(C, 12);
}
LT_BLAS_DERIVS(gemm)

static LtT gemm_f(LtT *A, LtT *B, LtT *C, LtT *S) {
  int m = 3, n = 3, k = 4, ld = 4, ldc = 3;
  sgemm_("T", "T", &m, &n, &k, &S[0], A, &ld, B, &ldc, &S[1], C, &ldc, 1, 1);
  return lt_blas_loss(C, 9);
}
LT_BLAS_DERIVS(gemm_f)

static LtT gemv_ger(LtT *A, LtT *B, LtT *C, LtT *S) {
  cblas_sgemv(CblasColMajor, CblasTrans, 4, 3, S[0], A, 4, B, 1, S[1], C, 1);
  cblas_sger(CblasRowMajor, 3, 2, 0.5f, C, 1, B + 10, 2, A + 20, 2);
  return lt_blas_loss(C, 3) + lt_blas_loss(A + 20, 6);
}
LT_BLAS_DERIVS(gemv_ger)

static LtT level1(LtT *A, LtT *B, LtT *C, LtT *S) {
  cblas_saxpy(5, S[0], A, 1, B, 1);
  cblas_sscal(5, S[1], B, 1);
  LtT d = cblas_sdot(5, B, 1, C, 2);
  return d * d + cblas_snrm2(4, A + 10, 1) + cblas_sasum(4, C + 20, 1);
}
LT_BLAS_DERIVS(level1)

int main(void) {
  LT_BLAS_CASE(gemm);
  LT_BLAS_CASE(gemm_f);
  LT_BLAS_CASE(gemv_ger);
  LT_BLAS_CASE(level1);
  return lt_done();
}
