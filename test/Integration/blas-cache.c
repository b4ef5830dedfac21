// BLAS operands that the program overwrites before the reverse pass reads
// them: copied in the augmented forward pass, once per call, and read
// from the copy. A gemm whose A is zeroed afterwards; a matrix power in a
// loop (C_{k+1} = A C_k in two buffers that the loop overwrites in turn);
// a scratch matrix on the stack; dscal with an active alpha (x is
// overwritten by the call itself); a gemv whose y is read again after an
// axpy overwrote it. Gradients against central differences in reverse
// mode, forward mode at widths 1 and 4 (test/Inputs/blascheck.h). In split
// mode the caller may change memory between the halves: what the reverse
// half reads of the parameters is copied by the forward half (here the
// caller overwrites A and B in between).
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

/* split mode: __enzyme_augmentfwd, the caller overwrites A and B,
 * __enzyme_reverse with the adjoint of the result */
static void split_mode(void) {
  LtBlasPt p, q, d;
  lt_blas_init(&p);
  q = p;
  memset(&d, 0, sizeof d);
  void *tape = __enzyme_augmentfwd((void *)overwritten, enzyme_dup, q.a[0], d.a[0], enzyme_dup,
                                   q.a[1], d.a[1], enzyme_dup, q.a[2], d.a[2], enzyme_dup, q.a[3],
                                   d.a[3]);
  for (int i = 0; i < LT_N; i++)
    q.a[0][i] = q.a[1][i] = -7;
  __enzyme_reverse((void *)overwritten, enzyme_dup, q.a[0], d.a[0], enzyme_dup, q.a[1], d.a[1],
                   enzyme_dup, q.a[2], d.a[2], enzyme_dup, q.a[3], d.a[3], 1.0, tape);
  int bad = 0;
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < LT_N; i++) {
      LtBlasPt pp = p, pm = p;
      double h = 1e-6;
      pp.a[k][i] += h;
      pm.a[k][i] -= h;
      double fd = (lt_blas_eval(overwritten, &pp) - lt_blas_eval(overwritten, &pm)) / (2 * h);
      bad += lt_blas_cmp("split mode vs FD", "overwritten", k, i, d.a[k][i], fd);
    }
  lt_check("split mode: elements off", bad, 0, 0, 0);
}

int main(void) {
  split_mode();
  LT_BLAS_CASE(overwritten);
  LT_BLAS_CASE(power);
  LT_BLAS_CASE(stack);
  LT_BLAS_CASE(scal_loop);
  LT_BLAS_CASE(gemv_y);
  return lt_done();
}
