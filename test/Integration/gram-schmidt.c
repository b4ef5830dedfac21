// Modified Gram-Schmidt in place over rows of a constant length, with
// plain pointers (issue 17). Two things the gradient got wrong in speed,
// never in value, are checked here in value:
//  - prep's pipeline ends in lcssa, and a PHI that merges one pointer (the
//    column q[.][k] after the norm loop) hid the parameter under it: no
//    run-time test could be built and the gradient had no version for
//    arrays apart (PolyBench's gramschmidt: 140 times its primal). Both
//    versions run here: distinct arrays, and q in the columns of a's rows
//    right of a's own (the same arithmetic; the byte ranges overlap, the
//    test fails and the general version runs);
//  - A[i][j], read in one i loop and overwritten in the next, is taped (8
//    bytes a read) instead of undone by the log (24 bytes a write).
// The objective is a weighted sum of everything the kernel leaves in a, r
// and q; its gradient with respect to the initial a is checked against
// central differences at -O0..-O3. Remarks: ReverseMode/gram-schmidt-plan.c.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O1 %s -o %t1 -lm && %t1
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O3 -march=x86-64-v3 %s -o %t3 -lm && %t3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

#define C 9 /* row length; m x n used, n <= C */
#define M 7
#define NI __attribute__((noinline))

NI void mgs(int m, int n, double (*a)[C], double (*r)[C], double (*q)[C]) {
  for (int k = 0; k < n; k++) {
    double s = 0;
    for (int i = 0; i < m; i++)
      s += a[i][k] * a[i][k];
    r[k][k] = sqrt(s);
    for (int i = 0; i < m; i++)
      q[i][k] = a[i][k] / r[k][k];
    for (int j = k + 1; j < n; j++) {
      r[k][j] = 0;
      for (int i = 0; i < m; i++)
        r[k][j] += q[i][k] * a[i][j];
      for (int i = 0; i < m; i++)
        a[i][j] -= q[i][k] * r[k][j];
    }
  }
}

static double A[M][C], R[M][C], Q[M][C], WA[M][C], WR[M][C], WQ[M][C];
static int n, shared; /* shared: q is columns n.. of a's rows */

static double objective(const double *x) {
  memcpy(A, x, sizeof A);
  memset(R, 0, sizeof R);
  memset(Q, 0, sizeof Q);
  mgs(M, n, A, R, shared ? (double(*)[C]) & A[0][n] : Q);
  double s = 0;
  for (int i = 0; i < M; i++)
    for (int j = 0; j < C; j++)
      s += WA[i][j] * A[i][j] + WR[i][j] * R[i][j] + (shared ? 0 : WQ[i][j] * Q[i][j]);
  return s;
}

static void gradient(const double *x, double *g) {
  static double dA[M][C], dR[M][C], dQ[M][C];
  memcpy(A, x, sizeof A);
  memset(R, 0, sizeof R);
  memset(Q, 0, sizeof Q);
  memcpy(dA, WA, sizeof dA);
  memcpy(dR, WR, sizeof dR);
  memcpy(dQ, WQ, sizeof dQ);
  if (shared)
    __enzyme_autodiff((void *)mgs, enzyme_const, M, enzyme_const, n, enzyme_dup, A, dA,
                      enzyme_dup, R, dR, enzyme_dup, &A[0][n], &dA[0][n]);
  else
    __enzyme_autodiff((void *)mgs, enzyme_const, M, enzyme_const, n, enzyme_dup, A, dA,
                      enzyme_dup, R, dR, enzyme_dup, Q, dQ);
  memcpy(g, dA, sizeof dA);
}

static void run(int nn, int sh) {
  n = nn;
  shared = sh;
  static double x[M * C], g[M * C];
  for (int i = 0; i < M * C; i++) {
    x[i] = lt_vd(1.0 + 0.6 * sin(1.3 * i + nn) + (i % C == i / C ? 2.0 : 0.0));
    ((double *)WA)[i] = lt_vd(0.3 + 0.2 * cos(0.7 * i));
    ((double *)WR)[i] = lt_vd(0.5 + 0.25 * sin(0.9 * i + 1));
    ((double *)WQ)[i] = lt_vd(0.4 - 0.3 * cos(1.1 * i + 2));
  }
  gradient(x, g);
  for (int k = 0; k < M * C; k++) {
    double fd = lt_fd_at(objective, x, k);
    char what[96];
    snprintf(what, sizeof what, "mgs n=%d %s d/da[%d][%d]", nn, sh ? "q in a" : "apart", k / C,
             k % C);
    lt_check(what, g[k], fd, 1e-6, 1e-6);
  }
}

int main(void) {
  int sizes[] = {1, 2, 4, 7};
  for (int s = 0; s < 4; s++)
    for (int sh = 0; sh < 2 && !(sh && 2 * sizes[s] > C); sh++)
      run(sizes[s], sh);
  return lt_done();
}
