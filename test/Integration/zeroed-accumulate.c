// C = 0 (a memset at -O2, one per row), then C += A B in a loop nest,
// with plain pointers: the undo log re-reads A and B through a run-time
// test instead of taping them per innermost iteration (before: the row
// memsets and the nest's stores to C were one write class, unloggable, so
// 16 bytes per iteration were taped; analysis/overwrite.c keeps calls and
// intrinsics that write in classes of their own). The gradient of
// sum (AB)_ij^2 against central differences with the arrays apart, and
// called in place (C is B: the nest then reads the zeros it wrote, and the
// log must be on), at every level; the remark shows the empty cache.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O3 %s -o %t3 -lm && %t3
// RUN: %ltclang -O2 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: loop (depth 3) in 'prod_sq': caches nothing per iteration

#include "check.h"
#include "testutil.h"
#include <leantape.h>

#define M 3
double prod_sq(const double *A, const double *B, double *C, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      C[i * n + j] = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += C[i] * C[i];
  return s;
}

static int inplace;
/* p = (A, B): the objective as the test calls it */
static double f(const double *p) {
  double q[2 * M * M], C[M * M];
  memcpy(q, p, sizeof q);
  return prod_sq(q, q + M * M, inplace ? q + M * M : C, M);
}

/* central difference in p[i] (2 M^2 entries: more than lt_fd_arr takes) */
static double fd(const double *p, int i) {
  double xp[2 * M * M], xm[2 * M * M], h = 1e-6;
  memcpy(xp, p, sizeof xp);
  memcpy(xm, p, sizeof xm);
  xp[i] += h;
  xm[i] -= h;
  return (f(xp) - f(xm)) / (2 * h);
}

int main(void) {
  for (inplace = 0; inplace < 2; inplace++) {
    double p[2 * M * M], q[2 * M * M], dq[2 * M * M] = {0}, C[M * M], dC[M * M] = {0};
    for (int i = 0; i < 2 * M * M; i++)
      p[i] = lt_vd(0.3 + 0.17 * i - 0.02 * i * i);
    memcpy(q, p, sizeof q);
    __enzyme_autodiff((void *)prod_sq, enzyme_dup, q, dq, enzyme_dup, q + M * M, dq + M * M,
                      enzyme_dup, inplace ? q + M * M : C, inplace ? dq + M * M : dC,
                      enzyme_const, lt_vi(M));
    for (int i = 0; i < 2 * M * M; i++) {
      char w[80];
      snprintf(w, sizeof w, "%s d/dp[%d]", inplace ? "in place (C is B)" : "apart", i);
      lt_check(w, dq[i], fd(p, i), 1e-6, 1e-7);
    }
  }
  return lt_done();
}
