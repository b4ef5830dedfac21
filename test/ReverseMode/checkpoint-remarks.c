// -leantape-checkpoint: which time loops are checkpointed, and why not
// (gen/ckpt.c), and the shape of a checkpointed one: its step is a call
// of its own (prep/outline.c); A runs each step through lt.ckpt.fwd and
// keeps 16 bytes per step (the context and the step's tape, or null), R
// hands them to lt.ckpt.rev; no per-step cache of the loop's values.
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint -Rpass-analysis=leantape -S -emit-llvm %s -o %t.ll 2> %t.err
// RUN: FileCheck %s --check-prefix=REMARK < %t.err
// RUN: FileCheck %s < %t.ll
#include <leantape.h>
#include <math.h>
#include <stdio.h>

double heat(double *u, double *w, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      w[i] = u[i] + 0.1 * (u[i + 1] - 2 * u[i] + u[i - 1]) * (1 + u[i] * u[i]);
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i];
  return e;
}

/* a step that prints: running it again would print again */
double noisy(double *u, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 0; i < n; i++)
      u[i] = sin(u[i]) + 0.5 * u[i];
    printf("%d\n", t);
  }
  return u[0];
}

/* a step that writes through row pointers loaded from memory */
double rows(double **r, int n, int steps) {
  for (int t = 0; t < steps; t++)
    for (int i = 0; i < n; i++)
      r[i][0] = cos(r[i][0]) * r[i][1];
  return r[0][0];
}

double g1(double *u, double *du, double *w, double *dw, int n, int s) {
  return __enzyme_autodiff((void *)heat, enzyme_dup, u, du, enzyme_dup, w, dw, enzyme_const, n,
                           enzyme_const, s);
}
double g2(double *u, double *du, int n, int s) {
  return __enzyme_autodiff((void *)noisy, enzyme_dup, u, du, enzyme_const, n, enzyme_const, s);
}
double g3(double **r, double **dr, int n, int s) {
  return __enzyme_autodiff((void *)rows, enzyme_dup, r, dr, enzyme_const, n, enzyme_const, s);
}

// REMARK-DAG: checkpoint-remarks.c:14:3: remark: this loop is checkpointed under a tape budget
// REMARK-DAG: checkpoint-remarks.c:14:3: remark: loop (depth 1) in 'heat': caches 16 bytes per iteration: context of the checkpointed step 'heat.lt.step', tape pointer of the checkpointed step 'heat.lt.step'
// REMARK-DAG: checkpoint-remarks.c:28:3: remark: this loop is not checkpointed: a step calls 'printf', which running it again would repeat; its steps are taped
// REMARK-DAG: checkpoint-remarks.c:38:3: remark: this loop is not checkpointed: a step writes memory whose extent is not known where it starts (through a pointer loaded from memory, a global, or at addresses not affine in its loop counters); its steps are taped

// CHECK-LABEL: define internal i64 @heat.lt.step.lt.snap(
// CHECK: call void @llvm.memcpy
// CHECK-LABEL: define internal void @heat.lt.grad(
// CHECK: call ptr @lt.ckpt.get(
// CHECK: call ptr @lt.ckpt.fwd(ptr %{{.*}}, i64 %{{.*}}, i64 %{{.*}}, ptr nonnull @heat.lt.step.lt.ck.adv, ptr nonnull @heat.lt.step.lt.ck.aug, ptr nonnull @heat.lt.step.lt.ck.rev, ptr nonnull @heat.lt.step.lt.ck.snap, ptr nonnull @heat.lt.step.lt.ck.sync,
// CHECK-NOT: call {{.*}}@malloc
// CHECK: call void @lt.ckpt.rev(
