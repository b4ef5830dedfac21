// At -O0 the stores of an in-place Cholesky factorisation stay in its
// loops, and the loads of the factor are re-read through the undo log
// (gen/undo.c) instead of taped. The accumulators of the k loops (A[i][j]
// and A[i][i], which stay put in them) are logged once per run of their
// loop (run entries, gen/undoblock.c) when the loads there stay clear of
// them, as they do here. The log's entries for the triangular nest k < j
// < i, the division stores of the j loop and one run entry per iteration
// of it, are reserved before the nest, from the nest's exact count of
// iterations (summed over the enclosing counters, gen/loopfwd.c): one
// lt.undo.reserve. The diagonal's run entries and the square root's n
// entries (the outer loop's) are counted in the log allocated at entry,
// from the arena (gen/arena.c) under __enzyme_autodiff.
// Before the nest's reservation, the entry allocated the product of the
// largest trip counts, n^3 entries for n^3 / 6 stores; before run entries
// there were three reservations, one per loop of logged stores.
// The log allocated at entry is also at least what the last call needed
// (a thread-local hint that A stores where it returns: its count of
// entries or the entries it promised, whichever is more), so a log that
// the reservation grew is one arena block from the second gradient on;
// the reservation keeps its promise in the state's fourth field and grows
// the log to twice its capacity at least (it grew by n per call, a
// realloc each time). The sizes are checked at run time in
// Integration/inplace-factorizations.c, the allocations in
// Integration/arena-top-caches.c.
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

// CHECK:       @[[HINT:lt\.undo\.hint\.[a-z.]+]] = internal thread_local global i64 0
// CHECK-LABEL: define internal void @lt.undo.reserve(
// CHECK:         [[NEED:%.+]] = add i64
// CHECK:         store i64 [[NEED]], ptr
// CHECK:         icmp ugt i64 [[NEED]], [[CAP:%.+]]
// CHECK:         [[TWO:%.+]] = shl i64 [[CAP]], 1
// CHECK:         select i1 {{%.+}}, i64 [[NEED]], i64 [[TWO]]
// CHECK:         call ptr @realloc(

// CHECK-LABEL: define internal {{.*}}@chol.lt.grad(
// CHECK:         load i64, ptr @[[HINT]]
// CHECK:         call void @lt.undo.begin.arena(ptr {{.*}}, i64 {{%.+}}, i64 {{%.+}})
// CHECK:         call void @lt.undo.reserve(
// CHECK-NOT:     call void @lt.undo.reserve(
// CHECK:         call void @lt.undo.run(
// CHECK-NOT:     call void @lt.undo.reserve(
// CHECK:         call void @lt.undo.run(
// CHECK-NOT:     call void @lt.undo.reserve(
// CHECK:         call void @lt.undo.save(
// CHECK-NOT:     call void @lt.undo.reserve(
// CHECK:         store i64 {{%.+}}, ptr @[[HINT]]
// CHECK:       }
