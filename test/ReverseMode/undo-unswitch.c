// Plain-pointer loops whose stores may overwrite what they read keep an
// undo log, on only when a run-time test says the arrays overlap
// (gen/undo.c). Its calls sit behind a branch on that test, so at -O2 loop
// unswitching makes a copy of each loop without them, and that copy
// vectorises like the primal's (issue 17, item 4). For y[i] = y[i] x[i] +
// x[i] with plain pointers the gradient has vector copies of the forward
// loop (the update, the old y taped) and of the reverse loop (dy read and
// set to dy x, dx updated), beside the scalar loops that log and
// restore (before: only the scalar ones). A reverse loop that sums an
// adjoint into one location: reverse-reduction-vectorize.c. With restrict
// nothing is logged at all.
// RUN: %ltclang -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=RESTRICT < %t.ll
#include <leantape.h>

void mul_plain(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] * x[i] + x[i];
}

void mul_restrict(const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] * x[i] + x[i];
}

void grad_plain(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)mul_plain, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

void grad_restrict(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)mul_restrict, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const,
                    n);
}

// CHECK-LABEL: define internal void @mul_plain.lt.grad(
// CHECK: store <[[W:[0-9]+]] x double>
// CHECK: call void @lt.undo.save(
// CHECK: fmul <[[W]] x double>
// CHECK: fadd reassoc nsz <[[W]] x double>
// CHECK: call void @lt.undo.restore(
// CHECK: {{^}}}

// RESTRICT-LABEL: define internal void @mul_restrict.lt.grad(
// RESTRICT-NOT: lt.undo
// RESTRICT: fmul <{{[0-9]+}} x double>
// RESTRICT: fadd reassoc nsz <{{[0-9]+}} x double>
// RESTRICT: {{^}}}
