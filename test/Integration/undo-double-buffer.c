// Time loops whose buffers rotate through pointers (issue 17): a step
// reads state a and writes state b, then the pointers swap, so each
// step's loads are overwritten two steps later. The store b[i][j] writes
// a dense row per run of its loop and that loop reads only a: the undo
// log keeps the row's old contents as one block per run (8 bytes a
// point, the state history) and the reverse pass re-reads a's five
// points, where before it taped c and lap (16 bytes a point). A tests
// per run that the row stays clear of the loads the reverse re-reads in
// the loop (gen/undoblock.c, lt_undo_block_apart); with both arguments
// the same buffer (an in-place Gauss-Seidel sweep) the test fails and
// the stores log themselves one by one. The blocks come from room the log
// takes from the arena (KEPT), not from malloc: their bytes at entry (the
// stores' executions), or the last call's.
// Shapes: a 2-D diffusion u <- u + 0.1 (1 + u^2) lap u (the issue's
// example) with an odd and an even number of steps (the buffers end
// swapped or not), the same with both pointers one buffer, and a 1-D
// three-level leapfrog rotation. Each gradient against central
// differences at -O0 and -O2 with plain pointers, the buffers left as the
// primal leaves them, and a second gradient bitwise equal to the first.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O2 -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ltclang -O2 -S -emit-llvm %s -o %t.ll && FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=HELPER < %t.ll
#include "loopcheck.h"
#include <stdio.h>

double diffuse(double *u, double *v, int n, int steps) {
  double *a = u, *b = v;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        double c = a[i * n + j];
        double lap = a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] +
                     a[i * n + j + 1] - 4 * c;
        b[i * n + j] = c + 0.1 * (1 + c * c) * lap;
      }
    double *s = a;
    a = b;
    b = s;
  }
  double e = 0;
  for (int i = 0; i < n * n; i++)
    e += a[i] * a[i] * (1 + 0.01 * i) + 0.5 * b[i] * b[i];
  return e;
}

/* p0: the state before last, p1: the last, p2: the next */
double leapfrog(double *p0, double *p1, double *p2, int n, int steps) {
  double *a = p0, *b = p1, *c = p2;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      c[i] = 2 * b[i] - a[i] + 0.2 * (b[i + 1] - 2 * b[i] + b[i - 1]) - 0.05 * b[i] * b[i] * b[i];
    double *s = a;
    a = b;
    b = c;
    c = s;
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += b[i] * b[i] * (1 + 0.1 * i) + a[i] * c[i];
  return e;
}

#define N 7
#define M 12
static int steps, one; /* one: both diffuse arguments the same buffer */

static double dobj(double *x, void *ctx) {
  (void)ctx;
  return diffuse(x, one ? x : x + N * N, N, steps);
}

static double lobj(double *x, void *ctx) {
  (void)ctx;
  return leapfrog(x, x + M, x + 2 * M, M, steps);
}

static void grad(double *x, double *g, int nx) {
  memset(g, 0, nx * sizeof *g);
  if (nx == 3 * M)
    __enzyme_autodiff((void *)leapfrog, enzyme_dup, x, g, enzyme_dup, x + M, g + M, enzyme_dup,
                      x + 2 * M, g + 2 * M, enzyme_const, M, enzyme_const, steps);
  else if (one)
    __enzyme_autodiff((void *)diffuse, enzyme_dup, x, g, enzyme_dup, x, g, enzyme_const, N,
                      enzyme_const, steps);
  else
    __enzyme_autodiff((void *)diffuse, enzyme_dup, x, g, enzyme_dup, x + N * N, g + N * N,
                      enzyme_const, N, enzyme_const, steps);
}

static void check(const char *what, lt_obj f, int nx) {
  double x0[3 * N * N], x[3 * N * N], g[3 * N * N], g2[3 * N * N], fd[3 * N * N];
  lt_data(x0, nx, 0.2, 0.9, 7);
  memcpy(x, x0, nx * sizeof *x);
  grad(x, g, nx);
  /* the buffers as the primal leaves them */
  double want[3 * N * N];
  memcpy(want, x0, nx * sizeof *want);
  f(want, NULL);
  int same = 1;
  for (int i = 0; i < nx; i++)
    same &= x[i] == want[i];
  char buf[120];
  snprintf(buf, sizeof buf, "%s steps %d: the buffers the primal leaves", what, steps);
  lt_check_ad(buf, same, 1, 0, 0);
  /* again, from the same inputs: the blocks now in the arena's room */
  memcpy(x, x0, nx * sizeof *x);
  grad(x, g2, nx);
  int equal = 1;
  for (int i = 0; i < nx; i++)
    equal &= g[i] == g2[i];
  snprintf(buf, sizeof buf, "%s steps %d: a second gradient equal to the first", what, steps);
  lt_check_ad(buf, equal, 1, 0, 0);
  lt_fd_grad(f, x0, nx, NULL, fd);
  snprintf(buf, sizeof buf, "%s steps %d", what, steps);
  printf("-- %s\n", buf);
  lt_gradv(buf, nx, g, fd, NULL, 1e-6, 0);
}

int main(void) {
  for (steps = 0; steps <= 5; steps += lt_vi(1)) {
    one = 0;
    check("diffuse", dobj, 2 * N * N);
    one = 1;
    check("diffuse, one buffer", dobj, N * N);
    check("leapfrog", lobj, 3 * M);
  }
  return lt_done();
}

// Nothing is taped per point: diffuse's five loads are re-read through the
// log, and leapfrog's b[i] (its only nonlinear use).
// REMARK-DAG: undo-double-buffer.c:[[@LINE-101]]:{{[0-9]+}}: remark: loop (depth 3) in 'diffuse': caches nothing per iteration; {{[0-9]+}} recomputed, 5 re-loaded
// REMARK-DAG: undo-double-buffer.c:[[@LINE-82]]:{{[0-9]+}}: remark: loop (depth 2) in 'leapfrog': caches nothing per iteration; {{[0-9]+}} recomputed, 1 re-loaded
// The log from the arena with room for the blocks (their bytes at entry,
// or the last call's if more); A's row blocks, tested per run, and
// store-by-store saves (the fallback).
// CHECK-LABEL: define internal void @leapfrog.lt.grad(
// CHECK: [[LAST:%[0-9]+]] = load i64, ptr @lt.undo.blocks.leapfrog.lt.aug
// CHECK: [[ROOM:%[0-9]+]] = tail call i64 @llvm.umax.i64(i64 [[LAST]], i64 %{{[0-9]+}})
// CHECK: call void @lt.undo.begin.arena({{.*}}, i64 [[ROOM]])
// CHECK: call void @lt.undo.block.run(
// CHECK: call void @lt.undo.save(
// CHECK: {{^}}}
// CHECK-LABEL: define internal void @diffuse.lt.grad(
// CHECK: [[LAST:%[0-9]+]] = load i64, ptr @lt.undo.blocks.diffuse.lt.aug
// CHECK: [[ROOM:%[0-9]+]] = tail call i64 @llvm.umax.i64(i64 [[LAST]], i64 %{{[0-9]+}})
// CHECK: call void @lt.undo.begin.arena({{.*}}, i64 [[ROOM]])
// CHECK: call void @lt.undo.block.run(
// CHECK: call void @lt.undo.save(
// CHECK: {{^}}}
// A block's copy: 16-byte words with non-temporal stores (x86-64), and
// the block found again through a Fibonacci hash of its address, probed
// linearly (the table's mask its first word): the earlier block at the
// same address and size becomes LATER (bit 59), copied back, not swapped.
// HELPER-LABEL: define internal void @lt.undo.block.run(
// HELPER: store <2 x double> {{.*}}, align 16, !nontemporal
// HELPER: mul i64 {{.*}}, -7046029254386353131
// HELPER: = phi i64 [ 0, %{{[0-9]+}} ]
// HELPER: or i64 {{.*}}, 576460752303423488
// HELPER: {{^}}}
