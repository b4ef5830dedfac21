// enzyme_not_overwritten changes what the tape holds, so both halves of a
// split-mode pair must agree on it: given to __enzyme_augmentfwd only (a
// call between them writes memory, so the pair does not count as
// unchanged by itself), the reverse call is an error that says so.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s

#include <leantape.h>

double f(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}
void touch(double *);

void g(double *x, double *dx, long n) {
  void *t = __enzyme_augmentfwd((void *)f, enzyme_not_overwritten, enzyme_dup, x, dx,
                                enzyme_const, n);
  touch(dx);
  // CHECK: split-not-overwritten-mismatch.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: this tape was made by __enzyme_augmentfwd of 'f' with a different function or different activity markers
  __enzyme_reverse((void *)f, enzyme_dup, x, dx, enzyme_const, n, 1.0, t);
}
