// A gradient over plain pointers gets a second version that takes them
// apart, chosen at run time (gen/version.c): gemm_plain's gradient is a
// dispatcher that runs the run-time test twice (the primal pointers, then
// the shadows in their places) and calls the apart version, whose pointer
// parameters are noalias, or the general one. Not versioned: a function
// whose pointers are all restrict (nothing to gain), one that reads
// through pointers loaded from memory (no test can bound them), and any
// gradient at -O0 (nothing vectorises). Gradients, with overlapping
// arguments: test/Integration/versioned-plain-pointers.c.
// RUN: %ltclang -O2 -S -emit-llvm %s -o %t.ll -Rpass-analysis=leantape 2> %t.rem
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=NOVER < %t.ll
// RUN: FileCheck %s --check-prefix=REMARK < %t.rem
// RUN: %ltclang -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=O0
#include <leantape.h>

#define GEMM_BODY                                                              \
  for (int i = 0; i < n; i++)                                                  \
    for (int j = 0; j < n; j++)                                                \
      C[i * n + j] = 0;                                                        \
  for (int i = 0; i < n; i++)                                                  \
    for (int k = 0; k < n; k++)                                                \
      for (int j = 0; j < n; j++)                                              \
        C[i * n + j] += A[i * n + k] * B[k * n + j];                           \
  double s = 0;                                                                \
  for (int i = 0; i < n * n; i++)                                              \
    s += C[i] * C[i];                                                          \
  return s;

double gemm_plain(const double *A, const double *B, double *C, int n) { GEMM_BODY }
double gemm_restrict(const double *restrict A, const double *restrict B,
                     double *restrict C, int n) {
  GEMM_BODY
}
double rows(double **r, const double *w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += r[i][0] * r[i][1] * w[i];
  return s;
}

void g1(const double *A, double *dA, const double *B, double *dB, double *C, double *dC, int n) {
  __enzyme_autodiff((void *)gemm_plain, enzyme_dup, A, dA, enzyme_dup, B, dB, enzyme_dup, C, dC,
                    enzyme_const, n);
}
void g2(const double *A, double *dA, const double *B, double *dB, double *C, double *dC, int n) {
  __enzyme_autodiff((void *)gemm_restrict, enzyme_dup, A, dA, enzyme_dup, B, dB, enzyme_dup, C,
                    dC, enzyme_const, n);
}
void g3(double **r, double **dr, const double *w, int n) {
  __enzyme_autodiff((void *)rows, enzyme_dup, r, dr, enzyme_const, w, enzyme_const, n);
}

// CHECK-DAG: define internal i1 @gemm_plain.lt.apart(ptr {{[^,]*}}, ptr {{[^,]*}}, ptr {{[^,]*}}, i32
// CHECK-DAG: define internal void @gemm_plain.lt.grad.{{[0-9]+}}(ptr noalias %0, ptr noalias %1, ptr noalias %2, i32 %3, ptr noalias %4, ptr noalias %5, ptr noalias %6, double %7)
// CHECK-LABEL: define internal void @gemm_plain.lt.grad.v(
// CHECK-NEXT: call i1 @gemm_plain.lt.apart(ptr %0, ptr %1, ptr %2, i32 %3)
// CHECK-NEXT: call i1 @gemm_plain.lt.apart(ptr %4, ptr %5, ptr %6, i32 %3)
// CHECK-NEXT: and i1
// CHECK-NEXT: br i1
// CHECK: call void @gemm_plain.lt.grad.{{[0-9]+}}(ptr %0, ptr %1, ptr %2, i32 %3, ptr %4, ptr %5, ptr %6, double %7)
// CHECK: call void @gemm_plain.lt.grad(ptr %0, ptr %1, ptr %2, i32 %3, ptr %4, ptr %5, ptr %6, double %7)

// NOVER-NOT: @gemm_restrict.lt.apart
// NOVER-NOT: @rows.lt.apart

// REMARK: remark: the gradient of 'gemm_plain' has a second version for pointer arguments apart (and their shadows), chosen at run time
// REMARK-NOT: second version

// O0-NOT: lt.apart
