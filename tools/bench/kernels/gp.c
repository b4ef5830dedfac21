/* gp.c: gp_lml, a Gaussian process log marginal likelihood (RBF kernel,
 * n = 20): build K, in-place Cholesky, two triangular solves, logdet.
 * Included by tools/bench/kernels.c (the table of every family). */
#include "harness.h"

#define GN 20
static double G_P[3], G_dP[3]; /* log lengthscale, log variance, log noise */
static double G_x[GN], G_y[GN];
static int g_n = GN;

#if ALL || defined(ONE_gp_lml)
KERNEL double gp_lml_k(const double *theta, const double *x, const double *y,
                       int n) {
  double ell = exp(theta[0]), s2 = exp(theta[1]), sn2 = exp(theta[2]);
  double L[GN * GN], z[GN], alpha[GN];
  /* lower triangle of K = s2 exp(-(xi-xj)^2 / (2 ell^2)) + sn2 I */
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double d = x[i] - x[j];
      double k = s2 * exp(-0.5 * d * d / (ell * ell));
      if (i == j)
        k += sn2;
      L[i * n + j] = k;
    }
  /* in-place Cholesky (Cholesky-Banachiewicz), K = L L^T */
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double s = L[i * n + j];
      for (int k = 0; k < j; k++)
        s -= L[i * n + k] * L[j * n + k];
      if (i == j)
        L[i * n + i] = sqrt(s);
      else
        L[i * n + j] = s / L[j * n + j];
    }
  /* solve L z = y, then L^T alpha = z */
  for (int i = 0; i < n; i++) {
    double s = y[i];
    for (int k = 0; k < i; k++)
      s -= L[i * n + k] * z[k];
    z[i] = s / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = z[i];
    for (int k = i + 1; k < n; k++)
      s -= L[k * n + i] * alpha[k];
    alpha[i] = s / L[i * n + i];
  }
  double quad = 0, logdet = 0;
  for (int i = 0; i < n; i++) {
    quad += y[i] * alpha[i];
    logdet += log(L[i * n + i]);
  }
  return -0.5 * quad - logdet - 0.5 * n * log(2 * M_PI);
}
#endif

static double *gp_param(void) { return G_P; }
static void gp_setup(void) {
  G_P[0] = log(0.8);
  G_P[1] = log(1.3);
  G_P[2] = log(0.1);
  for (int i = 0; i < GN; i++)
    G_x[i] = 5.0 * i / GN;
  fill(G_y, GN, -0.2, 0.2, 7);
  for (int i = 0; i < GN; i++)
    G_y[i] += sin(G_x[i]);
}
#if ALL || defined(ONE_gp_lml)
SCALAR_KERNEL(gp_lml, G_P, G_dP, 3, (G_P, G_x, G_y, g_n),
              enzyme_dup, G_P, G_dP, enzyme_const, G_x, enzyme_const, G_y,
              enzyme_const, g_n)
#endif
