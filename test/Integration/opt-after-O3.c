// The pass run by opt on IR that clang has already optimised (-O3
// -ffast-math: loops vectorised, their sums, products and maxima ended by
// llvm.vector.reduce.fadd / fmul / fmax, which were "no derivative rule";
// prep/reduce.c writes them out lane by lane), then linked. Reverse and
// forward mode, against central differences.
// RUN: %clang -O3 -ffast-math -S -emit-llvm %s -o %t.ll
// RUN: %ltopt -passes=leantape %t.ll -o %t.bc
// RUN: %clang -O2 %t.bc -o %t -lm && %t
// The same source through -fpass-plugin, as a reference
// RUN: %ltclang -O0 %s -o %t.p0 -lm && %t.p0
// RUN: %ltclang -O3 -ffast-math %s -o %t.p -lm && %t.p

#include "check.h"
#include <leantape.h>

double __enzyme_fwddiff(void *, ...);

#define N 37

double f(const double *x, int n) {
  double s = 0.5, m = -1e300, p = 1.0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    m = x[i] > m ? x[i] : m;
  }
  for (int i = 0; i < 8; i++)
    p *= 1.0 + 0.1 * x[i];
  return s + m * p;
}

static double fN(const double *x) { return f(x, N); }

int main(void) {
  double x[N], dx[N] = {0}, t[N];
  for (int i = 0; i < N; i++)
    x[i] = sin(1.7 * i + 0.3), t[i] = 0.01 * (i % 5) - 0.02; /* no ties */
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, N);
  double tan = __enzyme_fwddiff((void *)f, x, t, enzyme_const, N), want = 0;
  for (int k = 0; k < N; k++) {
    char what[16];
    double fd = lt_fd_at(fN, x, k);
    snprintf(what, sizeof what, "dx[%d]", k);
    lt_check(what, dx[k], fd, 1e-6, 1e-8);
    want += fd * t[k];
  }
  lt_check("tangent", tan, want, 1e-6, 1e-8);
  return lt_done();
}
