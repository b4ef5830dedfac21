// Loads through a pointer in address space 1 that a later store overwrites:
// the reverse pass needs the loaded values. The undo log, which re-reads
// plain-pointer loads by putting overwritten values back, saved the store's
// address with a helper that takes an address space 0 pointer, and the
// generated code did not verify ("internal error ... generated code does
// not verify"; Enzyme's test/Enzyme/ReverseMode/addrbug.ll). Stores outside
// address space 0 are not logged: the loads are taped. Gradient of a
// nested sum of squares, then in[0] = 0, against the analytic gradient and
// central differences; the store happens.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

#define AS1 __attribute__((address_space(1)))

enum { N = 10, M = 6 };

/* sum_i M x_i^2 * (i + 1), each term added in an inner loop; then in[0] = 0 */
double g(AS1 double *in, int n, int m) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      s += in[i] * in[i] * (i + 1);
  in[0] = 0;
  return s;
}

static double fd_g(const double *x) {
  double y[N];
  for (int i = 0; i < N; i++)
    y[i] = x[i];
  return g((AS1 double *)y, N, M);
}

int main(void) {
  double x0[N], x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x0[i] = 0.5 + 0.25 * i * (i % 3 ? 1 : -1);
  lt_fill(x, x0, N);
  __enzyme_autodiff((void *)g, (AS1 double *)x, (AS1 double *)dx, lt_vi(N), lt_vi(M));
  lt_check("in[0] overwritten", x[0], 0, 0, 0);
  for (int i = 0; i < N; i++)
    lt_grad("address space 1, overwritten: dx", x0[i], dx[i],
            2.0 * M * x0[i] * (i + 1),
            lt_fd_arr(fd_g, x0, N, i), 1e-13, 1e-6);
  return lt_done();
}
