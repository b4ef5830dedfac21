// Split mode: printf in the differentiated function runs in the forward half
// (__enzyme_augmentfwd) and not again in the reverse half.
// RUN: %ltclang -O0 %s -o %t.O0 -lm
// RUN: %t.O0 | FileCheck %s
// RUN: %ltclang -O2 %s -o %t.O2 -lm
// RUN: %t.O2 | FileCheck %s

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <stdio.h>

/* f = x0^2 x1 ; d0 = 2 x0 x1, d1 = x0^2 */
double f(const double *x) {
  printf("in f: %d\n", (int)(x[1] * 10.0));
  return x[0] * x[0] * x[1];
}

int main(void) {
  double x[2] = {lt_vd(1.2), lt_vd(0.3)};
  double dx[2] = {0, 0};
  printf("before fwd\n");
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx);
  printf("between\n");
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, 1.0, tape);
  printf("after rev\n");
  fflush(stdout);
  lt_check("d0", dx[0], 2 * x[0] * x[1], 1e-12, 1e-14);
  lt_check("d1", dx[1], x[0] * x[0], 1e-12, 1e-14);
  return lt_done();
}

// CHECK: before fwd
// CHECK-NEXT: in f: 3
// CHECK-NEXT: between
// CHECK-NEXT: after rev
// CHECK-NOT: in f:
