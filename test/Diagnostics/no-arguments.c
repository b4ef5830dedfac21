// __enzyme_autodiff called with no arguments at all.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

double __enzyme_autodiff();

double g(void) { return __enzyme_autodiff(); }

// CHECK: no-arguments.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: first argument must be a function
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
