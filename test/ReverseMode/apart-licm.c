// The version of a plain-pointer gradient that runs when its pointers are
// apart (gen/version.c) differentiates a primal optimised as if they were
// restrict (prep/apart.c: the clone's pointer parameters become noalias
// and LICM runs). In C[i][j] += A[i][k] B[k][j] the load of A[i][k] then
// leaves the j loop, and the reverse j loop sums dA[i][k] in a register
// (a PHI from -0.0) instead of loading and storing it every iteration, as
// with restrict. The general version keeps the load in the loop (C may be
// A).
// Gradients: test/Integration/reverse-reductions.c (gemm apart and in
// place), test/Integration/stencil-gather.c.
// RUN: %ltclang -O2 -S -emit-llvm %s -o /dev/null -mllvm -print-after=leantape 2> %t.after
// RUN: FileCheck %s < %t.after
#include <leantape.h>

#define GEMM                                                                   \
  for (int i = 0; i < n; i++)                                                  \
    for (int k = 0; k < n; k++)                                                \
      for (int j = 0; j < n; j++)                                              \
        C[i * n + j] += A[i * n + k] * B[k * n + j];                           \
  double s = 0;                                                                \
  for (int i = 0; i < n * n; i++)                                              \
    s += C[i] * C[i];

__attribute__((noinline)) double gemm(const double *A, const double *B, double *C, int n) {
  GEMM
  return s;
}
void g1(double *A, double *dA, double *B, double *dB, double *C, double *dC, int n) {
  __enzyme_autodiff((void *)gemm, enzyme_dup, A, dA, enzyme_dup, B, dB, enzyme_dup, C, dC,
                    enzyme_const, n);
}

// CHECK-LABEL: define internal void @gemm.lt.grad(
// CHECK-NOT:     phi double [ -0.000000e+00
// CHECK:         ret void
// CHECK-LABEL: define internal void @gemm.lt.grad.{{[0-9]+}}(ptr noalias
// CHECK:         phi double [ -0.000000e+00
// CHECK:         ret void
