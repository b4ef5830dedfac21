// The heap API inside differentiated code:
//  - a growing array: realloc inside the loop doubling the capacity,
//    starting from realloc(NULL, ...), each new element reading the one
//    before (so the shadow must keep its contents across reallocations and
//    adjoints must flow back through them); then a shrinking realloc;
//  - posix_memalign (64-byte alignment, asserted to the optimiser with
//    __builtin_assume_aligned, so the shadow must be aligned as well);
//  - aligned_alloc (32 bytes);
//  - calloc used as a zeroed accumulator;
//  - the growing array in split mode (the buffers live across the halves).
// Gradients are checked against the analytic formula and central finite
// differences; primal values against plain C. Shadows must be freed
// exactly once (run under valgrind by hand to see it).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#define _POSIX_C_SOURCE 200112L
#define _ISOC11_SOURCE
#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

/* prefix sums b_i = x_i^2 + b_{i-1} in a doubling buffer; then the
 * buffer shrinks to its first two elements: s = sum_i sin(b_i) + b_0 b_1 */
double grow(const double *x, int n) {
  double *buf = NULL;
  int cap = 0, len = 0;
  for (int i = 0; i < n; i++) {
    if (len == cap) {
      cap = cap ? 2 * cap : 1;
      buf = realloc(buf, cap * sizeof *buf);
    }
    double prev = len ? buf[len - 1] : 0.0;
    buf[len] = x[i] * x[i] + prev;
    len++;
  }
  double s = 0;
  for (int i = 0; i < len; i++)
    s += sin(buf[i]);
  buf = realloc(buf, 2 * sizeof *buf);
  s += buf[0] * buf[1];
  free(buf);
  return s;
}

/* s = sum_i (k x_i)^2 through a 64-byte aligned buffer, plus a check of
 * the primal alignment that changes the result if it fails */
double memalign_sum(const double *x, double k, int n) {
  void *raw = NULL;
  if (posix_memalign(&raw, 64, n * sizeof(double)))
    return -1e9;
  double *p = __builtin_assume_aligned(raw, 64);
  for (int i = 0; i < n; i++)
    p[i] = k * x[i];
  double s = ((uintptr_t)raw & 63) ? 1000.0 : 0.0;
  for (int i = 0; i < n; i++)
    s += p[i] * p[i];
  free(raw);
  return s;
}

/* s = sum_i exp(x_i) x_{n-1-i} through aligned_alloc(32) */
double aligned_sum(const double *x, int n) {
  size_t bytes = ((n * sizeof(double) + 31) / 32) * 32;
  double *p = aligned_alloc(32, bytes);
  for (int i = 0; i < n; i++)
    p[i] = exp(x[i]);
  double s = ((uintptr_t)p & 31) ? 1000.0 : 0.0;
  for (int i = 0; i < n; i++)
    s += p[i] * x[n - 1 - i];
  free(p);
  return s;
}

/* c_j = sum_{i % 3 == j} x_i in a calloc'ed accumulator; s = c_0 c_1 c_2 */
double calloc_acc(const double *x, int n) {
  double *c = calloc(3, sizeof *c);
  for (int i = 0; i < n; i++)
    c[i % 3] += x[i];
  double s = c[0] * c[1] * c[2];
  free(c);
  return s;
}

enum { N = 11 };
static double fd_grow(const double *x) { return grow(x, N); }
static double g_k;
static double fd_memalign(const double *x) { return memalign_sum(x, g_k, N); }
static double g_x[N];
static double fd_memalign_k(double k) { return memalign_sum(g_x, k, N); }
static double fd_aligned(const double *x) { return aligned_sum(x, N); }
static double fd_calloc(const double *x) { return calloc_acc(x, N); }

/* d grow / d x_j = 2 x_j (sum_{i>=j} cos b_i + [j<=0] b_1 + [j<=1] b_0) */
static double grow_grad(const double *x, int j) {
  double b[N], acc = 0;
  for (int i = 0; i < N; i++)
    b[i] = acc = x[i] * x[i] + acc;
  double g = 0;
  for (int i = j; i < N; i++)
    g += cos(b[i]);
  if (j <= 0)
    g += b[1];
  if (j <= 1)
    g += b[0];
  return 2 * x[j] * g;
}

int main(void) {
  const double x0[N] = {0.3,  -0.5, 0.25, 0.6,  -0.2, 0.45,
                        -0.35, 0.15, 0.5,  -0.4, 0.1};
  double x[N];
  lt_fill(x, x0, N);
  lt_fill(g_x, x0, N);
  /* realloc growth */
  {
    double dx[N] = {0};
    __enzyme_autodiff((void *)grow, enzyme_dup, x, dx, enzyme_const, lt_vi(N));
    for (int j = 0; j < N; j++)
      lt_grad("realloc growth: dx", x[j], dx[j], grow_grad(x, j),
              lt_fd_arr(fd_grow, x, N, j), 1e-12, 1e-6);
  }
  /* posix_memalign */
  {
    double dx[N] = {0}, k = lt_vd(1.75);
    g_k = k;
    lt_check("posix_memalign: primal is aligned", memalign_sum(x, k, N) < 100,
             1, 0, 0);
    double dk = __enzyme_autodiff((void *)memalign_sum, enzyme_dup, x, dx,
                                  enzyme_out, k, enzyme_const, lt_vi(N));
    double ank = 0;
    for (int j = 0; j < N; j++) {
      lt_grad("posix_memalign: dx", x[j], dx[j], 2 * k * k * x[j],
              lt_fd_arr(fd_memalign, x, N, j), 1e-12, 1e-6);
      ank += 2 * k * x[j] * x[j];
    }
    lt_grad("posix_memalign: dk", k, dk, ank, lt_fd(fd_memalign_k, k), 1e-12,
            1e-6);
  }
  /* aligned_alloc */
  {
    double dx[N] = {0};
    lt_check("aligned_alloc: primal is aligned", aligned_sum(x, N) < 100, 1, 0,
             0);
    __enzyme_autodiff((void *)aligned_sum, enzyme_dup, x, dx, enzyme_const,
                      lt_vi(N));
    for (int j = 0; j < N; j++)
      lt_grad("aligned_alloc: dx", x[j], dx[j],
              exp(x[j]) * x[N - 1 - j] + exp(x[N - 1 - j]),
              lt_fd_arr(fd_aligned, x, N, j), 1e-12, 1e-6);
  }
  /* calloc */
  {
    double dx[N] = {0}, c[3] = {0};
    for (int i = 0; i < N; i++)
      c[i % 3] += x[i];
    __enzyme_autodiff((void *)calloc_acc, enzyme_dup, x, dx, enzyme_const,
                      lt_vi(N));
    for (int j = 0; j < N; j++) {
      int r = j % 3;
      lt_grad("calloc: dx", x[j], dx[j], c[(r + 1) % 3] * c[(r + 2) % 3],
              lt_fd_arr(fd_calloc, x, N, j), 1e-12, 1e-6);
    }
  }
  /* realloc growth in split mode, dret 0.5 */
  {
    double dx[N] = {0};
    void *t = __enzyme_augmentfwd((void *)grow, enzyme_dup, x, dx, enzyme_const,
                                  lt_vi(N));
    __enzyme_reverse((void *)grow, enzyme_dup, x, dx, enzyme_const, lt_vi(N),
                     lt_vd(0.5), t);
    for (int j = 0; j < N; j++)
      lt_check("realloc growth, split: dx", dx[j], 0.5 * grow_grad(x, j), 1e-12,
               1e-14);
  }
  return lt_done();
}
