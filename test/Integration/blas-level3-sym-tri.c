// Symmetric and triangular level 3: cblas_dsymm (C = alpha S B + beta C
// or alpha B S + beta C), cblas_dsyrk (C = alpha op(A) op(A)^T + beta C on
// one triangle), cblas_dtrmm (B = alpha op(T) B, or from the right) and
// cblas_dtrsm (B = alpha op(T)^-1 B, or from the right), for both
// layouts, sides, triangles, transposes and diagonals; the Fortran dsymm_,
// dsyrk_, dtrmm_, dtrsm_. Only the referenced triangle gets adjoints.
// trsm's rule needs the solution: read again, or solved again from a copy
// when the program overwrites it (always with an active alpha). Gradients
// against central differences in reverse mode, forward mode at widths 1
// and 4 (test/Inputs/blascheck.h).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#include "blascheck.h"
#include <cblas.h>

void dsymm_(const char *side, const char *uplo, const int *m, const int *n, const double *al,
            const double *a, const int *lda, const double *b, const int *ldb, const double *be,
            double *c, const int *ldc, long l1, long l2);
void dsyrk_(const char *uplo, const char *t, const int *n, const int *k, const double *al,
            const double *a, const int *lda, const double *be, double *c, const int *ldc);
void dtrmm_(const char *side, const char *uplo, const char *t, const char *diag, const int *m,
            const int *n, const double *al, const double *a, const int *lda, double *b,
            const int *ldb, long l1, long l2, long l3, long l4);
void dtrsm_(const char *side, const char *uplo, const char *t, const char *diag, const int *m,
            const int *n, const double *al, const double *a, const int *lda, double *b,
            const int *ldb);

/* m = 3, n = 4: S is 3 x 3 on the left, 4 x 4 on the right */
#define SYMM(name, lay, side, uplo)                                                                \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                                \
    cblas_dsymm(lay, side, uplo, 3, 4, S[0], A, 5, B, 5, S[1], C, 5);                              \
    return lt_blas_loss(C, 20) + 0.5 * lt_blas_loss(A, 25);                                        \
  }                                                                                                \
  LT_BLAS_DERIVS(name)

SYMM(symm_col_left_up, CblasColMajor, CblasLeft, CblasUpper)
SYMM(symm_col_right_lo, CblasColMajor, CblasRight, CblasLower)
SYMM(symm_row_left_lo, CblasRowMajor, CblasLeft, CblasLower)
SYMM(symm_row_right_up, CblasRowMajor, CblasRight, CblasUpper)

#define SYRK(name, lay, uplo, t)                                                                   \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                                \
    (void)B;                                                                                       \
    cblas_dsyrk(lay, uplo, t, 4, 3, S[0], A, 5, S[1], C, 5);                                       \
    return lt_blas_loss(C, 20);                                                                    \
  }                                                                                                \
  LT_BLAS_DERIVS(name)

SYRK(syrk_col_up_n, CblasColMajor, CblasUpper, CblasNoTrans)
SYRK(syrk_col_lo_t, CblasColMajor, CblasLower, CblasTrans)
SYRK(syrk_row_up_t, CblasRowMajor, CblasUpper, CblasTrans)
SYRK(syrk_row_lo_n, CblasRowMajor, CblasLower, CblasNoTrans)

/* the triangular matrices get a dominant diagonal first (5 x 5 storage) */
#define TRXM(name, fn, lay, side, uplo, t, diag)                                                   \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                                \
    (void)C;                                                                                       \
    for (int i = 0; i < 5; i++)                                                                    \
      A[i * 6] += 2;                                                                               \
    fn(lay, side, uplo, t, diag, 3, 4, S[0], A, 5, B, 5);                                          \
    return lt_blas_loss(B, 20) + 0.5 * lt_blas_loss(A, 25);                                        \
  }                                                                                                \
  LT_BLAS_DERIVS(name)

TRXM(trmm_col_l_up_n, cblas_dtrmm, CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit)
TRXM(trmm_col_r_lo_t_u, cblas_dtrmm, CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasUnit)
TRXM(trmm_row_l_lo_t, cblas_dtrmm, CblasRowMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit)
TRXM(trmm_row_r_up_n_u, cblas_dtrmm, CblasRowMajor, CblasRight, CblasUpper, CblasNoTrans, CblasUnit)
TRXM(trsm_col_l_up_n, cblas_dtrsm, CblasColMajor, CblasLeft, CblasUpper, CblasNoTrans, CblasNonUnit)
TRXM(trsm_col_r_lo_t_u, cblas_dtrsm, CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasUnit)
TRXM(trsm_row_l_lo_t, cblas_dtrsm, CblasRowMajor, CblasLeft, CblasLower, CblasTrans, CblasNonUnit)
TRXM(trsm_row_r_up_n_u, cblas_dtrsm, CblasRowMajor, CblasRight, CblasUpper, CblasNoTrans, CblasUnit)

/* a constant alpha, the solution read again (nothing overwrites it) */
static LtT trsm_const(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)C, (void)S;
  for (int i = 0; i < 4; i++)
    A[i * 5] += 2;
  cblas_dtrsm(CblasColMajor, CblasLeft, CblasLower, CblasNoTrans, CblasNonUnit, 4, 3, 0.5, A, 4,
              B, 4);
  return lt_blas_loss(B, 12);
}
LT_BLAS_DERIVS(trsm_const)

static LtT fortran(LtT *A, LtT *B, LtT *C, LtT *S) {
  int m = 3, n = 3, k = 2, ld = 4;
  double one = 1.0;
  for (int i = 0; i < 4; i++)
    A[i * 5] += 2;
  dsymm_("R", "U", &m, &n, &S[0], A, &ld, B, &ld, &S[1], C, &ld, 1, 1);
  dsyrk_("L", "T", &n, &k, &one, B + 20, &ld, &S[1], C, &ld);
  dtrmm_("L", "U", "T", "N", &m, &n, &S[0], A, &ld, C, &ld, 1, 1, 1, 1);
  dtrsm_("R", "L", "N", "U", &m, &n, &one, A, &ld, C, &ld);
  return lt_blas_loss(C, 12);
}
LT_BLAS_DERIVS(fortran)

int main(void) {
  LT_BLAS_CASE(symm_col_left_up);
  LT_BLAS_CASE(symm_col_right_lo);
  LT_BLAS_CASE(symm_row_left_lo);
  LT_BLAS_CASE(symm_row_right_up);
  LT_BLAS_CASE(syrk_col_up_n);
  LT_BLAS_CASE(syrk_col_lo_t);
  LT_BLAS_CASE(syrk_row_up_t);
  LT_BLAS_CASE(syrk_row_lo_n);
  LT_BLAS_CASE(trmm_col_l_up_n);
  LT_BLAS_CASE(trmm_col_r_lo_t_u);
  LT_BLAS_CASE(trmm_row_l_lo_t);
  LT_BLAS_CASE(trmm_row_r_up_n_u);
  LT_BLAS_CASE(trsm_col_l_up_n);
  LT_BLAS_CASE(trsm_col_r_lo_t_u);
  LT_BLAS_CASE(trsm_row_l_lo_t);
  LT_BLAS_CASE(trsm_row_r_up_n_u);
  LT_BLAS_CASE(trsm_const);
  LT_BLAS_CASE(fortran);
  return lt_done();
}
