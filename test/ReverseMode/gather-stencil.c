// The reverse loop of a stencil vectorises (issue 17, item 4). Its
// additions into du[i-1], du[i] and du[i+1] were three loads and stores of
// each element in three successive iterations, a dependence through memory
// that kept the loop scalar (jacobi2d_64x10 in the benchmark: 12.4 times
// its primal). gen/gather.c adds into one element per iteration and
// carries the others' contributions in registers: fixed-order recurrences,
// which the loop vectoriser widens, starting from 0 in the last lane. The
// tape's loads have a scope of their own (gen/scopes.c), so a reverse loop
// reading its cache is rewritten too (s3's u[i], carried in a register by
// the primal loop, is taped). Gradients: test/Integration/stencil-gather.c.
// RUN: %ltclang -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: %ltclang -O2 -S -emit-llvm %s -o /dev/null -mllvm -print-after=leantape 2> %t.after
// RUN: FileCheck %s --check-prefix=SCALAR < %t.after
#include <leantape.h>

__attribute__((noinline)) void s3(const double *restrict u, double *restrict t, int n) {
  for (int i = 1; i < n - 1; i++)
    t[i] = u[i] * (u[i + 1] - u[i - 1]) + 0.3 * (u[i + 1] - 2 * u[i] + u[i - 1]);
}
__attribute__((noinline)) void smooth(const double *a, double *b, int n) {
  for (int i = 1; i < n - 1; i++)
    b[i] = a[i - 1] * a[i - 1] + 2 * a[i] + a[i + 1] * a[i];
}
void g1(double *u, double *du, double *t, double *dt, int n) {
  __enzyme_autodiff((void *)s3, enzyme_dup, u, du, enzyme_dup, t, dt, enzyme_const, n);
}
void g2(double *a, double *da, double *b, double *db, int n) {
  __enzyme_autodiff((void *)smooth, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, n);
}
// A 2-D Jacobi sweep over rows of a constant length: rows i - 1 and i + 1
// are the same shadow's elements 256 apart, outside the window of one
// recurrence; row i's three additions are rewritten beside them.
__attribute__((noinline)) void rows(int n, double (*a)[256], double (*b)[256]) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      b[i][j] = 0.2 * (a[i][j] + a[i][j - 1] + a[i][j + 1] + a[i + 1][j] + a[i - 1][j]);
}
void g4(int n, double (*a)[256], double (*da)[256], double (*b)[256], double (*db)[256]) {
  __enzyme_autodiff((void *)rows, enzyme_const, n, enzyme_dup, a, da, enzyme_dup, b, db);
}
void g3(double *a, double *da, double *b, double *db, int n) {
  void *tape = __enzyme_augmentfwd((void *)smooth, enzyme_dup, a, da, enzyme_dup, b, db,
                                   enzyme_const, n);
  __enzyme_reverse((void *)smooth, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, n, tape);
}

// CHECK-LABEL: define internal void @s3.lt.grad(
// CHECK:         phi <{{[0-9]+}} x double> {{.*}}[ <double poison, {{(double poison, )*}}double 0.000000e+00>
// CHECK:         ret void
// smooth's plain pointers: the version that runs when the arrays are apart
// CHECK-LABEL: define internal void @smooth.lt.grad.{{[0-9]+}}(
// CHECK:         phi <{{[0-9]+}} x double> {{.*}}[ <double poison, {{(double poison, )*}}double 0.000000e+00>
// CHECK:         ret void
// CHECK-LABEL: define internal void @rows.lt.grad.{{[0-9]+}}(
// CHECK:         phi <{{[0-9]+}} x double> {{.*}}[ <double poison, {{(double poison, )*}}double 0.000000e+00>
// CHECK:         ret void

// Before the vectoriser (what the pass leaves): s3's reverse loop adds
// into du[i+1] and du[i-1] (du[i]'s adjoint Leantape already carries in a
// register), a gap between them: the loop loads and stores du once per
// iteration, du[i+1] getting this iteration's and, through two PHIs that
// start at 0, the contribution from two iterations ago. After the loop,
// the element in the gap (8 bytes below the last one written) is written
// only when the loop ran at least twice, and the one 16 bytes below
// always.
// SCALAR-LABEL: define internal void @s3.lt.grad(
// SCALAR:         [[D1:%[0-9]+]] = phi double [ 0.000000e+00, %{{[0-9]+}} ], [ [[W:%[0-9]+]], %{{[0-9]+}} ]
// SCALAR-NEXT:    [[D2:%[0-9]+]] = phi double [ 0.000000e+00, %{{[0-9]+}} ], [ [[D1]], %{{[0-9]+}} ]
// SCALAR-NEXT:    [[N:%[0-9]+]] = phi i64 [ 0, %{{[0-9]+}} ], [ [[N1:%[0-9]+]], %{{[0-9]+}} ]
// SCALAR:         [[N1]] = add i64 [[N]], 1
// SCALAR-NEXT:    [[SUM:%[0-9]+]] = fadd reassoc nsz double {{%[0-9]+}}, [[D2]]
// SCALAR-NEXT:    [[OLD:%[0-9]+]] = load double, ptr [[LEAD:%[0-9]+]]
// SCALAR-NEXT:    [[NEW:%[0-9]+]] = fadd reassoc nsz double [[OLD]], [[SUM]]
// SCALAR-NEXT:    store double [[NEW]], ptr [[LEAD]]
// SCALAR-NOT:     store double
// SCALAR:         [[GAP:%[0-9]+]] = getelementptr i8, ptr [[LEAD]], i64 -8
// SCALAR-NEXT:    [[REACHED:%[0-9]+]] = icmp uge i64 [[N1]], 2
// SCALAR-NEXT:    br i1 [[REACHED]], label %[[THEN:[0-9]+]], label %[[JOIN:[0-9]+]]
// SCALAR:       [[THEN]]:
// SCALAR-NEXT:    [[G0:%[0-9]+]] = load double, ptr [[GAP]]
// SCALAR-NEXT:    [[G1:%[0-9]+]] = fadd reassoc nsz double [[G0]], [[D1]]
// SCALAR-NEXT:    store double [[G1]], ptr [[GAP]]
// SCALAR:       [[JOIN]]:
// SCALAR-NEXT:    [[LAST:%[0-9]+]] = getelementptr i8, ptr [[LEAD]], i64 -16
// SCALAR-NEXT:    [[L0:%[0-9]+]] = load double, ptr [[LAST]]
// SCALAR-NEXT:    [[L1:%[0-9]+]] = fadd reassoc nsz double [[L0]], [[W]]
// SCALAR-NEXT:    store double [[L1]], ptr [[LAST]]
// SCALAR:         ret void

// Split mode over plain pointers: no version of the whole derivative takes
// them apart, so the loop is versioned (gen/ascend.c): it runs upwards and
// rewritten when the bytes of db it reads and zeroes are apart from those
// its additions reach, and as it was otherwise (a copy gather.c leaves
// alone).
// SCALAR-LABEL: define internal void @smooth.lt.rev{{(\.[0-9]+)?}}(
// SCALAR:         phi double [ 0.000000e+00, %[[PRE:[0-9]+]] ]
// SCALAR:         [[A:%[0-9]+]] = icmp ule i64
// SCALAR-NEXT:    [[B:%[0-9]+]] = icmp ule i64
// SCALAR-NEXT:    {{%[0-9]+}} = or i1 [[A]], [[B]]
// SCALAR:         call void @llvm.experimental.noalias.scope.decl
// SCALAR:         br i1 {{%[0-9]+}}, label %[[PRE]], label %[[COPY:[0-9]+]]
// SCALAR-EMPTY:
// SCALAR-NEXT:  [[COPY]]:
// SCALAR-NEXT:    br label
// SCALAR-EMPTY:
// SCALAR-NEXT:  [[PRE]]:
// SCALAR-NEXT:    br label
