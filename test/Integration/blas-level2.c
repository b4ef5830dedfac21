// cblas_dgemv (y = alpha op(A) x + beta y) in both layouts and
// transposes, with unit, wider and negative strides, and cblas_dger
// (A += alpha x y^T) in both layouts; alpha and beta active (read from S)
// or constant. Gradients against central differences in reverse mode,
// forward mode at widths 1 and 4 (test/Inputs/blascheck.h).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#include "blascheck.h"
#include <cblas.h>

#define GEMV(name, lay, ta, incx, incy)                                                            \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                                \
    cblas_dgemv(lay, ta, 3, 4, S[0], A, 5, B, incx, S[1], C, incy);                                \
    return lt_blas_loss(C, 12);                                                                    \
  }                                                                                                \
  LT_BLAS_DERIVS(name)

GEMV(gemv_col_n, CblasColMajor, CblasNoTrans, 1, 1)
GEMV(gemv_col_t, CblasColMajor, CblasTrans, 2, 3)
GEMV(gemv_row_n, CblasRowMajor, CblasNoTrans, 1, -2)
GEMV(gemv_row_t, CblasRowMajor, CblasTrans, -3, 1)

/* constant alpha, beta 0 (y only written), y read afterwards by a dot */
static LtT gemv_beta0(LtT *A, LtT *B, LtT *C, LtT *S) {
  cblas_dgemv(CblasColMajor, CblasNoTrans, 4, 3, 2.0, A, 4, B, 1, 0.0, C, 1);
  return cblas_ddot(4, C, 1, S, 1) + lt_blas_loss(C, 4);
}
LT_BLAS_DERIVS(gemv_beta0)

#define GER(name, lay, incx, incy)                                                                 \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                                \
    cblas_dger(lay, 3, 4, S[0], B, incx, C, incy, A, 6);                                           \
    return lt_blas_loss(A, 24);                                                                    \
  }                                                                                                \
  LT_BLAS_DERIVS(name)

GER(ger_col, CblasColMajor, 1, 2)
GER(ger_row, CblasRowMajor, 3, -1)

int main(void) {
  LT_BLAS_CASE(gemv_col_n);
  LT_BLAS_CASE(gemv_col_t);
  LT_BLAS_CASE(gemv_row_n);
  LT_BLAS_CASE(gemv_row_t);
  LT_BLAS_CASE(gemv_beta0);
  LT_BLAS_CASE(ger_col);
  LT_BLAS_CASE(ger_row);
  return lt_done();
}
