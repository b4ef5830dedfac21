// A call to an external function with no derivative rule on an active
// value; the message names it and suggests enzyme_const or a custom gradient.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>

extern double mystery(double);

double f(double x) { return mystery(x) * x; }

double g(double x) {
  return __enzyme_autodiff((void *)f, x);
}

// The location is the offending instruction or the call; either is fine.
// CHECK: no-derivative-rule.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: {{.*}}no derivative rule for 'mystery'
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
