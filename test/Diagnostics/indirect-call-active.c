// An indirect call on an active value whose callee cannot be in this
// module (no function of its type has its address taken here: the pointer
// comes from elsewhere). With such a function in the module the call is
// dispatched instead (Integration/indirect-calls.c).
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>
#include <math.h>

double f(double x, double (*h)(double)) { return h(x) * x; }

double g(double x, double (*h)(double)) {
  return __enzyme_autodiff((void *)f, x, enzyme_const, h);
}

// CHECK: indirect-call-active.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: indirect call on an active value, and no function of this module can be its callee
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
