// A loop in the differentiated function (not supported yet).
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>

double f(double x, int n) {
  double s = 0.0;
  for (int i = 0; i < n; i++)
    s = s * x + 1.0;
  return s;
}

double g(double x, int n) {
  return __enzyme_autodiff((void *)f, x, n);
}

// The location is the offending instruction or the call; either is fine.
// CHECK: loop.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: {{.*}}loops are not supported yet
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
