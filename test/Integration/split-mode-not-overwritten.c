// Split mode re-reads argument memory that the caller keeps unchanged
// between __enzyme_augmentfwd and __enzyme_reverse, instead of taping it:
//  - fm: enzyme_not_overwritten in front of x and w in both calls (the
//    caller writes an unrelated array between the calls, so only the
//    marker says x and w are unchanged);
//  - fn: the same with enzyme_nocache, the spelling of Enzyme's container
//    tests (nocache_containers.cpp);
//  - fa: no marker, and nothing between the two calls writes memory;
//  - fd: no marker, nothing between the calls, but the reverse call is
//    given another array y (other values): not the same pointers, so the
//    pair does not count as unchanged, and the gradient is that at x;
//  - fc: no marker, the caller overwrites x between the calls: the values
//    the reverse needs come from the tape (16 bytes per iteration at -O2,
//    24 at -O0, where the libm sin call keeps x[i]'s two loads apart), and
//    the gradient is that at the old x.
// Gradients against the analytic value at -O0 and -O2; the tape shape from
// the remarks (nothing per iteration for fm and fa).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O0 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s
// RUN: %ltclang -O2 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s
// CHECK-DAG: remark: derivative of 'fm' (split mode): {{.*}}memory of parameter(s) 1, 2 unchanged between the halves
// CHECK-DAG: remark: loop (depth 1) in 'fm': caches nothing per iteration
// CHECK-DAG: remark: derivative of 'fn' (split mode): {{.*}}memory of parameter(s) 1, 2 unchanged between the halves
// CHECK-DAG: remark: loop (depth 1) in 'fn': caches nothing per iteration
// CHECK-DAG: remark: derivative of 'fa' (split mode): {{.*}}memory of parameter(s) 1, 2 unchanged between the halves
// CHECK-DAG: remark: loop (depth 1) in 'fa': caches nothing per iteration
// CHECK-DAG: remark: loop (depth 1) in 'fc': caches {{[1-9][0-9]*}} bytes per iteration
// CHECK-DAG: remark: loop (depth 1) in 'fd': caches {{[1-9][0-9]*}} bytes per iteration
// CHECK-NOT: remark: derivative of 'f{{c|d}}' {{.*}}unchanged between the halves

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

#define N 64
#define BODY                                                                   \
  double s = 0;                                                                \
  for (long i = 0; i < n; i++)                                                 \
    s += w[i] * sin(x[i]) * x[i];                                              \
  return s;
double fm(const double *x, const double *w, long n) { BODY }
double fn(const double *x, const double *w, long n) { BODY }
double fa(const double *x, const double *w, long n) { BODY }
double fc(const double *x, const double *w, long n) { BODY }
double fd(const double *x, const double *w, long n) { BODY }

static double X[N], W[N], other[N];

static void check(const char *what, const double *x, const double *dx, const double *dw) {
  for (int i = 0; i < N; i += 9) {
    lt_check(what, dx[i], 2.0 * W[i] * (cos(x[i]) * x[i] + sin(x[i])), 1e-13, 1e-14);
    lt_check(what, dw[i], 2.0 * sin(x[i]) * x[i], 1e-13, 1e-14);
  }
}

int main(void) {
  for (int i = 0; i < N; i++) {
    X[i] = lt_vd(0.05 * i - 1);
    W[i] = 1 + 0.1 * i;
  }
  double x[N], dx[N] = {0}, dw[N] = {0};
  long n = lt_vi(N);
  double seed = lt_vd(2.0); /* a call between fa's halves would count as a write */
  for (int i = 0; i < N; i++)
    x[i] = X[i];

  void *t = __enzyme_augmentfwd((void *)fm, enzyme_not_overwritten, enzyme_dup, x, dx,
                                enzyme_dup, enzyme_not_overwritten, W, dw, enzyme_const, n);
  for (int i = 0; i < N; i++)
    other[i] = lt_vd(i);
  __enzyme_reverse((void *)fm, enzyme_not_overwritten, enzyme_dup, x, dx, enzyme_dup,
                   enzyme_not_overwritten, W, dw, enzyme_const, n, lt_vd(2.0), t);
  check("fm: enzyme_not_overwritten", x, dx, dw);

  for (int i = 0; i < N; i++)
    dx[i] = dw[i] = 0;
  t = __enzyme_augmentfwd((void *)fn, enzyme_nocache, x, dx, enzyme_nocache, W, dw, enzyme_const,
                          n);
  other[0] = lt_vd(1);
  __enzyme_reverse((void *)fn, enzyme_nocache, x, dx, enzyme_nocache, W, dw, enzyme_const, n,
                   seed, t);
  check("fn: enzyme_nocache", x, dx, dw);

  for (int i = 0; i < N; i++)
    dx[i] = dw[i] = 0;
  t = __enzyme_augmentfwd((void *)fa, enzyme_dup, x, dx, enzyme_dup, W, dw, enzyme_const, n);
  __enzyme_reverse((void *)fa, enzyme_dup, x, dx, enzyme_dup, W, dw, enzyme_const, n, seed, t);
  check("fa: nothing between the calls", x, dx, dw);

  double y[N];
  for (int i = 0; i < N; i++)
    dx[i] = dw[i] = 0, y[i] = lt_vd(x[i] + 100);
  t = __enzyme_augmentfwd((void *)fd, enzyme_dup, x, dx, enzyme_dup, W, dw, enzyme_const, n);
  __enzyme_reverse((void *)fd, enzyme_dup, y, dx, enzyme_dup, W, dw, enzyme_const, n, seed, t);
  check("fd: the reverse given other memory", x, dx, dw);

  for (int i = 0; i < N; i++)
    dx[i] = dw[i] = 0;
  t = __enzyme_augmentfwd((void *)fc, enzyme_dup, x, dx, enzyme_dup, W, dw, enzyme_const, n);
  for (int i = 0; i < N; i++)
    x[i] = lt_vd(100.0 + i);
  __enzyme_reverse((void *)fc, enzyme_dup, x, dx, enzyme_dup, W, dw, enzyme_const, n,
                   lt_vd(2.0), t);
  check("fc: x overwritten between the calls", X, dx, dw);
  return lt_done() + (other[3] != 3.0);
}
