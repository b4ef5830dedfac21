// Where checkpointing reverses a step it runs the step's taped run and at
// once its reverse, then restores a snapshot: what the taped run writes
// through the step's parameters only it reads again, so at -O1 and above
// it runs a copy without the stores nothing after them reads (and the
// arithmetic that fed only them), when a run-time test finds the
// parameters apart (gen/ckptdead.c). Each case is differentiated with no
// budget (every step taped as it runs: the whole taped run), with a budget
// of a few snapshots and with one; the gradients must be bitwise equal and
// match central differences. The cases:
//  - burgers: tmp from u, then u from tmp: both rows' stores go, and with
//    them the divisions (the IR check below);
//  - overlap: the same with tmp 8 elements above u in one buffer: the
//    test fails, the whole taped run runs;
//  - readback: w's stores are read back by the second loop (w*w), and
//    u's by that loop's later iterations (through the same parameter):
//    nothing goes, there is no copy;
//  - history: every step writes out[t], which the objective reads after
//    the loop (out[t]'s store goes);
//  - global: the step reads a global array of coefficients (a load not
//    through a parameter: every store it may follow stays);
//  - cells: the rows are reached through pointers loaded from a struct
//    (nothing based on a parameter: every store stays).
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint %s -o %t.O0 -lm
// RUN: %t.O0
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t.O2 -lm
// RUN: %t.O2
// RUN: %ltclang %ltload -O3 -mllvm -leantape-checkpoint %s -o %t.O3 -lm
// RUN: %t.O3
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -S -emit-llvm -o - | FileCheck %s
// The copy of burgers' taped run has no division left, and the callback
// runs it only when the test holds:
// CHECK-LABEL: define internal void @burgers.lt.step.lt.aug.dead(
// CHECK-NOT: fdiv
// CHECK: ret void
// CHECK-LABEL: define internal void @burgers.lt.step.lt.ck.augd(
// CHECK: [[T:%[0-9]+]] = {{.*}}call i1 @burgers.lt.step.lt.apart(
// CHECK: br i1 [[T]], label %[[DEAD:[0-9]+]], label %[[WHOLE:[0-9]+]]
// CHECK: [[DEAD]]:
// CHECK-NEXT: call void @burgers.lt.step.lt.aug.dead(
// CHECK: [[WHOLE]]:
// CHECK-NEXT: call void @burgers.lt.step.lt.aug(

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 48, T = 30 };

#include "burgers.h"

double readback(double *u, double *w, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      w[i] = u[i] + 0.1 * (u[i + 1] - u[i - 1]);
    for (int i = 1; i < n - 1; i++)
      u[i] = 0.5 * w[i] * w[i] / (1 + w[i] * w[i]) + 0.5 * u[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i] + w[i];
  return e;
}

double history(double *u, double *out, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    double s = 0;
    for (int i = 1; i < n - 1; i++) {
      u[i] = u[i] + 0.05 * sin(u[i - 1] * u[i + 1]);
      s += u[i] * u[i];
    }
    out[t] = s;
  }
  double e = 0;
  for (int t = 0; t < steps; t++)
    e += out[t] * (1 + 0.01 * t);
  return e;
}

double gc[N]; /* coefficients, set before the gradients */

double global(double *u, double *w, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      w[i] = u[i] * (0.9 + 0.05 * cos(u[i + 1]));
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i] + 0.05 * sin(gc[i - 1] * u[i - 1]);
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i];
  return e;
}

struct rows {
  double *u, *w;
};

double cells(struct rows *r, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      r->w[i] = r->u[i] + 0.2 * cos(r->u[i + 1]);
    for (int i = 1; i < n - 1; i++)
      r->u[i] = 0.5 * (r->w[i] + r->w[i - 1] * r->w[i - 1] / (1 + r->w[i - 1] * r->w[i - 1]));
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += r->u[i];
  return e;
}

/* x: the inputs (2 N doubles); the function's value, or its gradient into
 * dx */
static double run(int which, double *x, double *dx) {
  double *a = x, *b = x + N;
  if (which == 1)
    b = x + 8;
  double *da = dx ? dx + (a - x) : NULL, *db = dx ? dx + (b - x) : NULL;
  switch (which) {
  case 0:
  case 1:
    if (!dx)
      return burgers(a, b, N, T);
    __enzyme_autodiff((void *)burgers, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N,
                      enzyme_const, T);
    return 0;
  case 2:
    if (!dx)
      return readback(a, b, N, T);
    __enzyme_autodiff((void *)readback, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N,
                      enzyme_const, T);
    return 0;
  case 3:
    if (!dx)
      return history(a, b, N, T);
    __enzyme_autodiff((void *)history, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N,
                      enzyme_const, T);
    return 0;
  case 4:
    if (!dx)
      return global(a, b, N, T);
    __enzyme_autodiff((void *)global, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N,
                      enzyme_const, T);
    return 0;
  default: {
    struct rows r = {a, b}, dr = {da, db};
    if (!dx)
      return cells(&r, N, T);
    __enzyme_autodiff((void *)cells, enzyme_dup, &r, &dr, enzyme_const, N, enzyme_const, T);
    return 0;
  }
  }
}

static void init(double *x) {
  for (int i = 0; i < 2 * N; i++)
    x[i] = 0.5 + 0.4 * sin(0.37 * i) + (i >= N ? 0.1 * cos(0.9 * i) : 0);
}

int main(void) {
  for (int i = 0; i < N; i++)
    gc[i] = 1 + 0.5 * cos(0.3 * i);
  const char *budgets[3] = {"3000", "1", NULL};
  const char *names[6] = {"burgers", "overlap", "readback", "history", "global", "cells"};
  static double g[3][2 * N];
  for (int which = 0; which < 6; which++) {
    for (int k = 0; k < 3; k++) {
      if (budgets[k])
        setenv("LEANTAPE_TAPE_BUDGET", budgets[k], 1);
      else
        unsetenv("LEANTAPE_TAPE_BUDGET");
      double x[2 * N];
      init(x);
      memset(g[k], 0, sizeof g[k]);
      run(which, x, g[k]);
    }
    for (int k = 0; k < 2; k++) {
      char w[120];
      snprintf(w, sizeof w, "%s: budget %s", names[which], budgets[k]);
      lt_check_bitwise(w, g[k], g[2], 2 * N);
    }
    int idx[6] = {1, 20, N - 2, N + 1, N + 30, 2 * N - 2};
    for (int j = 0; j < 6; j++) {
      int i = idx[j];
      double x[2 * N], h = 1e-6;
      init(x);
      x[i] += h;
      double fp = run(which, x, NULL);
      init(x);
      x[i] -= h;
      double fd = (fp - run(which, x, NULL)) / (2 * h);
      char w[120];
      snprintf(w, sizeof w, "%s: x[%d] vs central difference", names[which], i);
      lt_check(w, g[2][i], fd, 1e-5, 1e-7);
    }
  }
  return lt_done();
}
