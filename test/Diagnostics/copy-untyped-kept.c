// A copy in a function that stays a call (recursive), of memory the
// function never accesses, whose callers pass a struct holding a pointer
// to active data in one place and an array of doubles in another: nothing
// says which bytes are a pointer, so its shadow could not be moved. This
// was a silently wrong gradient (the shadow pointer was not copied); it is
// an error at -O0 and -O1. At -O2 the recursion becomes a loop, the call
// is inlined into each caller, and each copy has its own types (checked
// numerically here).
// RUN: not %ltclang -O0 -g %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O1 -g %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %ltclang -O2 %s -o %t -lm && %t

#include <string.h>

#include "check.h"
#include <leantape.h>

typedef struct {
  double *p;
  double w, v;
} S;

static void rec_any(void *d, const void *s, unsigned long n, int k) {
  if (k == 0) {
    memcpy(d, s, n);
    return;
  }
  rec_any(d, s, n, k - 1);
}

double f(double *x, int k) {
  S a = {x, x[1], 1}, b;
  double u[3] = {x[0], 2 * x[1], x[2]}, v[3];
  rec_any(&b, &a, sizeof a, k);
  rec_any(v, u, sizeof u, k);
  return b.p[0] * b.w + v[0] * v[1] * v[2];
}

int main(void) {
  double x[3] = {0.3, -0.7, 1.2}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 2);
  lt_check("dx[0]", dx[0], x[1] + 2 * x[1] * x[2], 1e-12, 1e-12);
  lt_check("dx[1]", dx[1], x[0] + x[0] * 2 * x[2], 1e-12, 1e-12);
  lt_check("dx[2]", dx[2], x[0] * 2 * x[1], 1e-12, 1e-12);
  return lt_done();
}

// CHECK: copy-untyped-kept.c:25:5: error: leantape: this copies memory that may hold pointers to active data, and nothing says where
// CHECK-NOT: PLEASE submit a bug report
