// An enzyme_* marker global the plugin does not know is an error, not an
// ordinary int argument.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// The error points at the __enzyme_autodiff call (CHECK just above it).

#include <leantape.h>

extern int enzyme_bogus;

double f(double x) { return x * x; }

double g(double x) {
  // CHECK: unknown-marker.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}unknown marker 'enzyme_bogus'
  return __enzyme_autodiff((void *)f, enzyme_bogus, x);
}
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
