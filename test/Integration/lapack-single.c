// Single precision LAPACK: spotrf_, spotrs_, sgetrf_, sgetrs_, sgesv_
// (Fortran, through lapack.h's LAPACK_spotrf macros) and LAPACKE_spotrf,
// LAPACKE_sgesv (row-major); their
// derivatives call the single-precision BLAS and LAPACK routines.
// Gradients against central differences (float steps and tolerances) in
// reverse mode, forward mode at widths 1 and 4 (test/Inputs/blascheck.h).
// REQUIRES: lapacke
// RUN: %ltclang -O0 %s -o %t.O0 %lapackelibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %lapackelibs -lm && %t.O2

#define LT_BLAS_T float
#include "blascheck.h"
#include <lapacke.h>

/* lapacke.h's lapack.h declares the Fortran symbols (LAPACK_spotrf adds
 * the hidden string length) */

/* S = A A^T + n I */
static void spd(const LtT *A, LtT *S, int n) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      LtT s = i == j ? n : 0;
      for (int k = 0; k < n; k++)
        s += A[i + k * n] * A[j + k * n];
      S[i + j * n] = s;
    }
}

/* M = A + 3 J (J the anti-diagonal): the factorisation pivots */
static void general(const LtT *A, LtT *M, int n) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      M[i + j * n] = A[i + j * n] + (i + j == n - 1 ? 3 : 0);
}

static LtT chol(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)S;
  lapack_int n = 3, one = 1, info;
  spd(A, C, n);
  LAPACK_spotrf("U", &n, C, &n, &info);
  LAPACK_spotrs("U", &n, &one, C, &n, B, &n, &info);
  return lt_blas_loss(B, 3) + lt_blas_loss(C, 9);
}
LT_BLAS_DERIVS(chol)

static LtT lu(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)S;
  lapack_int n = 3, one = 1, ipiv[3], info;
  general(A, C, n);
  LAPACK_sgetrf(&n, &n, C, &n, ipiv, &info);
  LAPACK_sgetrs("T", &n, &one, C, &n, ipiv, B, &n, &info);
  return lt_blas_loss(B, 3) + lt_blas_loss(C, 9);
}
LT_BLAS_DERIVS(lu)

static LtT gesv(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)S;
  lapack_int n = 3, two = 2, ipiv[3], info;
  general(A, C, n);
  LAPACK_sgesv(&n, &two, C, &n, ipiv, B, &n, &info);
  return lt_blas_loss(B, 6) + lt_blas_loss(C, 9);
}
LT_BLAS_DERIVS(gesv)

static LtT lapacke_row(LtT *A, LtT *B, LtT *C, LtT *S) {
  lapack_int ipiv[3];
  LtT T[9];
  spd(A, T, 3);
  T[0] += S[0];
  LAPACKE_spotrf(LAPACK_ROW_MAJOR, 'L', 3, T, 3);
  general(A, C, 3);
  LAPACKE_sgesv(LAPACK_ROW_MAJOR, 3, 1, C, 3, ipiv, B, 1);
  return lt_blas_loss(B, 3) + lt_blas_loss(C, 9) + lt_blas_loss(T, 9);
}
LT_BLAS_DERIVS(lapacke_row)

int main(void) {
  LT_BLAS_CASE(chol);
  LT_BLAS_CASE(lu);
  LT_BLAS_CASE(gesv);
  LT_BLAS_CASE(lapacke_row);
  return lt_done();
}
