// Level 1 CBLAS in double precision: ddot, daxpy, dscal, dcopy, dswap,
// dnrm2 and dasum, with unit, wider and negative strides, alpha active
// (read from S) or constant; dscal with an active alpha needs the old x,
// which the call itself overwrites. Gradients against central differences
// in reverse mode, forward mode at widths 1 and 4 (test/Inputs/blascheck.h).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#include "blascheck.h"
#include <cblas.h>

static LtT dot(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)C, (void)S;
  LtT r = cblas_ddot(5, A, 2, B, -1);
  return r * r + cblas_ddot(3, A + 20, 1, A + 30, 1);
}
LT_BLAS_DERIVS(dot)

static LtT axpy(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)C;
  cblas_daxpy(6, S[0], A, 1, B, 2);
  cblas_daxpy(4, -0.5, A + 10, -1, B + 20, 1);
  return lt_blas_loss(B, 24);
}
LT_BLAS_DERIVS(axpy)

static LtT scal(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)B, (void)C;
  cblas_dscal(7, S[0], A, 2);
  cblas_dscal(3, 3.0, A + 20, 1);
  return lt_blas_loss(A, 24);
}
LT_BLAS_DERIVS(scal)

static LtT copy(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)S;
  cblas_dcopy(5, A, 1, C, 2);
  cblas_dcopy(4, B, 3, C + 1, -2); /* C[1], C[3], ... get B's elements reversed */
  return lt_blas_loss(C, 12);
}
LT_BLAS_DERIVS(copy)

static LtT swap(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)C, (void)S;
  cblas_dswap(5, A, 1, B, 2);
  return lt_blas_loss(A, 8) + 2 * lt_blas_loss(B, 12);
}
LT_BLAS_DERIVS(swap)

static LtT nrm2(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)B, (void)C;
  return S[1] * cblas_dnrm2(6, A, 2) + cblas_dnrm2(4, A + 20, 1);
}
LT_BLAS_DERIVS(nrm2)

static LtT asum(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)C;
  LtT s = cblas_dasum(7, A, 1) + cblas_dasum(3, B, 2);
  return s * s * S[1];
}
LT_BLAS_DERIVS(asum)

int main(void) {
  LT_BLAS_CASE(dot);
  LT_BLAS_CASE(axpy);
  LT_BLAS_CASE(scal);
  LT_BLAS_CASE(copy);
  LT_BLAS_CASE(swap);
  LT_BLAS_CASE(nrm2);
  LT_BLAS_CASE(asum);
  return lt_done();
}
