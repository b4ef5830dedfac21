// Triangular nests whose inner bound depends on the outer counter.
// (1) trimv: y_i = sum_{j<=i} L_ij x_j, f = sum_i w_i y_i^2, L and x dup:
//     df/dL_ij = 2 w_i y_i x_j (j <= i; 0 above the diagonal, never read)
//     df/dx_j  = sum_{i>=j} 2 w_i y_i L_ij.
// (2) A real Cholesky factorisation A = L L^T (n = 4..6, A SPD, only the
//     lower triangle of A is read), f = sum_{j<=i} W_ij L_ij, gradient with
//     respect to the stored A. Analytic (matrix calculus, Murray 2016):
//     P = Phi(L^T Wbar) (lower triangle, diagonal halved),
//     G = L^-T P L^-1; df/dA_ij = G_ij + G_ji (i > j), df/dA_ii = G_ii,
//     0 above the diagonal.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

double trimv(const double *L, const double *x, const double *w, int n) {
  double f = 0;
  for (int i = 0; i < n; i++) {
    double y = 0;
    for (int j = 0; j <= i; j++)
      y += L[i * n + j] * x[j];
    f += w[i] * y * y;
  }
  return f;
}

/* Writes the lower triangle of L (row-major n x n); upper part untouched. */
void cholesky(const double *A, double *L, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j <= i; j++) {
      double s = A[i * n + j];
      for (int k = 0; k < j; k++)
        s -= L[i * n + k] * L[j * n + k];
      if (i == j)
        L[i * n + i] = sqrt(s);
      else
        L[i * n + j] = s / L[j * n + j];
    }
  }
}

double chol_obj(const double *A, const double *W, int n) {
  double L[64];
  cholesky(A, L, n);
  double f = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i + 1; j++)
      f += W[i * n + j] * L[i * n + j];
  return f;
}

typedef struct {
  int n;
  const double *w;
} ctx_t;

/* z = [L (n*n), x (n)] */
static double o_trimv(double *z, void *c) {
  ctx_t *k = c;
  return trimv(z, z + k->n * k->n, k->w, k->n);
}
static double o_chol(double *A, void *c) {
  ctx_t *k = c;
  return chol_obj(A, k->w, k->n);
}

/* Inverse of a lower triangular matrix (forward substitution). */
static void tri_inv(const double *L, double *Li, int n) {
  for (int c = 0; c < n; c++)
    for (int i = 0; i < n; i++) {
      double s = i == c ? 1.0 : 0.0;
      for (int k = 0; k < i; k++)
        s -= L[i * n + k] * Li[k * n + c];
      Li[i * n + c] = s / L[i * n + i];
    }
}

int main(void) {
  enum { NMAX = 12 };
  /* (1) triangular mat-vec */
  int ns[2] = {lt_vi(5), lt_vi(12)};
  for (int t = 0; t < 2; t++) {
    int n = ns[t], nn = n * n;
    double z[NMAX * NMAX + NMAX], dz[NMAX * NMAX + NMAX] = {0};
    double an[NMAX * NMAX + NMAX], fd[NMAX * NMAX + NMAX], w[NMAX], y[NMAX];
    double *L = z, *x = z + nn;
    lt_data(z, nn + n, -1.0, 1.0, 11);
    lt_data(w, n, 0.2, 1.2, 12);
    __enzyme_autodiff((void *)trimv, enzyme_dup, L, dz, enzyme_dup, x, dz + nn,
                      enzyme_const, w, enzyme_const, n);
    for (int i = 0; i < n; i++) {
      y[i] = 0;
      for (int j = 0; j <= i; j++)
        y[i] += L[i * n + j] * x[j];
    }
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        an[i * n + j] = j <= i ? 2 * w[i] * y[i] * x[j] : 0.0;
    for (int j = 0; j < n; j++) {
      an[nn + j] = 0;
      for (int i = j; i < n; i++)
        an[nn + j] += 2 * w[i] * y[i] * L[i * n + j];
    }
    ctx_t c = {n, w};
    lt_fd_grad(o_trimv, z, nn + n, &c, fd);
    printf("-- trimv n = %d\n", n);
    lt_gradv("trimv", nn + n, dz, an, fd, 1e-10, 1e-6);
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++)
        lt_check_ad("upper dL exactly 0", dz[i * n + j], 0.0, 0, 0);
  }

  /* (2) Cholesky */
  for (int n = lt_vi(4); n <= 6; n++) {
    int nn = n * n;
    double B[36], A[36], W[36], L[36], Li[36], P[36], T[36], G[36];
    double dA[36] = {0}, an[36], fd[36];
    lt_data(B, nn, -1.0, 1.0, 13);
    lt_data(W, nn, -1.0, 1.0, 14);
    for (int i = 0; i < n; i++) /* A = B B^T + n I */
      for (int j = 0; j < n; j++) {
        double s = i == j ? n : 0.0;
        for (int k = 0; k < n; k++)
          s += B[i * n + k] * B[j * n + k];
        A[i * n + j] = s;
      }
    __enzyme_autodiff((void *)chol_obj, enzyme_dup, A, dA, enzyme_const, W,
                      enzyme_const, n);
    /* analytic */
    memset(L, 0, sizeof L);
    cholesky(A, L, n);
    tri_inv(L, Li, n);
    for (int i = 0; i < n; i++) /* P = Phi(L^T Wbar), Wbar = tril(W) */
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++)
          s += L[k * n + i] * (j <= k ? W[k * n + j] : 0.0);
        P[i * n + j] = i > j ? s : i == j ? 0.5 * s : 0.0;
      }
    for (int i = 0; i < n; i++) /* T = P L^-1 */
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++)
          s += P[i * n + k] * Li[k * n + j];
        T[i * n + j] = s;
      }
    for (int i = 0; i < n; i++) /* G = L^-T T */
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++)
          s += Li[k * n + i] * T[k * n + j];
        G[i * n + j] = s;
      }
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        an[i * n + j] = i > j    ? G[i * n + j] + G[j * n + i]
                        : i == j ? G[i * n + i]
                                 : 0.0;
    ctx_t c = {n, W};
    lt_fd_grad(o_chol, A, nn, &c, fd);
    printf("-- cholesky n = %d\n", n);
    lt_gradv("cholesky dA", nn, dA, an, fd, 1e-10, 1e-6);
    for (int i = 0; i < n; i++)
      for (int j = i + 1; j < n; j++)
        lt_check_ad("upper dA exactly 0", dA[i * n + j], 0.0, 0, 0);
  }
  return lt_done();
}
