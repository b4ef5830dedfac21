// BLAS operands in the function's own local arrays: under
// __enzyme_autodiff the forward and reverse passes share their frame
// (prep/frame.c), so a local matrix nothing overwrites after the call is
// read again by the rule, not copied (the record of the call copies
// nothing); one the program overwrites after the call is still copied.
// Gradients against central differences at -O0 and -O2.
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2
// RUN: %ltclang -O2 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: derivative of 'kept' (combined mode)
// CHECK-NOT: copies argument
// CHECK: remark: derivative of 'overwritten' (combined mode): {{.*}}record of 'cblas_dgemm' (line {{[0-9]+}}): copies argument 8 (may be overwritten later)

#include "check.h"
#include <cblas.h>
#include <leantape.h>
#include <math.h>
#include <string.h>

#define NI __attribute__((noinline))

/* C = A B for local A, B made from x; the loss sum C^2 */
NI double kept(const double *x) {
  double A[9], B[9], C[9], s = 0;
  for (int i = 0; i < 9; i++) {
    A[i] = 2 * x[i] + 0.5;
    B[i] = sin(x[8 - i]);
  }
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 3, 3, 1.0, A, 3, B, 3, 0.0, C, 3);
  for (int i = 0; i < 9; i++)
    s += C[i] * C[i];
  return s;
}

/* the same, then A overwritten with C and multiplied again */
NI double overwritten(const double *x) {
  double A[9], B[9], C[9], D[9], s = 0;
  for (int i = 0; i < 9; i++) {
    A[i] = 2 * x[i] + 0.5;
    B[i] = sin(x[8 - i]);
  }
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 3, 3, 1.0, A, 3, B, 3, 0.0, C, 3);
  for (int i = 0; i < 9; i++)
    A[i] = 0.1 * C[i];
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, 3, 3, 3, 1.0, A, 3, B, 3, 0.0, D, 3);
  for (int i = 0; i < 9; i++)
    s += C[i] * C[i] + D[i] * D[i];
  return s;
}

#define GRAD(f)                                                                  \
  do {                                                                           \
    double x[9], dx[9] = {0};                                                    \
    for (int k = 0; k < 9; k++)                                                  \
      x[k] = 0.1 + 0.09 * k;                                                     \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx);                             \
    for (int k = 0; k < 9; k++) {                                                \
      double h = 1e-6, xk = x[k], fp, fm;                                        \
      x[k] = xk + h;                                                             \
      fp = f(x);                                                                 \
      x[k] = xk - h;                                                             \
      fm = f(x);                                                                 \
      x[k] = xk;                                                                 \
      char what[32];                                                             \
      snprintf(what, sizeof what, "%s d[%d]", #f, k);                            \
      lt_check(what, dx[k], (fp - fm) / (2 * h), 1e-6, 1e-9);                    \
    }                                                                            \
  } while (0)

int main(void) {
  GRAD(kept);
  GRAD(overwritten);
  return lt_done();
}
