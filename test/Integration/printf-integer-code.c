// Integer code and printf/puts inside the differentiated function: the side
// effects happen exactly once per __enzyme_autodiff call (forward pass
// only), and the integer results scale the active value without a
// derivative of their own.
// RUN: %ltclang -O0 %s -o %t.O0 -lm
// RUN: %t.O0 | FileCheck %s
// RUN: %ltclang -O2 %s -o %t.O2 -lm
// RUN: %t.O2 | FileCheck %s

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <stdio.h>

double f(double x, int n) {
  int k = (n * 3 + 1) ^ 2;              /* n = 2: 7 ^ 2 = 5 */
  unsigned m = ((unsigned)n << 4) | 3u; /* n = 2: 35 */
  printf("in f: k=%d m=%u\n", k, m);
  puts("in f: puts");
  return x * x * k + (double)(m % 8) * x; /* 35 % 8 = 3 */
}

int main(void) {
  double x = lt_vd(1.5);
  int n = lt_vi(2);
  printf("before\n");
  double g = __enzyme_autodiff((void *)f, x, n);
  printf("after\n");
  fflush(stdout);
  lt_check("grad", g, 2 * x * 5 + 3, 1e-12, 1e-14);
  return lt_done();
}

// CHECK: before
// CHECK-NEXT: in f: k=5 m=35
// CHECK-NEXT: in f: puts
// CHECK-NEXT: after
// CHECK-NOT: in f:
