// Reverse loops that run upwards (gen/ascend.c): a loop whose iterations
// commute runs in the primal's order, so its vectorised form reverses no
// lanes. scale: y[i] = f(x[i]); stencil: a three-point stencil. Through
// plain pointers a shadow read and zeroed beside another's additions
// runs upwards behind a run-time test (the loop as it was where it fails,
// a scope of its own for the accesses the test finds apart); in the
// gradient for arguments found apart (gen/version.c) the iterations
// commute without a test. prefix: a
// recurrence, whose reverse carries an adjoint from one iteration to the
// next, stays downward. The gradients are checked in
// Integration/ascend-reverse-loops.c.
// RUN: %ltclang -O2 -S -emit-llvm %s -o - | FileCheck %s
// RUN: %ltclang -O2 -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ltclang -O0 -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s --check-prefix=O0
#include <leantape.h>

void scale(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = 0.5 * x[i] * x[i] + 0.25 * x[i];
}

void stencil(const double *a, double *b, int n) {
  for (int i = 1; i < n - 1; i++)
    b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1] - 0.1 * a[i] * a[i] * a[i];
}

void prefix(double *x, int n) {
  for (int i = 1; i < n; i++)
    x[i] += 0.5 * x[i - 1] * x[i - 1];
}

void g_scale(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)scale, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}
void g_stencil(const double *a, double *da, double *b, double *db, int n) {
  __enzyme_autodiff((void *)stencil, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, n);
}
void g_prefix(double *x, double *dx, int n) {
  __enzyme_autodiff((void *)prefix, enzyme_dup, x, dx, enzyme_const, n);
}

// Through plain pointers: the test's scope, declared before the loop.
// CHECK-LABEL: define internal void @scale.lt.grad(
// CHECK: call void @llvm.experimental.noalias.scope.decl
// For arguments found apart: vector loops that load, add and store with
// no lanes reversed.
// CHECK-LABEL: define internal void @scale.lt.grad.{{[0-9]+}}(ptr noalias
// CHECK-NOT: shufflevector <{{[0-9]+}} x double> {{.*}}<i32 1, i32 0>
// CHECK: load <{{[0-9]+}} x double>
// CHECK-NOT: shufflevector <{{[0-9]+}} x double> {{.*}}<i32 1, i32 0>
// CHECK: {{^}}}
// CHECK-LABEL: define internal void @stencil.lt.grad(
// CHECK: call void @llvm.experimental.noalias.scope.decl
// CHECK-LABEL: define internal void @stencil.lt.grad.{{[0-9]+}}(ptr noalias
// CHECK-NOT: shufflevector <{{[0-9]+}} x double> {{.*}}<i32 1, i32 0>
// CHECK: load <{{[0-9]+}} x double>
// CHECK-NOT: shufflevector <{{[0-9]+}} x double> {{.*}}<i32 1, i32 0>
// CHECK: {{^}}}
// CHECK: ![[SC:[0-9]+]] = distinct !{![[SC]], ![[D:[0-9]+]], !"lt.ascend.apart"}
// CHECK: ![[D]] = distinct !{![[D]], !"lt.ascend"}

// REMARK-DAG: remark: a loop of 'scale.lt.grad.{{[0-9]+}}' runs upwards: its iterations commute
// REMARK-DAG: remark: a loop of 'scale.lt.grad' runs upwards where a run-time test finds 2 access(es) apart from 2 other(s) (the loop as it was otherwise)
// REMARK-DAG: remark: a loop of 'stencil.lt.grad' runs upwards where a run-time test finds 2 access(es) apart from 6 other(s) (the loop as it was otherwise)
// REMARK-DAG: remark: a loop of 'stencil.lt.grad.{{[0-9]+}}' runs upwards: its iterations commute
// REMARK-NOT: a loop of 'prefix.lt.grad' runs upwards
// O0-NOT: runs upwards
