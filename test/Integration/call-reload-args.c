// A callee that stays a call (recursive) re-reads its argument memory in
// its reverse pass when nothing after the call can change it (issue 9,
// item 3), and tapes what it loads when the caller overwrites it after the
// call:
//  - f1: tree(x, 0, n) is all; tree writes no memory (its body says so at
//    -O0, its inferred attributes at -O2), so its loop caches nothing;
//  - f2: the caller stores into x[0] after the call, so the derivative of
//    tree for that call site tapes its loads (8 bytes per iteration), and
//    the gradient is that of the values tree saw.
// Gradients against central differences at -O0 and -O2; the tape shapes
// from the remarks.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O0 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s
// RUN: %ltclang -O2 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s
// CHECK-DAG: remark: loop (depth 1) in 'tree': caches nothing per iteration
// CHECK-DAG: remark: loop (depth 1) in 'tree': caches 8 bytes per iteration: load (double, line [[@LINE+11]])

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

double tree(const double *x, long lo, long hi) {
  if (hi - lo <= 4) {
    double s = 0;
    for (long i = lo; i < hi; i++)
      s += x[i] * sin(x[i]);
    return s;
  }
  long m = (lo + hi) / 2;
  return tree(x, lo, m) * 0.9 + sin(tree(x, m, hi));
}
double f1(const double *x, long n) { return tree(x, 0, n); }
double f2(double *x, long n) {
  double r = tree(x, 0, n);
  x[0] = 0.5 * r;
  return r + x[0] * x[1];
}

#define N 37
static double X[N];
static int K;
static double f1_k(double t) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = X[i] + (i == K ? t : 0);
  return f1(x, N);
}
static double f2_k(double t) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = X[i] + (i == K ? t : 0);
  return f2(x, N);
}

int main(void) {
  for (int i = 0; i < N; i++)
    X[i] = lt_vd(0.1 * i - 1.3);
  double x[N], dx[N];
  long n = lt_vi(N);
  for (int i = 0; i < N; i++)
    x[i] = X[i], dx[i] = 0;
  __enzyme_autodiff((void *)f1, enzyme_dup, x, dx, enzyme_const, n);
  for (K = 0; K < N; K += 6)
    lt_check("f1: tree's reverse re-reads x", dx[K], lt_fd(f1_k, 0), 1e-6, 1e-8);
  for (int i = 0; i < N; i++)
    x[i] = X[i], dx[i] = 0;
  __enzyme_autodiff((void *)f2, enzyme_dup, x, dx, enzyme_const, n);
  for (K = 0; K < N; K += 6)
    lt_check("f2: x overwritten after the call, tree tapes", dx[K], lt_fd(f2_k, 0), 1e-6, 1e-8);
  return lt_done();
}
