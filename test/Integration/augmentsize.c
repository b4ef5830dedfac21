// __enzyme_augmentsize folds to a plausible tape header size (the layout is
// not fixed, so only its range and consistency are checked), and no call to
// it survives into the IR.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O0 %s -S -emit-llvm -o - | FileCheck %s
// RUN: %ltclang -O2 %s -S -emit-llvm -o - | FileCheck %s
// CHECK-NOT: call {{.*}}@__enzyme_augmentsize
// CHECK-NOT: call {{.*}}@__enzyme_augmentfwd
// CHECK-NOT: call {{.*}}@__enzyme_reverse

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

double f(double *x) {
  double a = x[0];
  x[0] = sin(a) * x[1];
  return a * x[0];
}

int main(void) {
  double x[2] = {lt_vd(0.5), lt_vd(2.0)}, dx[2] = {0, 0};
  size_t s1 = __enzyme_augmentsize((void *)f, enzyme_dup, x, dx);
  size_t s2 = __enzyme_augmentsize((void *)f, enzyme_dup, x, dx);
  lt_check("size plausible", s1 < (size_t)1 << 20, 1, 0, 0);
  lt_check("size deterministic", (double)s1, (double)s2, 0, 0);

  /* the split pair still works next to it */
  double a = x[0], b = x[1];
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx);
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, 1.0, tape);
  /* ret = a sin(a) b ; x0' = sin(a) b (seed 0) */
  lt_check("d a", dx[0], (sin(a) + a * cos(a)) * b, 1e-12, 1e-13);
  lt_check("d b", dx[1], a * sin(a), 1e-12, 1e-13);
  return lt_done();
}
