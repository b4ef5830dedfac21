// Nested reverse mode four levels deep, with Enzyme's __enzyme_iter hint:
// exp(x) as a Taylor series whose length __enzyme_iter(14, 2) grows by 2
// each time the code around it is differentiated, so that every
// derivative keeps the same accuracy (Enzyme adds the second argument to
// the first in each clone it differentiates; uncalled for derivatives it
// is the first argument). The terms divide by a recursive integer
// factorial: a call that takes and returns integers and writes nothing
// is inactive (no derivative function, no tape: in nested code the tape
// of a recursion was the crash). Reverse over reverse over reverse over
// reverse, at -O0 through -O3 (-O2 threads the inner reverse loops into
// cycles with two entries: made natural again in the canonical clone).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %ltclang -O2 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-NOT: __enzyme_iter
// CHECK-NOT: define {{.*}}@factorial.lt.

#include <stdint.h>

#include "check.h"
#include <leantape.h>

uint64_t __enzyme_iter(uint64_t, uint64_t);

__attribute__((noinline)) uint64_t factorial(uint64_t n) {
  return n == 0 ? 1 : n * factorial(n - 1);
}

/* sum_{i <= N} x^i / i!, and how many terms it took */
static uint64_t terms;
double expo(double x) {
  uint64_t n = __enzyme_iter(14, 2);
  double s = 0, p = 1;
  for (uint64_t i = 0; i <= n; i++) {
    s += p / (double)factorial(i);
    p *= x;
  }
  terms = n;
  return s;
}

double d1(double x) { return __enzyme_autodiff((void *)expo, x); }
double d2(double x) { return __enzyme_autodiff((void *)d1, x); }
double d3(double x) { return __enzyme_autodiff((void *)d2, x); }
double d4(double x) { return __enzyme_autodiff((void *)d3, x); }

int main(void) {
  double x = 0.6;
  /* the primal keeps 14 terms: the series' own truncation */
  double s14 = 0, p = 1;
  for (int i = 0; i <= 14; i++, p *= x)
    s14 += p / (double)factorial((uint64_t)i);
  lt_check("expo (hint unstepped)", expo(x), s14, 1e-15, 0);
  lt_check("14 terms", (double)terms, 14, 0, 0);
  /* each level differentiates one more time and adds two terms: the
   * derivatives stay as accurate as the primal */
  lt_check("d1", d1(x), exp(x), 1e-12, 0);
  lt_check("d2", d2(x), exp(x), 1e-12, 0);
  lt_check("d3", d3(x), exp(x), 1e-12, 0);
  lt_check("d4", d4(x), exp(x), 1e-12, 0);
  return lt_done();
}
