// The reverse of an accumulation C[i][j] += A[i][k] B[k][j] (a store of
// the sum of a load of the same address) leaves dC as it is: it reads
// dC[i][j] and adds to dA and dB. Built naively it reads dC, stores 0,
// and adds the value back; the cleanup after the gradient is built
// (derive.c: EarlyCSE over MemorySSA, DSE) sees through the other
// shadows' stores (alias scopes) and folds the three away, so the
// reverse j loop loads dC, B and dB and stores only dB, as a
// hand-written gradient does (gemm_sq_64: 3.6 -> 2.7 times its primal).
// Gradients: test/Integration/reverse-reductions.c.
// RUN: %ltclang -O2 -S -emit-llvm %s -o /dev/null -mllvm -print-after=leantape 2> %t.after
// RUN: FileCheck %s < %t.after
#include <leantape.h>

__attribute__((noinline)) double gemm_acc(double *restrict C, const double *restrict A,
                                          const double *restrict B, int n) {
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += C[i] * C[i];
  return s;
}
void g(double *C, double *dC, double *A, double *dA, double *B, double *dB, int n) {
  __enzyme_autodiff((void *)gemm_acc, enzyme_dup, C, dC, enzyme_dup, A, dA, enzyme_dup, B, dB,
                    enzyme_const, n);
}

// Nothing in the gradient stores 0 into a shadow: the only zero would be
// dC[i][j]'s, taken back at once (found here before the cleanup did).
// CHECK-LABEL: define internal void @gemm_acc.lt.grad(
// CHECK-NOT:     store double 0.000000e+00
// CHECK:         fmul double
// CHECK-NOT:     store double 0.000000e+00
// CHECK:         ret void
