// Matrix multiply C = A B (n x n, row-major, triple loop, runtime n) into an
// output array whose shadow holds the seed W; gradient of sum(W .* C):
//   dA = W B^T,  dB = A^T W,  and dC is consumed (C is only written).
// Also a scalar-returning variant with the reduction fused into the nest.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

void matmul(const double *A, const double *B, double *C, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}

double matmul_w(const double *A, const double *B, const double *W, int n) {
  double f = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      for (int k = 0; k < n; k++)
        f += W[i * n + j] * A[i * n + k] * B[k * n + j];
  return f;
}

typedef struct {
  int n;
  const double *W;
} ctx_t;
/* z = [A, B] */
static double obj(double *z, void *c) {
  ctx_t *t = c;
  int n = t->n;
  double C[400];
  matmul(z, z + n * n, C, n);
  double f = 0;
  for (int i = 0; i < n * n; i++)
    f += t->W[i] * C[i];
  return f;
}

int main(void) {
  enum { NMAX = 20, NN = NMAX * NMAX };
  int ns[3] = {lt_vi(5), lt_vi(11), lt_vi(20)};
  for (int t = 0; t < 3; t++) {
    int n = ns[t], nn = n * n;
    static double z[2 * NN], W[NN], C[NN], dC[NN], dz[2 * NN], dz2[2 * NN];
    static double an[2 * NN], fd[2 * NN];
    double *A = z, *B = z + nn;
    lt_data(z, 2 * nn, -1.0, 1.0, 19);
    lt_data(W, nn, -2.0, 2.0, 20);
    for (int i = 0; i < nn; i++) {
      dC[i] = W[i];
      C[i] = -1;
    }
    memset(dz, 0, sizeof dz);
    memset(dz2, 0, sizeof dz2);
    __enzyme_autodiff((void *)matmul, enzyme_dup, A, dz, enzyme_dup, B,
                      dz + nn, enzyme_dup, C, dC, enzyme_const, n);
    __enzyme_autodiff((void *)matmul_w, enzyme_dup, A, dz2, enzyme_dup, B,
                      dz2 + nn, enzyme_const, W, enzyme_const, n);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double a = 0, b = 0;
        for (int k = 0; k < n; k++) {
          a += W[i * n + k] * B[j * n + k]; /* (W B^T)_ij */
          b += A[k * n + i] * W[k * n + j]; /* (A^T W)_ij */
        }
        an[i * n + j] = a;
        an[nn + i * n + j] = b;
      }
    ctx_t c = {n, W};
    lt_fd_grad(obj, z, 2 * nn, &c, fd);
    printf("-- n = %d\n", n);
    lt_gradv("matmul d[A,B]", 2 * nn, dz, an, fd, 1e-10, 1e-6);
    lt_gradv("matmul_w d[A,B]", 2 * nn, dz2, an, NULL, 1e-10, 1e-6);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int k = 0; k < n; k++)
          s += A[i * n + k] * B[k * n + j];
        lt_check_ad("C", C[i * n + j], s, 1e-14, 1e-15);
        lt_check_ad("dC consumed", dC[i * n + j], 0.0, 0, 0);
      }
  }
  return lt_done();
}
