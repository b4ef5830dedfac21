// An unmarked pointer to integers that reaches its integers through an
// accessor returning its argument (as std::array::operator[] does) is
// enzyme_const, also when clang writes TBAA in the new struct-path format
// (-Xclang -new-struct-path-tbaa, whose type nodes put the name third).
// Before, the walk that proves the pointer carries only integers stopped
// at the accessor's `ret` and could not read the new format's type names,
// so the parameter defaulted to enzyme_dup ("too few arguments: enzyme_dup
// parameter 2 ... needs a shadow pointer"; Enzyme's mincachechain3.ll).
// Reverse and forward mode against the analytic gradient and central
// differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O0 -Xclang -new-struct-path-tbaa %s -o %t.n0 -lm && %t.n0
// RUN: %ltclang -O2 -Xclang -new-struct-path-tbaa %s -o %t.n2 -lm && %t.n2
// RUN: %ltclang -O3 -Xclang -new-struct-path-tbaa %s -o %t.n3 -lm && %t.n3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) static long *slot(long *p, long i) { return p + i; }

/* x[k]^2 * w for k = idx[0] .. idx[1]-1, w = idx[2]; then idx[3] = k */
__attribute__((noinline)) static double part(const double *x, long *idx) {
  double s = 0;
  long k = *slot(idx, 0);
  for (; k < *slot(idx, 1); k++)
    s += x[k] * x[k] * (double)*slot(idx, 2);
  *slot(idx, 3) = k;
  return s;
}

double f(const double *x, long *idx) { return part(x, idx) + exp(x[0]); }

enum { N = 5 };
static long g_idx[4] = {1, 4, 3, 0};
static double fd_f(const double *x) { return f(x, g_idx); }

int main(void) {
  const double x0[N] = {0.25, -1.5, 0.75, 2.0, -0.5};
  double x[N], dx[N] = {0};
  lt_fill(x, x0, N);
  __enzyme_autodiff((void *)f, x, dx, g_idx);
  lt_check("the primal's integer store", g_idx[3], 4, 0, 0);
  for (int j = 0; j < N; j++) {
    double an = (j >= 1 && j < 4 ? 2 * x[j] * 3 : 0) + (j == 0 ? exp(x[0]) : 0);
    lt_grad("integers through an accessor: dx", x[j], dx[j], an,
            lt_fd_arr(fd_f, x, N, j), 1e-13, 1e-6);
  }
  double t[N] = {0, 0, 0, 1, 0};
  double tf = __enzyme_fwddiff((void *)f, x, t, g_idx);
  lt_check("forward along e_3", tf, 2 * x[3] * 3, 1e-13, 0);
  return lt_done();
}
