// The LAPACKE wrappers of the factorisations and solves with rules
// (potrf, potrs, getrf, getrs, gesv), in row-major and column-major
// layout, both triangles, plain and transposed solves, leading dimensions
// larger than the matrices. Their derivatives call CBLAS and LAPACKE in
// the call's own layout. Gradients against central differences in
// reverse mode, forward mode at widths 1 and 4 (test/Inputs/blascheck.h).
// REQUIRES: lapacke
// RUN: %ltclang -O0 %s -o %t.O0 %lapackelibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %lapackelibs -lm && %t.O2

#include "blascheck.h"
#include <lapacke.h>

/* S = A A^T + n I, n x n, element (i, j) at i * rs + j * cs */
static void spd(const LtT *A, LtT *S, int n, int rs, int cs) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      LtT s = i == j ? n : 0;
      for (int k = 0; k < n; k++)
        s += A[i + k * n] * A[j + k * n];
      S[i * rs + j * cs] = s;
    }
}

/* M = A + 3 J (J the anti-diagonal): the factorisation pivots */
static void general(const LtT *A, LtT *M, int n, int rs, int cs) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      M[i * rs + j * cs] = A[i + j * n] + (i + j == n - 1 ? 3 : 0);
}

#define CHOL(name, layout, uplo, rs, cs, ld)                                                    \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                             \
    spd(A, C, 4, rs, cs);                                                                        \
    C[0] += S[0] * S[1];                                                                         \
    int info = LAPACKE_dpotrf(layout, uplo, 4, C, ld);                                           \
    /* B: 4 x 2, row-major ldb 3 or column-major ldb 5 */                                      \
    info += LAPACKE_dpotrs(layout, uplo, 4, 2, C, ld, B, layout == LAPACK_ROW_MAJOR ? 3 : 5);    \
    return lt_blas_loss(B, 12) + lt_blas_loss(C, 20) + info;                                     \
  }                                                                                              \
  LT_BLAS_DERIVS(name)
CHOL(chol_row_l, LAPACK_ROW_MAJOR, 'L', 5, 1, 5)
CHOL(chol_row_u, LAPACK_ROW_MAJOR, 'U', 5, 1, 5)
CHOL(chol_col_l, LAPACK_COL_MAJOR, 'L', 1, 5, 5)
CHOL(chol_col_u, LAPACK_COL_MAJOR, 'U', 1, 4, 4)

#define LU(name, layout, trans, rs, cs, ld)                                                     \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                             \
    lapack_int ipiv[4];                                                                          \
    general(A, C, 4, rs, cs);                                                                    \
    C[1] += S[0];                                                                                \
    int info = LAPACKE_dgetrf(layout, 4, 4, C, ld, ipiv);                                        \
    info += LAPACKE_dgetrs(layout, trans, 4, 2, C, ld, ipiv, B,                                  \
                           layout == LAPACK_ROW_MAJOR ? 3 : 5);                                  \
    return lt_blas_loss(B, 12) + lt_blas_loss(C, 20) + info;                                     \
  }                                                                                              \
  LT_BLAS_DERIVS(name)
LU(lu_row_n, LAPACK_ROW_MAJOR, 'N', 5, 1, 5)
LU(lu_row_t, LAPACK_ROW_MAJOR, 'T', 4, 1, 4)
LU(lu_col_n, LAPACK_COL_MAJOR, 'N', 1, 4, 4)
LU(lu_col_t, LAPACK_COL_MAJOR, 'T', 1, 5, 5)

#define GESV(name, layout, rs, cs, ld)                                                          \
  static LtT name(LtT *A, LtT *B, LtT *C, LtT *S) {                                             \
    lapack_int ipiv[3];                                                                          \
    general(A, C, 3, rs, cs);                                                                    \
    C[2] *= S[1];                                                                                \
    int info = LAPACKE_dgesv(layout, 3, 2, C, ld, ipiv, B, layout == LAPACK_ROW_MAJOR ? 2 : 4);  \
    return lt_blas_loss(B, 8) + lt_blas_loss(C, 12) + info;                                      \
  }                                                                                              \
  LT_BLAS_DERIVS(name)
GESV(gesv_row, LAPACK_ROW_MAJOR, 4, 1, 4)
GESV(gesv_col, LAPACK_COL_MAJOR, 1, 4, 4)

int main(void) {
  LT_BLAS_CASE(chol_row_l);
  LT_BLAS_CASE(chol_row_u);
  LT_BLAS_CASE(chol_col_l);
  LT_BLAS_CASE(chol_col_u);
  LT_BLAS_CASE(lu_row_n);
  LT_BLAS_CASE(lu_row_t);
  LT_BLAS_CASE(lu_col_n);
  LT_BLAS_CASE(lu_col_t);
  LT_BLAS_CASE(gesv_row);
  LT_BLAS_CASE(gesv_col);
  return lt_done();
}
