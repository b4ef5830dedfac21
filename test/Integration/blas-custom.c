// A BLAS routine without a rule (cblas_dsyr, A += alpha x x^T on one
// triangle) differentiated through a registered custom derivative
// (Enzyme's ABI: every pointer followed by its shadow), written with BLAS
// calls itself, next to routines with rules; and BLAS calls on inactive
// data only (a constant banded matrix, an index search), which run as
// they are. Gradients against central differences in reverse mode
// (test/Inputs/blascheck.h has no custom forward derivative: reverse
// only here).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#include "check.h"
#include <cblas.h>
#include <leantape.h>
#include <string.h>

/* cblas_dsyr(ColMajor, Lower, n, alpha, x, incx, A, lda); Enzyme's ABI:
 * integers passed twice, pointers followed by their shadows, floats once;
 * the gradient returns alpha's adjoint. dx += alpha (dA_L + dA_L^T) x
 * over the lower triangle, dalpha = sum over it of dA_ij x_i x_j. */
void *syr_aug(int lay, int lay2, int uplo, int uplo2, int n, int n2, double alpha,
              const double *x, const double *dx, int incx, int incx2, double *A, double *dA,
              int lda, int lda2) {
  (void)lay2, (void)uplo2, (void)n2, (void)dx, (void)incx2, (void)dA, (void)lda2;
  cblas_dsyr(lay, uplo, n, alpha, x, incx, A, lda);
  return NULL;
}
double syr_grad(int lay, int lay2, int uplo, int uplo2, int n, int n2, double alpha,
                const double *x, double *dx, int incx, int incx2, double *A, double *dA, int lda,
                int lda2, void *tape) {
  (void)lay, (void)lay2, (void)uplo, (void)uplo2, (void)n2, (void)incx2, (void)A, (void)lda2;
  (void)tape;
  /* the symmetric product counts the diagonal once: add it once more */
  cblas_dsymv(CblasColMajor, CblasLower, n, alpha, dA, lda, x, incx, 1.0, dx, incx);
  double da = 0;
  for (int j = 0; j < n; j++) {
    dx[j * incx] += alpha * dA[j * lda + j] * x[j * incx];
    for (int i = j; i < n; i++)
      da += dA[j * lda + i] * x[i * incx] * x[j * incx];
  }
  return da;
}
void *__enzyme_register_gradient_syr[3] = {(void *)cblas_dsyr, (void *)syr_aug,
                                           (void *)syr_grad};

enum { N = 4 };
static const double BAND[3 * N] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11};

double f(double *x, double *A) {
  cblas_dsyr(CblasColMajor, CblasLower, N, 0.5 * x[3], x, 1, A, N);
  double y[N];
  cblas_dgemv(CblasColMajor, CblasNoTrans, N, N, 1.0, A, N, x, 1, 0.0, y, 1);
  /* inactive: a constant band matrix times a constant vector */
  double c[N] = {1, 2, 3, 4}, w[N];
  cblas_dgbmv(CblasColMajor, CblasNoTrans, N, N, 1, 1, 1.0, BAND, 3, c, 1, 0.0, w, 1);
  int k = (int)cblas_idamax(N, x, 1);
  return cblas_ddot(N, y, 1, w, 1) + x[k] * x[k];
}

int main(void) {
  double x[N] = {0.3, -0.7, 1.1, 0.5}, A[N * N], dx[N] = {0}, dA[N * N] = {0};
  for (int i = 0; i < N * N; i++)
    A[i] = 0.1 * (i % 5) - 0.2;
  double x0[N], A0[N * N];
  memcpy(x0, x, sizeof x);
  memcpy(A0, A, sizeof A);
  __enzyme_autodiff((void *)f, x, dx, A, dA);
  for (int i = 0; i < N; i++) {
    double h = 1e-6, xp[N], xm[N], Ap[N * N], Am[N * N];
    memcpy(xp, x0, sizeof xp);
    memcpy(xm, x0, sizeof xm);
    memcpy(Ap, A0, sizeof Ap);
    memcpy(Am, A0, sizeof Am);
    xp[i] += h;
    xm[i] -= h;
    lt_check("d/dx vs FD", dx[i], (f(xp, Ap) - f(xm, Am)) / (2 * h), 1e-6, 1e-8);
  }
  for (int i = 0; i < N * N; i++) {
    double h = 1e-6, xp[N], xm[N], Ap[N * N], Am[N * N];
    memcpy(xp, x0, sizeof xp);
    memcpy(xm, x0, sizeof xm);
    memcpy(Ap, A0, sizeof Ap);
    memcpy(Am, A0, sizeof Am);
    Ap[i] += h;
    Am[i] -= h;
    lt_check("d/dA vs FD", dA[i], (f(xp, Ap) - f(xm, Am)) / (2 * h), 1e-6, 1e-8);
  }
  return lt_done();
}
