// At -O0 the stores of an in-place Cholesky factorisation stay in its
// loops, and the loads of the factor are re-read through the undo log
// (gen/undo.c) instead of taped. The log's entries for the stores of the
// triangular nests (k < j < i, k < i) are reserved before the nest, from
// the nest's exact count of iterations (summed over the enclosing
// counters, gen/loopfwd.c), one lt.undo.reserve per loop with logged
// stores; only the store of the outer loop (the square root, n entries)
// is counted in the log allocated at entry. Before, the entry allocated
// the product of the largest trip counts, n^3 entries for n^3 / 6 stores.
// The sizes are checked at run time in
// Integration/inplace-factorizations.c.
// RUN: %ltclang -O0 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
#include <leantape.h>
#include <math.h>

double chol(double *A, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i * n + j] -= A[i * n + k] * A[j * n + k];
      A[i * n + j] /= A[j * n + j];
    }
    for (int k = 0; k < i; k++)
      A[i * n + i] -= A[i * n + k] * A[i * n + k];
    A[i * n + i] = sqrt(A[i * n + i]);
  }
  return A[n * n - 1];
}

void grad_chol(double *A, double *dA, int n) {
  __enzyme_autodiff((void *)chol, enzyme_dup, A, dA, enzyme_const, n);
}

// CHECK-LABEL: define internal void @lt.undo.reserve(
// CHECK:         [[NEED:%.+]] = add i64
// CHECK:         icmp ugt i64 [[NEED]],
// CHECK:         call ptr @realloc(

// CHECK-LABEL: define internal {{.*}}@chol.lt.grad(
// CHECK:         call void @lt.undo.begin(
// CHECK:         call void @lt.undo.reserve(
// CHECK:         call void @lt.undo.reserve(
// CHECK:         call void @lt.undo.reserve(
// CHECK-NOT:     call void @lt.undo.reserve(
// CHECK:         call void @lt.undo.save(
// CHECK-NOT:     call void @lt.undo.reserve(
// CHECK:       }
