// The tape of __enzyme_augmentfwd has the layout of one function and one set
// of activity markers; __enzyme_reverse with other markers would read it
// wrongly (silently losing dy), so it is an error.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: split-activity-mismatch.c:[[@LINE+12]]:{{[0-9]+}}: error: leantape: this tape was made by __enzyme_augmentfwd of 'f'
// CHECK-NOT: Stack dump
// CHECK-NOT: PLEASE submit a bug report
#include <leantape.h>

double f(double x, double *y) { return x * y[0] * y[0]; }

typedef struct { double dx; } G;
G __enzyme_reverse_g(void *, ...);

double g(double x, double *y, double *dy) {
  void *t = __enzyme_augmentfwd((void *)f, x, enzyme_const, y);
  G r = __enzyme_reverse_g((void *)f, x, enzyme_dup, y, dy, 1.0, t);
  return r.dx;
}
