// An active double reinterpreted as integer bits (fabs by masking the sign).
// (At -O2 InstCombine turns the mask into llvm.fabs, which is differentiated
// normally, so this only runs at -O0.)
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>
#include <stdint.h>

double f(double x) {
  union {
    double d;
    uint64_t u;
  } v;
  v.d = x;
  v.u &= ~(1ull << 63);
  return v.d * 3.0;
}

double g(double x) { return __enzyme_autodiff((void *)f, x); }

// CHECK: reinterpret-bits.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: an active floating-point value is reinterpreted as bits
// CHECK-NOT: PLEASE submit a bug report
// CHECK-NOT: Stack dump
