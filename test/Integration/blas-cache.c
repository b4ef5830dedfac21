// BLAS operands that the program overwrites before the reverse pass reads
// them: copied in the augmented forward pass, once per call, and read
// from the copy. A gemm whose A is zeroed afterwards; a matrix power in a
// loop (C_{k+1} = A C_k in two buffers that the loop overwrites in turn);
// a scratch matrix on the stack; dscal with an active alpha (x is
// overwritten by the call itself); a gemv whose y is read again after an
// axpy overwrote it. Gradients against central differences in reverse
// mode, forward mode at widths 1 and 4 (test/Inputs/blascheck.h).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#include "blascheck.h"
#include <cblas.h>

static LtT overwritten(LtT *A, LtT *B, LtT *C, LtT *S) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, 3, 3, 3, S[0], A, 3, B, 3, S[1], C, 3);
  LtT r = lt_blas_loss(C, 9);
  for (int i = 0; i < 9; i++) {
    A[i] = 0;
    B[i] = B[i] * B[i];
  }
  return r + lt_blas_loss(B, 9);
}
LT_BLAS_DERIVS(overwritten)

static LtT power(LtT *A, LtT *B, LtT *C, LtT *S) {
  LtT *cur = B, *next = C;
  for (int k = 0; k < 4; k++) {
    cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 2, 3, S[0], A, 3, cur, 2, 0.0,
                next, 2);
    LtT *t = cur;
    cur = next;
    next = t;
  }
  return lt_blas_loss(cur, 6);
}
LT_BLAS_DERIVS(power)

static LtT stack(LtT *A, LtT *B, LtT *C, LtT *S) {
  LtT T[9];
  for (int i = 0; i < 9; i++)
    T[i] = A[i] * S[1];
  cblas_dgemv(CblasColMajor, CblasTrans, 3, 3, 1.0, T, 3, B, 1, 0.0, C, 1);
  for (int i = 0; i < 9; i++)
    T[i] = 0;
  return lt_blas_loss(C, 3) + T[4];
}
LT_BLAS_DERIVS(stack)

static LtT scal_loop(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)C;
  for (int k = 0; k < 3; k++) {
    cblas_dscal(6, S[0], A, 1);
    cblas_daxpy(6, S[1], A, 1, B, 1);
  }
  return lt_blas_loss(A, 6) + lt_blas_loss(B, 6);
}
LT_BLAS_DERIVS(scal_loop)

static LtT gemv_y(LtT *A, LtT *B, LtT *C, LtT *S) {
  cblas_dgemv(CblasRowMajor, CblasNoTrans, 4, 3, S[0], A, 3, B, 1, S[1], C, 1);
  LtT r = cblas_ddot(4, C, 1, C, 1);
  cblas_daxpy(3, 2.0, C, 1, B, 1); /* overwrites x after the gemv */
  return r + lt_blas_loss(B, 3);
}
LT_BLAS_DERIVS(gemv_y)

int main(void) {
  LT_BLAS_CASE(overwritten);
  LT_BLAS_CASE(power);
  LT_BLAS_CASE(stack);
  LT_BLAS_CASE(scal_loop);
  LT_BLAS_CASE(gemv_y);
  return lt_done();
}
