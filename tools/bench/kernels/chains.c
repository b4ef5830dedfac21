/* chains.c: issue 17's other in-place shapes, with plain pointers:
 * modified Gram-Schmidt overwriting its matrix with the residuals (Q and R
 * stored), a triangular matrix product overwriting its right-hand side
 * (B <- A^T B, A unit lower triangular, as BLAS trmm), and a chain of
 * three stored matrix products (E = A B, F = C D, G = E F). Each kernel
 * works on a copy of its inputs (the primal times the copy too), so that
 * every run and the finite-difference checks start from P; objective
 * sum w .* (what it computes). Written here from the textbook algorithms,
 * at sizes where a gradient takes about a millisecond. Compiled with
 * -DBENCH_LINLOOPS, as factor.c (kernels.c). */
#include "harness.h"

/* ---- Gram-Schmidt: A (GS_M x GS_N) -> Q, R; A left with the residuals */
#define GS_M 96
#define GS_N 64
static double GS_P[GS_M * GS_N], GS_dP[GS_M * GS_N], GS_A[GS_M * GS_N],
    GS_Q[GS_M * GS_N], GS_dQ[GS_M * GS_N], GS_R[GS_N * GS_N], GS_dR[GS_N * GS_N],
    GS_w[GS_M * GS_N + GS_N * GS_N];
static int gs_m = GS_M, gs_n = GS_N;

#if ALL || defined(ONE_gramschmidt)
KERNEL double gramschmidt_k(double *A, double *R, double *Q, const double *w, int m, int n) {
  for (int k = 0; k < n; k++) {
    double nrm = 0;
    for (int i = 0; i < m; i++)
      nrm += A[i * n + k] * A[i * n + k];
    R[k * n + k] = sqrt(nrm);
    for (int i = 0; i < m; i++)
      Q[i * n + k] = A[i * n + k] / R[k * n + k];
    for (int j = k + 1; j < n; j++) {
      R[k * n + j] = 0;
      for (int i = 0; i < m; i++)
        R[k * n + j] += Q[i * n + k] * A[i * n + j];
      for (int i = 0; i < m; i++)
        A[i * n + j] -= Q[i * n + k] * R[k * n + j];
    }
  }
  double s = 0;
  for (int i = 0; i < m * n; i++)
    s += w[i] * Q[i];
  for (int k = 0; k < n; k++)
    for (int j = k; j < n; j++)
      s += w[m * n + k * n + j] * R[k * n + j];
  return s;
}
static double *gs_param(void) { return GS_P; }
static void gs_setup(void) {
  fill(GS_P, GS_M * GS_N, -1, 1, 51);
  for (int k = 0; k < GS_N; k++) /* well conditioned: a dominant block */
    GS_P[k * GS_N + k] += 4;
  fill(GS_w, GS_M * GS_N + GS_N * GS_N, -1, 1, 52);
}
static void gramschmidt_primal(void) {
  memcpy(GS_A, GS_P, sizeof GS_A);
  sink = gramschmidt_k(GS_A, GS_R, GS_Q, GS_w, gs_m, gs_n);
}
static double gramschmidt_loss(void) {
  memcpy(GS_A, GS_P, sizeof GS_A);
  return gramschmidt_k(GS_A, GS_R, GS_Q, GS_w, gs_m, gs_n);
}
static void gramschmidt_grad(void) {
  memcpy(GS_A, GS_P, sizeof GS_A);
  memset(GS_dP, 0, sizeof GS_dP);
  memset(GS_dQ, 0, sizeof GS_dQ);
  memset(GS_dR, 0, sizeof GS_dR);
  __enzyme_autodiff((void *)gramschmidt_k, enzyme_dup, GS_A, GS_dP, enzyme_dup, GS_R, GS_dR,
                    enzyme_dup, GS_Q, GS_dQ, enzyme_const, GS_w, enzyme_const, gs_m,
                    enzyme_const, gs_n);
}
static void gramschmidt_grad_fresh(double *g) {
  gramschmidt_grad();
  memcpy(g, GS_dP, sizeof GS_dP);
}
#endif

/* ---- triangular product: B <- A^T B, A (TM_M x TM_M) unit lower
 * triangular (its strict lower part read), B (TM_M x TM_N) overwritten */
#define TM_M 96
#define TM_N 80
static double TM_P[TM_M * TM_M + TM_M * TM_N], TM_dP[TM_M * TM_M + TM_M * TM_N],
    TM_B[TM_M * TM_N], TM_w[TM_M * TM_N];
static int tm_m = TM_M, tm_n = TM_N;

#if ALL || defined(ONE_trmm)
KERNEL double trmm_k(const double *A, double *B, const double *w, int m, int n) {
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++)
      for (int k = i + 1; k < m; k++)
        B[i * n + j] += A[k * m + i] * B[k * n + j];
  double s = 0;
  for (int i = 0; i < m * n; i++)
    s += w[i] * B[i];
  return s;
}
static double *tm_param(void) { return TM_P; }
static void tm_setup(void) {
  fill(TM_P, TM_M * TM_M + TM_M * TM_N, -1, 1, 61);
  fill(TM_w, TM_M * TM_N, -1, 1, 62);
}
static void trmm_primal(void) {
  memcpy(TM_B, TM_P + TM_M * TM_M, sizeof TM_B);
  sink = trmm_k(TM_P, TM_B, TM_w, tm_m, tm_n);
}
static double trmm_loss(void) {
  memcpy(TM_B, TM_P + TM_M * TM_M, sizeof TM_B);
  return trmm_k(TM_P, TM_B, TM_w, tm_m, tm_n);
}
static void trmm_grad(void) {
  memcpy(TM_B, TM_P + TM_M * TM_M, sizeof TM_B);
  memset(TM_dP, 0, sizeof TM_dP);
  __enzyme_autodiff((void *)trmm_k, enzyme_dup, TM_P, TM_dP, enzyme_dup, TM_B,
                    TM_dP + TM_M * TM_M, enzyme_const, TM_w, enzyme_const, tm_m, enzyme_const,
                    tm_n);
}
static void trmm_grad_fresh(double *g) {
  trmm_grad();
  memcpy(g, TM_dP, sizeof TM_dP);
}
#endif

/* ---- three stored products: E = A B, F = C D, G = E F
 * (A: M3I x M3K, B: M3K x M3J, C: M3J x M3M, D: M3M x M3L; G: M3I x M3L) */
#define M3I 48
#define M3K 56
#define M3J 64
#define M3M 72
#define M3L 80
#define M3A (M3I * M3K)
#define M3B (M3K * M3J)
#define M3C (M3J * M3M)
#define M3D (M3M * M3L)
static double M3_P[M3A + M3B + M3C + M3D], M3_dP[M3A + M3B + M3C + M3D], M3_E[M3I * M3J],
    M3_dE[M3I * M3J], M3_F[M3J * M3L], M3_dF[M3J * M3L], M3_G[M3I * M3L], M3_dG[M3I * M3L],
    M3_w[M3I * M3L];

#if ALL || defined(ONE_mm3)
KERNEL double mm3_k(const double *A, const double *B, const double *C, const double *D,
                    double *E, double *F, double *G, const double *w, int ni, int nk,
                    int nj, int nm, int nl) {
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nj; j++) {
      E[i * nj + j] = 0;
      for (int k = 0; k < nk; k++)
        E[i * nj + j] += A[i * nk + k] * B[k * nj + j];
    }
  for (int i = 0; i < nj; i++)
    for (int j = 0; j < nl; j++) {
      F[i * nl + j] = 0;
      for (int k = 0; k < nm; k++)
        F[i * nl + j] += C[i * nm + k] * D[k * nl + j];
    }
  for (int i = 0; i < ni; i++)
    for (int j = 0; j < nl; j++) {
      G[i * nl + j] = 0;
      for (int k = 0; k < nj; k++)
        G[i * nl + j] += E[i * nj + k] * F[k * nl + j];
    }
  double s = 0;
  for (int i = 0; i < ni * nl; i++)
    s += w[i] * G[i];
  return s;
}
static double *m3_param(void) { return M3_P; }
static void m3_setup(void) {
  fill(M3_P, M3A + M3B + M3C + M3D, -1, 1, 71);
  fill(M3_w, M3I * M3L, -1, 1, 72);
}
#define MM3_ARGS                                                               \
  M3_P, M3_P + M3A, M3_P + M3A + M3B, M3_P + M3A + M3B + M3C, M3_E, M3_F, M3_G, M3_w, M3I, M3K, M3J, M3M, M3L
static void mm3_primal(void) { sink = mm3_k(MM3_ARGS); }
static double mm3_loss(void) { return mm3_k(MM3_ARGS); }
static void mm3_grad(void) {
  memset(M3_dE, 0, sizeof M3_dE);
  memset(M3_dF, 0, sizeof M3_dF);
  memset(M3_dG, 0, sizeof M3_dG);
  __enzyme_autodiff((void *)mm3_k, enzyme_dup, M3_P, M3_dP, enzyme_dup, M3_P + M3A,
                    M3_dP + M3A, enzyme_dup, M3_P + M3A + M3B, M3_dP + M3A + M3B, enzyme_dup,
                    M3_P + M3A + M3B + M3C, M3_dP + M3A + M3B + M3C, enzyme_dup, M3_E, M3_dE,
                    enzyme_dup, M3_F, M3_dF, enzyme_dup, M3_G, M3_dG, enzyme_const, M3_w,
                    enzyme_const, M3I, enzyme_const, M3K, enzyme_const, M3J, enzyme_const, M3M,
                    enzyme_const, M3L);
}
static void mm3_grad_fresh(double *g) {
  memset(M3_dP, 0, sizeof M3_dP);
  mm3_grad();
  memcpy(g, M3_dP, sizeof M3_dP);
}
#endif
