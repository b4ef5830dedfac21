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

// A state of fixed size: the remark gives a snapshot's bytes, u[1..98]
// alone where no other read reaches w, which each step writes before it
// reads it (analysis/steprun.c), else u[1..98] and w[1..98].
// REMARK-DAG: checkpoint-remarks.c:[[@LINE+2]]:3: remark: this loop is checkpointed under a tape budget (LEANTAPE_TAPE_BUDGET, or -leantape-checkpoint=BUDGET, or enzyme_tape_budget): a snapshot holds the memory its steps write (784 bytes, without what each step writes before it reads it; 1568 where another pointer may read that); LEANTAPE_REPORT=1 prints the schedule
double fixed(double *u, double *w, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < 99; i++)
      w[i] = u[i] + 0.1 * (u[i + 1] - 2 * u[i] + u[i - 1]) * (1 + u[i] * u[i]);
    for (int i = 1; i < 99; i++)
      u[i] = w[i];
  }
  return u[50];
}

// Online (a data-dependent exit): checkpointed as the steps run; the
// number of steps passed to lt.ckpt.fwd is -1 (not known).
// REMARK-DAG: checkpoint-remarks.c:[[@LINE+3]]:3: remark: this loop is checkpointed under a tape budget
double settle(double *u, double *w, int n) {
  double d = 1;
  while (d > 1e-3) {
    for (int i = 1; i < n - 1; i++)
      w[i] = 0.5 * u[i] + 0.25 * (u[i + 1] + u[i - 1]);
    d = 0;
    for (int i = 1; i < n - 1; i++) {
      d += (w[i] - u[i]) * (w[i] - u[i]);
      u[i] = w[i];
    }
    d = d / (1 + u[0] * u[0]);
  }
  return u[1];
}

double g4(double *u, double *du, double *w, double *dw, int s) {
  return __enzyme_autodiff((void *)fixed, enzyme_dup, u, du, enzyme_dup, w, dw, enzyme_const, s);
}
double g5(double *u, double *du, double *w, double *dw, int n) {
  return __enzyme_autodiff((void *)settle, enzyme_dup, u, du, enzyme_dup, w, dw, enzyme_const, n);
}
// CHECK-LABEL: define internal void @settle.lt.grad(
// CHECK: call ptr @lt.ckpt.fwd(ptr %{{.*}}, i64 %{{.*}}, i64 -1, ptr nonnull @settle.lt.step.lt.ck.adv,
// CHECK: call void @lt.ckpt.rev(
