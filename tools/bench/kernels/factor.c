/* factor.c: in-place factorisations with plain pointers (issue 17): a
 * Cholesky factorisation (lower triangle, k < j < i) and an LU
 * factorisation without pivoting (Doolittle), each overwriting its matrix,
 * objective sum w .* factor. P holds the matrix (symmetric, diagonally
 * dominant); the kernel factors a copy (the primal times the copy too), so
 * that every run and the finite-difference checks start from P. Compiled
 * with -DBENCH_LINLOOPS, as linloops.c (kernels.c). */
#include "harness.h"

#define FAC_N 128
static double FC_P[FAC_N * FAC_N], FC_dP[FAC_N * FAC_N], FC_A[FAC_N * FAC_N],
    FC_dA[FAC_N * FAC_N], FC_w[FAC_N * FAC_N];
static int fc_n = FAC_N;

#if ALL || defined(ONE_cholesky)
KERNEL double cholesky_k(double *A, const double *w, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i * n + j] -= A[i * n + k] * A[j * n + k];
      A[i * n + j] /= A[j * n + j];
    }
    for (int k = 0; k < i; k++)
      A[i * n + i] -= A[i * n + k] * A[i * n + k];
    A[i * n + i] = sqrt(A[i * n + i]);
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += w[i * n + j] * A[i * n + j];
  return s;
}
#endif
#if ALL || defined(ONE_lu)
KERNEL double lu_k(double *A, const double *w, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i * n + j] -= A[i * n + k] * A[k * n + j];
      A[i * n + j] /= A[j * n + j];
    }
    for (int j = i; j < n; j++)
      for (int k = 0; k < i; k++)
        A[i * n + j] -= A[i * n + k] * A[k * n + j];
  }
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += w[i] * A[i];
  return s;
}
#endif
static double *factor_param(void) { return FC_P; }
static void factor_setup(void) {
  fill(FC_P, FAC_N * FAC_N, -1, 1, 41);
  for (int i = 0; i < FAC_N; i++) {
    for (int j = 0; j < i; j++)
      FC_P[i * FAC_N + j] = FC_P[j * FAC_N + i];
    FC_P[i * FAC_N + i] += FAC_N;
  }
  fill(FC_w, FAC_N * FAC_N, -1, 1, 42);
}
#define FACTOR_KERNEL(tag)                                                     \
  static void tag##_primal(void) {                                            \
    memcpy(FC_A, FC_P, sizeof FC_A);                                          \
    sink = tag##_k(FC_A, FC_w, fc_n);                                         \
  }                                                                           \
  static double tag##_loss(void) {                                            \
    memcpy(FC_A, FC_P, sizeof FC_A);                                          \
    return tag##_k(FC_A, FC_w, fc_n);                                         \
  }                                                                           \
  static void tag##_grad(void) {                                              \
    memcpy(FC_A, FC_P, sizeof FC_A);                                          \
    memset(FC_dA, 0, sizeof FC_dA);                                           \
    __enzyme_autodiff((void *)tag##_k, enzyme_dup, FC_A, FC_dA, enzyme_const, \
                      FC_w, enzyme_const, fc_n);                              \
  }                                                                           \
  static void tag##_grad_fresh(double *g) {                                   \
    tag##_grad();                                                             \
    memcpy(g, FC_dA, sizeof FC_dA);                                           \
  }
#if ALL || defined(ONE_cholesky)
FACTOR_KERNEL(cholesky)
#endif
#if ALL || defined(ONE_lu)
FACTOR_KERNEL(lu)
#endif
