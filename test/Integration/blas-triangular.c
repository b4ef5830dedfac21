// Symmetric and triangular level 2: cblas_dsymv (y = alpha S x + beta y,
// S from one triangle), cblas_dtrmv (x = op(T) x) and cblas_dtrsv
// (x = op(T)^-1 x) for both layouts, triangles, transposes and diagonals
// (unit: not part of T), with strides; the Fortran dsymv_, dtrmv_,
// dtrsv_. Only the referenced triangle gets adjoints (the other is data
// the loss reads too). trsv's rule needs the solution: read again, or
// solved again from a copy when the program overwrites it. Gradients
// against central differences in reverse mode, forward mode at widths 1
// and 4 (test/Inputs/blascheck.h).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#include "blascheck.h"
#include <cblas.h>

void dsymv_(const char *uplo, const int *n, const double *al, const double *a, const int *lda,
            const double *x, const int *incx, const double *be, double *y, const int *incy,
            long luplo);
void dtrmv_(const char *uplo, const char *t, const char *diag, const int *n, const double *a,
            const int *lda, double *x, const int *incx, long l1, long l2, long l3);
void dtrsv_(const char *uplo, const char *t, const char *diag, const int *n, const double *a,
            const int *lda, double *x, const int *incx);

#define SYMV(name, lay, uplo, incx, incy)                                                          \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                                \
    cblas_dsymv(lay, uplo, 4, S[0], A, 5, B, incx, S[1], C, incy);                                 \
    return lt_blas_loss(C, 12) + 0.5 * lt_blas_loss(A, 20);                                        \
  }                                                                                                \
  LT_BLAS_DERIVS(name)

SYMV(symv_col_up, CblasColMajor, CblasUpper, 1, 2)
SYMV(symv_row_lo, CblasRowMajor, CblasLower, -2, 1)

/* the triangular solves get a dominant diagonal first */
#define TRXV(name, fn, lay, uplo, t, diag, incx)                                                   \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                                \
    (void)C, (void)S;                                                                              \
    for (int i = 0; i < 4; i++)                                                                    \
      A[i * 6] += 2;                                                                               \
    fn(lay, uplo, t, diag, 4, A, 5, B, incx);                                                      \
    return lt_blas_loss(B, 12) + 0.5 * lt_blas_loss(A, 20);                                        \
  }                                                                                                \
  LT_BLAS_DERIVS(name)

TRXV(trmv_col_up_n, cblas_dtrmv, CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, 1)
TRXV(trmv_col_lo_t_unit, cblas_dtrmv, CblasColMajor, CblasLower, CblasTrans, CblasUnit, 2)
TRXV(trmv_row_up_t, cblas_dtrmv, CblasRowMajor, CblasUpper, CblasTrans, CblasNonUnit, -1)
TRXV(trmv_row_lo_n_unit, cblas_dtrmv, CblasRowMajor, CblasLower, CblasNoTrans, CblasUnit, 3)
TRXV(trsv_col_up_n, cblas_dtrsv, CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, 1)
TRXV(trsv_col_lo_t_unit, cblas_dtrsv, CblasColMajor, CblasLower, CblasTrans, CblasUnit, 2)
TRXV(trsv_row_up_t, cblas_dtrsv, CblasRowMajor, CblasUpper, CblasTrans, CblasNonUnit, -1)
TRXV(trsv_row_lo_n_unit, cblas_dtrsv, CblasRowMajor, CblasLower, CblasNoTrans, CblasUnit, 3)

/* the solution overwritten after the call: solved again from a copy */
static LtT trsv_overwritten(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)S;
  for (int i = 0; i < 4; i++)
    A[i * 5] += 2;
  cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, 4, A, 4, B, 1);
  LtT r = lt_blas_loss(B, 4);
  cblas_dcopy(4, C, 1, B, 1);
  return r + lt_blas_loss(B, 4);
}
LT_BLAS_DERIVS(trsv_overwritten)

static LtT fortran(LtT *A, LtT *B, LtT *C, LtT *S) {
  int n = 4, lda = 4, one = 1, two = 2;
  for (int i = 0; i < 4; i++)
    A[i * 5] += 2;
  dsymv_("L", &n, &S[0], A, &lda, B, &one, &S[1], C, &two, 1);
  dtrmv_("U", "T", "N", &n, A, &lda, C, &two, 1, 1, 1);
  dtrsv_("L", "N", "U", &n, A, &lda, C, &two);
  return lt_blas_loss(C, 8);
}
LT_BLAS_DERIVS(fortran)

int main(void) {
  LT_BLAS_CASE(symv_col_up);
  LT_BLAS_CASE(symv_row_lo);
  LT_BLAS_CASE(trmv_col_up_n);
  LT_BLAS_CASE(trmv_col_lo_t_unit);
  LT_BLAS_CASE(trmv_row_up_t);
  LT_BLAS_CASE(trmv_row_lo_n_unit);
  LT_BLAS_CASE(trsv_col_up_n);
  LT_BLAS_CASE(trsv_col_lo_t_unit);
  LT_BLAS_CASE(trsv_row_up_t);
  LT_BLAS_CASE(trsv_row_lo_n_unit);
  LT_BLAS_CASE(trsv_overwritten);
  LT_BLAS_CASE(fortran);
  return lt_done();
}
