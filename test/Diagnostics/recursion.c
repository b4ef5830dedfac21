// Mutual recursion in the differentiated call graph (non-tail calls, so -O2
// cannot turn it into a loop).
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>

#include <math.h>

double g(double x, int n);

__attribute__((noinline)) double h(double x, int n) {
  if (n <= 0)
    return x;
  return sin(x) * g(x, n - 1);
}

__attribute__((noinline)) double g(double x, int n) { return h(x * 2.0, n) * x; }

double entry(double x, int n) {
  return __enzyme_autodiff((void *)g, x, n);
}

// The location is the offending instruction or the call; either is fine.
// CHECK: recursion.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: {{.*}}recursive
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
