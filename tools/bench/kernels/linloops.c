/* linloops.c: loop nests whose reverse loops sum into one adjoint or
 * update arrays in place (issue 17, item 4): gemm with a stored product
 * (C = 0; C += A B, i k j order; objective sum C^2), a 2-D Jacobi stencil
 * time loop (double-buffered, in place) and a lower-triangular solve, each
 * with restrict pointers and a _plain twin.
 * Included by tools/bench/kernels.c (the table of every family) with
 * -DBENCH_LINLOOPS (run.sh): their tape reports differ between -O0 and
 * -O2 (jacobi2d caches 4 bytes per iteration at -O0, none at -O2;
 * trisolv_plain none at -O0, 8 bytes at -O2; gemm's zeroing loop is a
 * memset at -O2), which test/ReverseMode/tape-same-at-every-level.c would
 * report; it compiles kernels.c without them until that is fixed. */
#include "harness.h"

#define GEMM_N 64
static double LG_P[2 * GEMM_N * GEMM_N], LG_dP[2 * GEMM_N * GEMM_N], LG_C[GEMM_N * GEMM_N], LG_dC[GEMM_N * GEMM_N];
static int lg_n = GEMM_N;

#define GEMM_SQ_BODY                                                           \
  for (int i = 0; i < n; i++)                                                  \
    for (int j = 0; j < n; j++)                                                \
      C[i * n + j] = 0;                                                        \
  for (int i = 0; i < n; i++)                                                  \
    for (int k = 0; k < n; k++)                                                \
      for (int j = 0; j < n; j++)                                              \
        C[i * n + j] += A[i * n + k] * B[k * n + j];                           \
  double s = 0;                                                                \
  for (int i = 0; i < n * n; i++)                                              \
    s += C[i] * C[i];                                                          \
  return s;
#if ALL || defined(ONE_gemm_sq)
KERNEL double gemm_sq_k(double *restrict C, const double *restrict A,
                        const double *restrict B, int n) {
  GEMM_SQ_BODY
}
#endif
#if ALL || defined(ONE_gemm_sq_plain)
KERNEL double gemm_sq_plain_k(double *C, const double *A, const double *B, int n) {
  GEMM_SQ_BODY
}
#endif
static double *gemm_param(void) { return LG_P; }
static void gemm_setup(void) { fill(LG_P, 2 * GEMM_N * GEMM_N, -1, 1, 31); }
/* C's shadow is zero before and after each gradient (C is set before it
 * is read, and the reverse of that zeroes dC) */
#if ALL || defined(ONE_gemm_sq)
SCALAR_KERNEL(gemm_sq, LG_P, LG_dP, 2 * GEMM_N * GEMM_N, (LG_C, LG_P, LG_P + GEMM_N * GEMM_N, lg_n),
              enzyme_dup, LG_C, LG_dC, enzyme_dup, LG_P, LG_dP, enzyme_dup,
              LG_P + GEMM_N * GEMM_N, LG_dP + GEMM_N * GEMM_N, enzyme_const, lg_n)
#endif
#if ALL || defined(ONE_gemm_sq_plain)
SCALAR_KERNEL(gemm_sq_plain, LG_P, LG_dP, 2 * GEMM_N * GEMM_N,
              (LG_C, LG_P, LG_P + GEMM_N * GEMM_N, lg_n), enzyme_dup, LG_C, LG_dC, enzyme_dup,
              LG_P, LG_dP, enzyme_dup, LG_P + GEMM_N * GEMM_N, LG_dP + GEMM_N * GEMM_N,
              enzyme_const, lg_n)
#endif

/* Jacobi: A and B (JAC_N x JAC_N) both state, T sweeps of A -> B -> A; the
 * state is a copy of P made in primal and gradient; objective sum w s
 * over the final state s = (A, B); the shadows are seeded with w. */
#define JAC_N 64
#define JAC_T 10
static double LJ_P[2 * JAC_N * JAC_N], LJ_s[2 * JAC_N * JAC_N], LJ_ds[2 * JAC_N * JAC_N], LJ_w[2 * JAC_N * JAC_N];
static int lj_n = JAC_N, lj_t = JAC_T;
#define JACOBI_BODY                                                            \
  for (int t = 0; t < T; t++) {                                                \
    for (int i = 1; i < n - 1; i++)                                            \
      for (int j = 1; j < n - 1; j++)                                          \
        B[i * n + j] = 0.2 * (A[i * n + j] + A[i * n + j - 1] +                \
                              A[i * n + j + 1] + A[(i + 1) * n + j] +          \
                              A[(i - 1) * n + j]);                             \
    for (int i = 1; i < n - 1; i++)                                            \
      for (int j = 1; j < n - 1; j++)                                          \
        A[i * n + j] = 0.2 * (B[i * n + j] + B[i * n + j - 1] +                \
                              B[i * n + j + 1] + B[(i + 1) * n + j] +          \
                              B[(i - 1) * n + j]);                             \
  }
#if ALL || defined(ONE_jacobi2d)
KERNEL void jacobi2d_k(double *restrict A, double *restrict B, int n, int T) {
  JACOBI_BODY
}
#endif
#if ALL || defined(ONE_jacobi2d_plain)
KERNEL void jacobi2d_plain_k(double *A, double *B, int n, int T) { JACOBI_BODY }
#endif
static double *jacobi_param(void) { return LJ_P; }
static void jacobi_setup(void) {
  fill(LJ_P, 2 * JAC_N * JAC_N, -1, 1, 32);
  fill(LJ_w, 2 * JAC_N * JAC_N, -1, 1, 33);
}
#define JACOBI_KERNEL(tag)                                                     \
  static void tag##_primal(void) {                                            \
    memcpy(LJ_s, LJ_P, sizeof LJ_s);                                             \
    tag##_k(LJ_s, LJ_s + JAC_N * JAC_N, lj_n, lj_t);                                    \
  }                                                                           \
  static void tag##_grad(void) {                                              \
    memcpy(LJ_s, LJ_P, sizeof LJ_s);                                             \
    memcpy(LJ_ds, LJ_w, sizeof LJ_ds);                                           \
    __enzyme_autodiff((void *)tag##_k, enzyme_dup, LJ_s, LJ_ds, enzyme_dup,     \
                      LJ_s + JAC_N * JAC_N, LJ_ds + JAC_N * JAC_N, enzyme_const, lj_n,       \
                      enzyme_const, lj_t);                                     \
  }                                                                           \
  static double tag##_loss(void) {                                            \
    tag##_primal();                                                           \
    double L = 0;                                                             \
    for (int i = 0; i < 2 * JAC_N * JAC_N; i++)                                     \
      L += LJ_w[i] * LJ_s[i];                                                   \
    return L;                                                                 \
  }                                                                           \
  static void tag##_grad_fresh(double *g) {                                   \
    tag##_grad();                                                             \
    memcpy(g, LJ_ds, sizeof LJ_ds);                                             \
  }
#if ALL || defined(ONE_jacobi2d)
JACOBI_KERNEL(jacobi2d)
#endif
#if ALL || defined(ONE_jacobi2d_plain)
JACOBI_KERNEL(jacobi2d_plain)
#endif

/* trisolv: x = L^-1 b by forward substitution (L lower, TRI_N x TRI_N, its
 * diagonal kept away from zero); P = (L, b); objective sum w x; dx is
 * consumed, so reseeded with w before each gradient. */
#define TRI_N 256
static double LS_P[TRI_N * TRI_N + TRI_N], LS_dP[TRI_N * TRI_N + TRI_N], LS_x[TRI_N], LS_dx[TRI_N], LS_w[TRI_N];
static int ls_n = TRI_N;
#define TRISOLV_BODY                                                           \
  for (int i = 0; i < n; i++) {                                                \
    x[i] = b[i];                                                               \
    for (int j = 0; j < i; j++)                                                \
      x[i] -= L[i * n + j] * x[j];                                             \
    x[i] = x[i] / L[i * n + i];                                                \
  }
#if ALL || defined(ONE_trisolv)
KERNEL void trisolv_k(const double *restrict L, double *restrict x,
                      const double *restrict b, int n) {
  TRISOLV_BODY
}
#endif
#if ALL || defined(ONE_trisolv_plain)
KERNEL void trisolv_plain_k(const double *L, double *x, const double *b, int n) {
  TRISOLV_BODY
}
#endif
static double *trisolv_param(void) { return LS_P; }
static void trisolv_setup(void) {
  fill(LS_P, TRI_N * TRI_N + TRI_N, -1, 1, 34);
  for (int i = 0; i < TRI_N; i++) /* off-diagonal sums stay below the diagonal */
    for (int j = 0; j < TRI_N; j++)
      LS_P[i * TRI_N + j] = i == j ? 2 + LS_P[i * TRI_N + j] * 0.5 : LS_P[i * TRI_N + j] / TRI_N;
  fill(LS_w, TRI_N, -1, 1, 35);
}
#define TRISOLV_KERNEL(tag)                                                    \
  static void tag##_primal(void) { tag##_k(LS_P, LS_x, LS_P + TRI_N * TRI_N, ls_n); }   \
  static void tag##_grad(void) {                                              \
    memcpy(LS_dx, LS_w, sizeof LS_dx);                                           \
    __enzyme_autodiff((void *)tag##_k, enzyme_dup, LS_P, LS_dP, enzyme_dup, LS_x, \
                      LS_dx, enzyme_dup, LS_P + TRI_N * TRI_N, LS_dP + TRI_N * TRI_N,         \
                      enzyme_const, ls_n);                                     \
  }                                                                           \
  static double tag##_loss(void) {                                            \
    tag##_primal();                                                           \
    double L = 0;                                                             \
    for (int i = 0; i < TRI_N; i++)                                              \
      L += LS_w[i] * LS_x[i];                                                   \
    return L;                                                                 \
  }                                                                           \
  static void tag##_grad_fresh(double *g) {                                   \
    memset(LS_dP, 0, sizeof LS_dP);                                             \
    tag##_grad();                                                             \
    memcpy(g, LS_dP, sizeof LS_dP);                                             \
  }
#if ALL || defined(ONE_trisolv)
TRISOLV_KERNEL(trisolv)
#endif
#if ALL || defined(ONE_trisolv_plain)
TRISOLV_KERNEL(trisolv_plain)
#endif
