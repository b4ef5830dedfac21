// In-place numerical kernels with plain (not restrict) pointers, every
// array enzyme_dup: Cholesky and LU factorisations overwriting their
// matrix, a forward substitution overwriting its right-hand side, a
// chained product D = A B, E = D C accumulated in memory, and modified
// Gram-Schmidt (issue 17). The gradients of a weighted sum of the
// results are checked against central differences. The tape of each
// gradient is measured by wrapping malloc: a triangular nest's cache is
// sized for the iterations it runs (Cholesky's k < j < i < n runs about
// n^3 / 6), not for the product of its largest trip counts (n^3).
// RUN: %ltclang -O0 %s -o %t.O0 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O2

#include "loopcheck.h"
#include <stdint.h>
#include <stdio.h>

#include "heapcount.h"

double chol(double *A, const double *w, int n) {
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

/* Doolittle, no pivoting: L (unit diagonal) below, U on and above */
double lu(double *A, const double *w, int n) {
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

/* L x = b, x over b */
double trisolv(const double *L, double *b, const double *w, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++)
      b[i] -= L[i * n + j] * b[j];
    b[i] /= L[i * n + i];
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * b[i] * b[i];
  return s;
}

double mm3(const double *A, const double *B, const double *C, double *D, double *E,
           const double *w, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      D[i * n + j] = 0;
      for (int k = 0; k < n; k++)
        D[i * n + j] += A[i * n + k] * B[k * n + j];
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      E[i * n + j] = 0;
      for (int k = 0; k < n; k++)
        E[i * n + j] += D[i * n + k] * C[k * n + j];
    }
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += w[i] * E[i] * E[i];
  return s;
}

/* A (m x n) is overwritten; R (n x n) and Q (m x n) are outputs */
double gs(double *A, double *R, double *Q, const double *w, int m, int n) {
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
  for (int i = 0; i < n * n; i++)
    s += w[i] * R[i];
  return s;
}

#define NMAX 40
static double W[NMAX * NMAX];
static double buf[5][NMAX * NMAX], sh[5][NMAX * NMAX];

/* x holds the active inputs of kernel k in order; the objective of x */
typedef struct {
  int k, n;
} kctx;
static double obj(double *x, void *c) {
  kctx *t = c;
  int n = t->n, nn = n * n;
  switch (t->k) {
  case 0:
    return chol(x, W, n);
  case 1:
    return lu(x, W, n);
  case 2:
    return trisolv(x, x + nn, W, n);
  case 3:
    return mm3(x, x + nn, x + 2 * nn, buf[3], buf[4], W, n);
  default:
    return gs(x, buf[1], buf[2], W, n, n);
  }
}
static int nin(int k, int n) { return k == 2 ? n * n + n : k == 3 ? 3 * n * n : n * n; }
static const char *names[5] = {"cholesky", "lu", "trisolv", "3mm", "gramschmidt"};

static void data(int k, double *x, int n) {
  int nn = n * n;
  lt_data(x, nin(k, n), -0.5, 0.5, 3 + k);
  if (k <= 2) /* symmetric, diagonally dominant */
    for (int i = 0; i < n; i++) {
      for (int j = 0; j < i; j++)
        x[i * n + j] = x[j * n + i];
      x[i * n + i] += n;
    }
  if (k == 4)
    for (int i = 0; i < n; i++)
      x[i * n + i] += 2;
  (void)nn;
}

/* the gradient of kernel k at x into g (x is overwritten) */
static void grad(int k, double *x, double *g, int n) {
  int nn = n * n;
  memset(g, 0, nin(k, n) * sizeof *g);
  for (int q = 0; q < 5; q++)
    memset(sh[q], 0, sizeof sh[q]);
  switch (k) {
  case 0:
    __enzyme_autodiff((void *)chol, enzyme_dup, x, g, enzyme_const, W, enzyme_const, n);
    break;
  case 1:
    __enzyme_autodiff((void *)lu, enzyme_dup, x, g, enzyme_const, W, enzyme_const, n);
    break;
  case 2:
    __enzyme_autodiff((void *)trisolv, enzyme_dup, x, g, enzyme_dup, x + nn, g + nn,
                      enzyme_const, W, enzyme_const, n);
    break;
  case 3:
    __enzyme_autodiff((void *)mm3, enzyme_dup, x, g, enzyme_dup, x + nn, g + nn,
                      enzyme_dup, x + 2 * nn, g + 2 * nn, enzyme_dup, buf[3], sh[3],
                      enzyme_dup, buf[4], sh[4], enzyme_const, W, enzyme_const, n);
    break;
  default:
    __enzyme_autodiff((void *)gs, enzyme_dup, x, g, enzyme_dup, buf[1], sh[1], enzyme_dup,
                      buf[2], sh[2], enzyme_const, W, enzyme_const, n, enzyme_const, n);
  }
}

int main(void) {
  static double x0[3 * NMAX * NMAX], x[3 * NMAX * NMAX], g[3 * NMAX * NMAX],
      fd[3 * NMAX * NMAX];
  lt_data(W, NMAX * NMAX, -1, 1, 1);
  for (int k = 0; k < 5; k++) {
    int n = lt_vi(7), len = nin(k, n);
    kctx c = {k, n};
    data(k, x0, n);
    memcpy(x, x0, len * sizeof *x);
    grad(k, x, g, n);
    lt_fd_grad(obj, x0, len, &c, fd);
    printf("-- %s n = %d\n", names[k], n);
    lt_gradv(names[k], len, g, fd, NULL, 1e-6, 0);
  }
  /* Tape: the bytes a gradient allocates, against what the triangular
   * nests run: C(n,3) innermost iterations in Cholesky's k < j < i, about
   * n^3 / 3 in LU's two nests, n^2 (n - 1) / 2 in each of Gram-Schmidt's;
   * the products of the largest trip counts are n^3 each. At -O2 a gradient
   * keeps at most two doubles per innermost iteration; at -O0 the stores of
   * the innermost loops are not promoted, and loads are re-read through the
   * undo log instead, 24 bytes per logged store (Gram-Schmidt: two stores
   * and two loads a pair of iterations). */
  if (LT_AD) {
    int n = lt_vi(NMAX);
    double n3 = (double)n * n * n;
    double inner[5] = {n3 / 6, n3 / 3, n * n / 2.0, 0, n3 / 2};
#ifdef __OPTIMIZE__
    double per = 2 * 16;
#else
    double per = 3 * 24;
#endif
    for (int k = 0; k < 5; k++) {
      data(k, x, n);
      live = peak = 0;
      counting = 1;
      grad(k, x, g, n);
      counting = 0;
      double limit = per * inner[k] + 64.0 * n * n + 4096;
      printf("-- %s n = %d: tape %lld bytes (limit %.0f)\n", names[k], n, peak, limit);
      lt_check("tape within the iterations' records", peak <= limit, 1, 0, 0);
    }
  }
  return lt_done();
}
