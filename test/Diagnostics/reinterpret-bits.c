// An active double reinterpreted as integer bits (its low mantissa bits
// cleared: a truncation with no derivative Leantape can give). Masking only
// the sign bit is fabs and differentiates (sse2-integer-shuffles.c), so
// this masks more. At -O0; at -O2 the same is reported.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>
#include <stdint.h>

double f(double x) {
  union {
    double d;
    uint64_t u;
  } v;
  v.d = x;
  v.u &= ~0xFFFFull;
  return v.d * 3.0;
}

double g(double x) { return __enzyme_autodiff((void *)f, x); }

// CHECK: reinterpret-bits.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: an active floating-point value is reinterpreted as bits
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
