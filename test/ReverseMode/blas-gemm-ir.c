// The gradient of a cblas_dgemm is cblas_dgemm calls, with no loop of
// ours around them: dA += dC B (op(B)^T of a transposed B), dB += dC^T A
// (both as column-major calls of the row-major product), dC *= beta (0
// here: a helper of scal calls). Inputs the program leaves untouched are
// read again, not copied; with A zeroed after the call (restrict: B
// cannot alias it) A alone is copied, once, before the call, and the
// remark says so.
// REQUIRES: blas
// RUN: %ltclang -O0 %s -S -emit-llvm -o - | FileCheck %s
// RUN: %ltclang -O2 %s -S -emit-llvm -o - | FileCheck %s
// RUN: %ltclang -O2 %s -S -emit-llvm -o /dev/null -Rpass-analysis=leantape 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK

#include <cblas.h>
#include <leantape.h>

void mm(const double *A, const double *B, double *C, int n) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, A, n, B, n, 0.0, C, n);
}

void grad_mm(const double *A, double *dA, const double *B, double *dB, double *C, double *dC,
             int n) {
  __enzyme_autodiff((void *)mm, A, dA, B, dB, C, dC, enzyme_const, n);
}

void mm_over(double *restrict A, const double *restrict B, double *C, int n) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasTrans, n, n, n, 1.0, A, n, B, n, 0.0, C, n);
  for (int i = 0; i < n * n; i++)
    A[i] = 0;
}

void grad_mm_over(double *A, double *dA, const double *B, double *dB, double *C, double *dC,
                  int n) {
  __enzyme_autodiff((void *)mm_over, A, dA, B, dB, C, dC, enzyme_const, n);
}

// CHECK-LABEL: define internal void @mm.lt.grad(ptr %0, ptr %1, ptr %2, i32 %3, ptr %4, ptr %5, ptr %6)
// CHECK-NOT: malloc
// CHECK: call void @cblas_dgemm(i32 noundef 101, i32 noundef 111, i32 noundef 112,
// CHECK-NEXT: call void @cblas_dgemm(i32 102, i32 111, i32 112, i32 %3, i32 %3, i32 %3, double 1.000000e+00, ptr %0, i32 %3, ptr %6, i32 %3, double 1.000000e+00, ptr %5, i32 %3)
// CHECK-NEXT: call void @cblas_dgemm(i32 102, i32 111, i32 111, i32 %3, i32 %3, i32 %3, double 1.000000e+00, ptr %1, i32 %3, ptr %6, i32 %3, double 1.000000e+00, ptr %4, i32 %3)
// CHECK-NEXT: call double @lt.blas.mscal.dc.i32(i32 %3, i32 %3, double 0.000000e+00, ptr %6, i32 %3,
// CHECK-NEXT: ret void

// CHECK-LABEL: define internal void @mm_over.lt.grad(ptr %0, ptr %1, ptr %2, i32 %3, ptr %4, ptr %5, ptr %6)
// CHECK: [[BLOCK:%[0-9]+]] = {{(tail )?}}call ptr @malloc(
// CHECK-NEXT: call double @lt.blas.mcopy.dc.i32(i32 %3, i32 %3, double 0.000000e+00, ptr %0, i32 %3, ptr [[BLOCK]], i32 %3)
// CHECK-NOT: @lt.blas.mcopy
// CHECK: call void @cblas_dgemm(i32 noundef 101,
// CHECK-NOT: @lt.blas.mcopy
// CHECK: call void @cblas_dgemm(i32 102, i32 111, i32 112, i32 %3, i32 %3, i32 %3, double 1.000000e+00, ptr [[BLOCK]], i32
// CHECK: call void @free(ptr{{.*}} [[BLOCK]])

// REMARK: remark: derivative of 'mm' (combined mode): 0 bytes of values outside loops;
// REMARK: remark: derivative of 'mm_over' (combined mode): {{.*}}record of 'cblas_dgemm' (line 27): copies argument 8 (may be overwritten later);
