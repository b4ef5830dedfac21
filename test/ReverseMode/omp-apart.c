// A parallel region over plain pointers gets two derivatives, picked at
// run time by a test of its arguments (gen/ompcheck.c): <region>.lt.apart
// says whether the bytes the team touches through x and through y are
// apart (intervals computed from n where the region starts: x[0] and
// x[0..n), y[0..n)); the fork calls the derivative that assumes them apart
// (x's adjoints in a per-thread buffer, flushed once) when it says so, the
// one that assumes nothing (atomic adds) otherwise, in A and in R alike.
// A region that reads through a pointer loaded from memory (rows[i][0])
// has no such test: one derivative, forked directly. A reduction or a
// critical section does not stop the test: their locks (and the tickets
// beside them) are the runtime's words, not data.
// REQUIRES: openmp
// RUN: %ltclang -O2 %openmp -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=APART < %t.ll
// RUN: FileCheck %s --check-prefix=ROWS < %t.ll
// RUN: FileCheck %s --check-prefix=SYNC < %t.ll
#include <leantape.h>
#include <math.h>

void axpy_plain(const double *x, double *y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    y[i] = x[0] * sin(x[i]);
}

void rows_plain(double **rows, double *y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    y[i] = rows[i][0] * rows[i][1];
}

double dot_plain(const double *x, double *y, int n) {
  double s = 0;
#pragma omp parallel for reduction(+ : s)
  for (int i = 0; i < n; i++) {
    y[i] = sin(x[i]);
    s += y[i] * x[0];
  }
  return s;
}

void crit_plain(const double *x, double *y, double *acc, int n) {
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
    y[i] = x[i] * x[i];
#pragma omp critical
    acc[0] += cos(x[i]);
  }
}

double grad_dot(const double *x, double *dx, double *y, double *dy, int n) {
  return __enzyme_autodiff((void *)dot_plain, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

void grad_crit(const double *x, double *dx, double *y, double *dy, double *a, double *da, int n) {
  __enzyme_autodiff((void *)crit_plain, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_dup, a, da,
                    enzyme_const, n);
}

void grad_axpy(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)axpy_plain, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

void grad_rows(double **r, double **dr, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)rows_plain, enzyme_dup, r, dr, enzyme_dup, y, dy, enzyme_const, n);
}

// The derivative assuming x and y apart buffers dx[0] (calloc, flush);
// the other adds it atomically. Both are reverses of the same region.
// CHECK: define internal void @[[REV:axpy_plain.omp_outlined.lt.region.lt.rev]](
// CHECK-NOT: calloc
// CHECK: atomicrmw fadd
// CHECK: define internal void @[[REVAPART:axpy_plain.omp_outlined.lt.region.lt.rev.[0-9]+]](
// CHECK: call ptr @calloc(i64 1, i64 8)
// CHECK: call void @lt.omp.flush.f64(

// APART-LABEL: define internal i1 @axpy_plain.omp_outlined.lt.region.lt.apart(ptr %0, ptr %1, i32 %2, ptr %3, ptr %4)
// APART-DAG: ptrtoint ptr %3 to i64
// APART-DAG: ptrtoint ptr %4 to i64
// APART-DAG: sext i32 %2 to i64
// APART: ret i1

// The forward and the reverse fork each pick by the test.
// CHECK-LABEL: define internal void @axpy_plain.lt.grad(
// CHECK: %[[A1:[0-9]+]] = tail call i1 @axpy_plain.omp_outlined.lt.region.lt.apart(ptr null, ptr null, i32 %2, ptr %1, ptr %0)
// CHECK: %[[F1:[0-9]+]] = select i1 %[[A1]], ptr @axpy_plain.omp_outlined.lt.region.lt.aug.{{[0-9]+}}.team.fork, ptr @axpy_plain.omp_outlined.lt.region.lt.aug.team.fork
// CHECK: call void {{.*}}@__kmpc_fork_call(ptr {{.*}}, i32 6, ptr nonnull %[[F1]],
// CHECK: %[[A2:[0-9]+]] = tail call i1 @axpy_plain.omp_outlined.lt.region.lt.apart(ptr null, ptr null, i32 %2, ptr %1, ptr %0)
// CHECK: %[[F2:[0-9]+]] = select i1 %[[A2]], ptr @[[REVAPART]].team.fork, ptr @[[REV]].team.fork
// CHECK: call void {{.*}}@__kmpc_fork_call(ptr {{.*}}, i32 6, ptr nonnull %[[F2]],

// ROWS-NOT: rows_plain{{.*}}.lt.apart
// ROWS-LABEL: define internal void @rows_plain.lt.grad(
// ROWS: @__kmpc_fork_call(ptr {{.*}}, ptr nonnull @rows_plain.omp_outlined.lt.region.lt.aug.team.fork,
// ROWS: @__kmpc_fork_call(ptr {{.*}}, ptr nonnull @rows_plain.omp_outlined.lt.region.lt.rev.team.fork,

// SYNC: define internal i1 @dot_plain.omp_outlined.lt.region.lt.apart(
// SYNC-LABEL: define internal void @dot_plain.lt.grad(
// SYNC: call i1 @dot_plain.omp_outlined.lt.region.lt.apart(
// SYNC: select i1 %{{[0-9]+}}, ptr @dot_plain.omp_outlined.lt.region.lt.aug.{{[0-9]+}}.team.fork, ptr @dot_plain.omp_outlined.lt.region.lt.aug.team.fork
// SYNC: define internal i1 @crit_plain.omp_outlined.lt.region.lt.apart(
// SYNC-LABEL: define internal void @crit_plain.lt.grad(
// SYNC: call i1 @crit_plain.omp_outlined.lt.region.lt.apart(
