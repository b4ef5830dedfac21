// cblas_dgemm, C = alpha op(A) op(B) + beta C, in every layout and
// transpose combination (row- and column-major x N/T x N/T, padded
// leading dimensions), with alpha and beta active (read from S) and
// constant (beta 0: C only written; beta 1), gradients of a loss of C
// against central differences in reverse mode, and forward mode at
// widths 1 and 4 (test/Inputs/blascheck.h).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#include "blascheck.h"
#include <cblas.h>

#define GEMM(name, lay, ta, tb)                                                                    \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                                \
    cblas_dgemm(lay, ta, tb, 3, 4, 2, S[0], A, 5, B, 5, S[1], C, 5);                               \
    return lt_blas_loss(C, 20);                                                                    \
  }                                                                                                \
  LT_BLAS_DERIVS(name)

GEMM(gemm_col_nn, CblasColMajor, CblasNoTrans, CblasNoTrans)
GEMM(gemm_col_nt, CblasColMajor, CblasNoTrans, CblasTrans)
GEMM(gemm_col_tn, CblasColMajor, CblasTrans, CblasNoTrans)
GEMM(gemm_col_tt, CblasColMajor, CblasTrans, CblasConjTrans)
GEMM(gemm_row_nn, CblasRowMajor, CblasNoTrans, CblasNoTrans)
GEMM(gemm_row_nt, CblasRowMajor, CblasNoTrans, CblasTrans)
GEMM(gemm_row_tn, CblasRowMajor, CblasTrans, CblasNoTrans)
GEMM(gemm_row_tt, CblasRowMajor, CblasTrans, CblasTrans)

/* constant alpha, beta 0: C is only written */
static LtT gemm_beta0(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)S;
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, 4, 3, 4, 0.5, A, 4, B, 4, 0.0, C, 3);
  return lt_blas_loss(C, 12);
}
LT_BLAS_DERIVS(gemm_beta0)

/* beta 1, two products into one C, the second reading the first's result */
static LtT gemm_chain(LtT *A, LtT *B, LtT *C, LtT *S) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 3, 3, 1.0, A, 3, B, 3, 1.0, C, 3);
  cblas_dgemm(CblasColMajor, CblasTrans, CblasNoTrans, 3, 3, 3, S[0], C, 3, A, 3, 0.0, B + 16, 3);
  return lt_blas_loss(B + 16, 9) + S[1] * C[4];
}
LT_BLAS_DERIVS(gemm_chain)

int main(void) {
  LT_BLAS_CASE(gemm_col_nn);
  LT_BLAS_CASE(gemm_col_nt);
  LT_BLAS_CASE(gemm_col_tn);
  LT_BLAS_CASE(gemm_col_tt);
  LT_BLAS_CASE(gemm_row_nn);
  LT_BLAS_CASE(gemm_row_nt);
  LT_BLAS_CASE(gemm_row_tn);
  LT_BLAS_CASE(gemm_row_tt);
  LT_BLAS_CASE(gemm_beta0);
  LT_BLAS_CASE(gemm_chain);
  return lt_done();
}
