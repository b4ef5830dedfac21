// Inline assembly on an active value has no derivative.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>

double f(double x) {
  __asm__("" : "+x"(x));
  return x * x;
}

double g(double x) {
  return __enzyme_autodiff((void *)f, x);
}

// The location is the offending instruction or the call; either is fine.
// CHECK: inline-asm.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: {{.*}}inline assembly
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
