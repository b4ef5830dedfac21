// A cycle entered at two places (goto into the middle of a loop) is
// irreducible; the plugin reports it instead of guessing.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: irreducible-loop.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: irreducible control flow
// CHECK-NOT: Stack dump
// CHECK-NOT: PLEASE submit a bug report
#include <leantape.h>

double f(double x, int k) {
  double s = x;
  if (k > 0)
    goto b;
a:
  s = s * x;
  if (s > 100)
    return s;
b:
  s = s + 1;
  goto a;
}

double g(double x, int k) { return __enzyme_autodiff((void *)f, x, k); }
