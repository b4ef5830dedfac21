// Reverse loops that sum into one adjoint (a scalar's across a loop,
// gemm's dA[i][k] over j, trisolv's x[j] over i) and reverse loops of
// stencils, with plain and restrict pointers (issue 17, item 4). Adjoint
// sums are reassociable (reassoc nsz, lib/base/util.c) and R's shadow
// accesses are apart from its primal re-loads (gen/scopes.c), so at -O2
// these loops may become vector reductions: the gradients must stay those
// of the program. Each kernel's objective is its result plus a weighted
// sum of every array after the call; the gradient (shadows seeded with
// the weights) is checked against central differences, also with gemm
// called in place (C is B), axpy with y == x and a restrict dot product
// of x with itself (restrict allows read-only arrays to overlap, so the
// shadows must not be taken apart), at every level. Sizes
// are odd so that vector loops have remainders.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O3 %s -o %t3 -lm && %t3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

#define NI __attribute__((noinline))
#define N 9
#define NV 13

NI void axpy_restrict(double a, const double *restrict x, double *restrict y, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
NI void axpy_plain(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
/* restrict, read only: called as rdot(x, x) (legal C), dx for both */
NI double rdot(const double *restrict x, const double *restrict y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}
NI double wdot(const double *x, const double *w, double a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a * w[i] * x[i];
  return s;
}
#define GEMM_BODY                                                             \
  for (int i = 0; i < n; i++)                                                 \
    for (int j = 0; j < n; j++)                                               \
      C[i * n + j] = 0;                                                       \
  for (int i = 0; i < n; i++)                                                 \
    for (int k = 0; k < n; k++)                                               \
      for (int j = 0; j < n; j++)                                             \
        C[i * n + j] += A[i * n + k] * B[k * n + j];                          \
  double s = 0;                                                               \
  for (int i = 0; i < n * n; i++)                                             \
    s += C[i] * C[i];                                                         \
  return s;
NI double gemm_plain(double *C, const double *A, const double *B, int n) { GEMM_BODY }
NI double gemm_restrict(double *restrict C, const double *restrict A,
                        const double *restrict B, int n) {
  GEMM_BODY
}
#define JACOBI_BODY                                                           \
  for (int t = 0; t < T; t++) {                                               \
    for (int i = 1; i < n - 1; i++)                                           \
      for (int j = 1; j < n - 1; j++)                                         \
        B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1] + A[i * n + j + 1] + \
                              A[(i + 1) * n + j] + A[(i - 1) * n + j]);       \
    for (int i = 1; i < n - 1; i++)                                           \
      for (int j = 1; j < n - 1; j++)                                         \
        A[i * n + j] = 0.2 * (B[i * n + j] + B[i * n + j - 1] + B[i * n + j + 1] + \
                              B[(i + 1) * n + j] + B[(i - 1) * n + j]);       \
  }
NI void jacobi_plain(double *A, double *B, int n, int T) { JACOBI_BODY }
NI void jacobi_restrict(double *restrict A, double *restrict B, int n, int T) { JACOBI_BODY }
#define TRISOLV_BODY                                                          \
  for (int i = 0; i < n; i++) {                                               \
    x[i] = b[i];                                                              \
    for (int j = 0; j < i; j++)                                               \
      x[i] -= L[i * n + j] * x[j];                                            \
    x[i] = x[i] / L[i * n + i];                                               \
  }
NI void trisolv_plain(const double *L, double *x, const double *b, int n) { TRISOLV_BODY }
NI void trisolv_restrict(const double *restrict L, double *restrict x,
                         const double *restrict b, int n) {
  TRISOLV_BODY
}

/* The kernels on one parameter vector q; dq == NULL: the primal, else the
 * gradient into dq (which holds the weights: the seeds). Returns the
 * kernel's result, or (gradient) the enzyme_out scalar's derivative. */
enum { AXPY_R, AXPY_P, AXPY_ALIAS, WDOT, RDOT_SAME, GEMM_P, GEMM_R, GEMM_INPLACE, JAC_P, JAC_R,
       TRI_P, TRI_R, NK };
static const char *name[NK] = {"axpy restrict", "axpy plain", "axpy y == x", "wdot",
                               "restrict dot(x, x)",
                               "gemm plain", "gemm restrict", "gemm in place",
                               "jacobi plain", "jacobi restrict", "trisolv plain",
                               "trisolv restrict"};
static const int np[NK] = {2 * NV + 1, 2 * NV + 1, NV + 1, 2 * NV + 1, NV, 3 * N * N, 3 * N * N,
                           2 * N * N, 2 * N * N, 2 * N * N, N * N + 2 * N, N * N + 2 * N};
static const int nout[NK] = {0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0}; /* trailing out scalars */

#define AXPY(f)                                                               \
  if (!dq) {                                                                  \
    f(q[2 * NV], q, q + NV, nv);                                              \
    return 0;                                                                 \
  }                                                                           \
  dq[2 * NV] = 0;                                                             \
  return __enzyme_autodiff((void *)f, enzyme_out, q[2 * NV], enzyme_dup, q, dq, \
                           enzyme_dup, q + NV, dq + NV, enzyme_const, nv);
#define GEMM(f)                                                               \
  if (!dq)                                                                    \
    return f(q + 2 * N * N, q, q + N * N, n);                                 \
  __enzyme_autodiff((void *)f, enzyme_dup, q + 2 * N * N, dq + 2 * N * N,     \
                    enzyme_dup, q, dq, enzyme_dup, q + N * N, dq + N * N,     \
                    enzyme_const, n);                                         \
  return 0;
#define JACOBI(f)                                                             \
  if (!dq) {                                                                  \
    f(q, q + N * N, n, T);                                                    \
    return 0;                                                                 \
  }                                                                           \
  __enzyme_autodiff((void *)f, enzyme_dup, q, dq, enzyme_dup, q + N * N,      \
                    dq + N * N, enzyme_const, n, enzyme_const, T);            \
  return 0;
#define TRISOLV(f) /* L, x, b */                                              \
  if (!dq) {                                                                  \
    f(q, q + N * N, q + N * N + N, n);                                        \
    return 0;                                                                 \
  }                                                                           \
  __enzyme_autodiff((void *)f, enzyme_dup, q, dq, enzyme_dup, q + N * N,      \
                    dq + N * N, enzyme_dup, q + N * N + N, dq + N * N + N,    \
                    enzyme_const, n);                                         \
  return 0;

static double run(int k, double *q, double *dq) {
  int n = lt_vi(N), nv = lt_vi(NV), T = lt_vi(2);
  switch (k) {
  case AXPY_R:
    AXPY(axpy_restrict)
  case AXPY_P:
    AXPY(axpy_plain)
  case AXPY_ALIAS:
    if (!dq) {
      axpy_plain(q[NV], q, q, nv);
      return 0;
    }
    dq[NV] = 0;
    return __enzyme_autodiff((void *)axpy_plain, enzyme_out, q[NV], enzyme_dup, q, dq,
                             enzyme_dup, q, dq, enzyme_const, nv);
  case WDOT:
    if (!dq)
      return wdot(q, q + NV, q[2 * NV], nv);
    dq[2 * NV] = 0;
    return __enzyme_autodiff((void *)wdot, enzyme_dup, q, dq, enzyme_dup, q + NV, dq + NV,
                             enzyme_out, q[2 * NV], enzyme_const, nv);
  case RDOT_SAME:
    if (!dq)
      return rdot(q, q, nv);
    return __enzyme_autodiff((void *)rdot, enzyme_dup, q, dq, enzyme_dup, q, dq, enzyme_const,
                             nv);
  case GEMM_P:
    GEMM(gemm_plain)
  case GEMM_R:
    GEMM(gemm_restrict)
  case GEMM_INPLACE: /* C is B */
    if (!dq)
      return gemm_plain(q + N * N, q, q + N * N, n);
    __enzyme_autodiff((void *)gemm_plain, enzyme_dup, q + N * N, dq + N * N, enzyme_dup, q,
                      dq, enzyme_dup, q + N * N, dq + N * N, enzyme_const, n);
    return 0;
  case JAC_P:
    JACOBI(jacobi_plain)
  case JAC_R:
    JACOBI(jacobi_restrict)
  case TRI_P:
    TRISOLV(trisolv_plain)
  default:
    TRISOLV(trisolv_restrict)
  }
}

static double wt(int i) { return 0.3 + 0.05 * (i % 7) - 0.02 * (i % 3); }

/* the objective: the result plus sum_i wt(i) q_i after the call (the
 * enzyme_out scalars, last, are not memory the call writes: weight 0) */
static double objective(int k, const double *p) {
  double q[3 * N * N];
  memcpy(q, p, np[k] * sizeof(double));
  double L = run(k, q, NULL);
  for (int i = 0; i < np[k] - nout[k]; i++)
    L += (k <= AXPY_ALIAS && i == np[k] - 1 ? 0 : wt(i)) * q[i];
  return L;
}

static double init(int k, int i) {
  double v = -0.4 + 0.9 * ((i * 37) % 17) / 17.0;
  if ((k == TRI_P || k == TRI_R) && i < N * N && i % (N + 1) == 0)
    v = 2 + 0.1 * i / N; /* a well-conditioned diagonal */
  return lt_vd(v);
}

int main(void) {
  for (int k = 0; k < NK; k++) {
    double p[3 * N * N], q[3 * N * N], dq[3 * N * N];
    for (int i = 0; i < np[k]; i++)
      p[i] = init(k, i);
    memcpy(q, p, sizeof q);
    for (int i = 0; i < np[k]; i++)
      dq[i] = (k <= AXPY_ALIAS && i == np[k] - 1) ? 0 : wt(i);
    double dout = run(k, q, dq);
    if (k <= AXPY_ALIAS)
      dq[np[k] - 1] = dout;
    if (k == WDOT)
      dq[np[k] - 1] = dout;
    for (int i = 0; i < np[k]; i++) {
      double xp[3 * N * N], xm[3 * N * N], h = 1e-6;
      memcpy(xp, p, sizeof xp);
      memcpy(xm, p, sizeof xm);
      xp[i] += h;
      xm[i] -= h;
      char w[80];
      snprintf(w, sizeof w, "%s d/dp[%d]", name[k], i);
      lt_check(w, dq[i], (objective(k, xp) - objective(k, xm)) / (xp[i] - xm[i]), 1e-6, 1e-6);
    }
  }
  return lt_done();
}
