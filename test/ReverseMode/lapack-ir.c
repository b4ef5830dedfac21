// The reverse of dpotrf_ and dpotrs_ reads the factor and the solution
// as the calls leave them. Where nothing overwrites them afterwards
// (chol: restrict pointers, so dpotrs_ writing b cannot change A) R reads
// them again from memory: nothing is copied, and the tape holds only the
// calls' integers. Where the program overwrites the factor (chol_over:
// A zeroed at the end) A copies it once, right after dpotrf_ (the
// factor, not the original matrix), and the remark says so; dpotrs_'s
// reverse reads that copy too (the remark: "reads argument 4 (the
// factor) from the copy of 'dpotrf_'"), which R frees after dpotrf_'s
// reverse. The reverse of dpotrs_ is dpotrs_ with the same factor (then
// copies of the n x nrhs solution and its adjoint, the rule's own work);
// dpotrf_'s a helper that runs Murray's blocked algorithm: trsm, gemm,
// symm per block of columns, the symbolic formula (trmm, two trsm) on
// each diagonal block.
// REQUIRES: blas
// RUN: %ltclang -O0 %s -S -emit-llvm -o - | FileCheck %s
// RUN: %ltclang -O2 %s -S -emit-llvm -o - | FileCheck %s
// RUN: %ltclang -O2 %s -S -emit-llvm -o /dev/null -Rpass-analysis=leantape 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK

#include <leantape.h>

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, long l);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info, long l);

double chol(double *restrict A, double *restrict b, int n) {
  int info, one = 1;
  dpotrf_("L", &n, A, &n, &info, 1);
  dpotrs_("L", &n, &one, A, &n, b, &n, &info, 1);
  return b[0] + A[0];
}

void grad_chol(double *A, double *dA, double *b, double *db, int n) {
  __enzyme_autodiff((void *)chol, A, dA, b, db, enzyme_const, n);
}

double chol_over(double *restrict A, double *restrict b, int n) {
  int info, one = 1;
  dpotrf_("L", &n, A, &n, &info, 1);
  dpotrs_("L", &n, &one, A, &n, b, &n, &info, 1);
  double r = b[0] + A[0];
  for (int i = 0; i < n * n; i++)
    A[i] = 0;
  return r;
}

void grad_chol_over(double *A, double *dA, double *b, double *db, int n) {
  __enzyme_autodiff((void *)chol_over, A, dA, b, db, enzyme_const, n);
}

// CHECK-LABEL: define internal void @lt.lapack.cholrevl.df.i32(
// CHECK: call void @dtrsm_(ptr {{(nonnull )?}}@lt.blas.R, ptr {{(nonnull )?}}@lt.blas.L, ptr {{(nonnull )?}}@lt.blas.N, ptr {{(nonnull )?}}@lt.blas.N,
// CHECK: call void @dgemm_(
// CHECK: call void @dgemm_(
// CHECK: call void @dtrmm_(
// CHECK: call void @dtrsm_(
// CHECK: call void @dtrsm_(
// CHECK: call void @dgemm_(
// CHECK: call void @dsymm_(
// CHECK: br i1 %{{[0-9]+}}, label %{{[0-9]+}}, label %{{[0-9]+}}

// CHECK-LABEL: define internal void @chol.lt.grad(
// CHECK-SAME: ptr [[A:%[0-9]+]], ptr [[B:%[0-9]+]],
// CHECK-NOT: @malloc
// CHECK-NOT: @lt.blas.mcopy
// CHECK: call void @dpotrf_(
// CHECK-NOT: @malloc
// CHECK-NOT: @lt.blas.mcopy
// CHECK: call void @dpotrs_(
// CHECK-NOT: @malloc
// CHECK-NOT: @lt.blas.mcopy
// CHECK: call void @dpotrs_(ptr nonnull @lt.blas.L, ptr nonnull %{{[0-9]+}}, ptr nonnull %{{[0-9]+}}, ptr [[A]],
// CHECK: call {{.*}}@lt.blas.mcopy.df.i32({{.*}}, ptr [[B]],
// CHECK: call void @lt.lapack.cholrevl.df.i32(i32 %2, ptr [[A]], i32 %2, ptr nonnull %3, i32 %2)
// CHECK: ret void

// CHECK-LABEL: define internal void @chol_over.lt.grad(
// CHECK-SAME: ptr [[A:%[0-9]+]],
// CHECK: [[BLOCK:%[0-9]+]] = {{(tail )?}}call ptr @malloc(
// CHECK-NOT: @lt.blas.mcopy
// CHECK: call void @dpotrf_(
// CHECK-NEXT: call {{.*}}@lt.blas.mcopy.df.i32(i32 %2, i32 %2, double 0.000000e+00, ptr [[A]], i32 %2, ptr [[BLOCK]], i32 %2)
// CHECK-NOT: @malloc
// CHECK-NOT: @lt.blas.mcopy
// CHECK: call void @dpotrs_(
// CHECK-NOT: @lt.blas.mcopy
// CHECK: call void @dpotrs_(ptr nonnull @lt.blas.L, ptr nonnull %{{[0-9]+}}, ptr nonnull %{{[0-9]+}}, ptr [[BLOCK]],
// CHECK: call void @lt.lapack.cholrevl.df.i32(i32 %2, ptr [[BLOCK]],
// CHECK-NEXT: call void @free(ptr [[BLOCK]])
// CHECK: ret void

// REMARK: remark: derivative of 'chol' (combined mode): {{.*}}record of 'dpotrs_' (line 30), record of 'dpotrf_' (line 29);
// REMARK: remark: derivative of 'chol_over' (combined mode): {{.*}}record of 'dpotrs_' (line 41): reads argument 4 (the factor) from the copy of 'dpotrf_', record of 'dpotrf_' (line 40): copies argument 3 (the factor, after the call: may be overwritten later);
