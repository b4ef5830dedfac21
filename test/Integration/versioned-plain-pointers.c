// Gradients over plain pointers get a second version that takes the
// arrays apart (gen/version.c), chosen at run time by a test of the bytes
// each pointer reaches, run on the primal pointers and on the shadows in
// their places. Every call below is checked against central differences:
//  - gemm in i-k-j order with a stored product (C = 0; C += A B; sum C^2)
//    over apart arrays (the apart version runs);
//  - the same with C's shadow passed as ... apart, but A and B given one
//    gradient buffer (A == B as arrays too: the general version);
//  - axpy-like y[i] = a x[i] + y[i], loss sum y^2, with x and y apart, with
//    y == x (in place) and with x = y + 1 (overlapping by all but one);
//  - apart primal arrays whose shadows overlap (one gradient buffer for
//    x and y): the gradient is the sum of both, as with the general
//    version;
//  - a loop capped by an unsigned bound, i < n && i < cap (its trip count
//    umin(n, cap)), with cap = SIZE_MAX for "no cap" and cap = 2, x = y + 1
//    overlapping and x, y apart: umin taken as a signed min made the trip
//    count -1, the ranges empty, and ran the apart version on overlapping
//    arrays (a wrong gradient; found by the random tester).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stdint.h>
#include <string.h>
#include <sys/types.h>

enum { N = 4 }; /* lt_fd_arr takes at most 16 values */

double gemm_sq(const double *A, const double *B, double *C, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      C[i * n + j] = 0;
  for (int i = 0; i < n; i++)
    for (int k = 0; k < n; k++)
      for (int j = 0; j < n; j++)
        C[i * n + j] += A[i * n + k] * B[k * n + j];
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += C[i] * C[i];
  return s;
}

double axpy_sq(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = a * x[i] + y[i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += y[i] * sin(y[i]);
  return s;
}

double capped(double *x, double *y, size_t n, size_t cap) {
  for (size_t i = 0; i < n && i < cap; i++)
    y[i] = y[i] * x[i];
  double s = 0;
  for (size_t i = 0; i < n; i++)
    s += y[i] * y[i];
  return s;
}

static double gA[N * N], gB[N * N], gC[N * N], gx[2 * N];
static double fd_gemm_A(const double *A) { return gemm_sq(A, gB, gC, N); }
static double fd_gemm_B(const double *B) { return gemm_sq(gA, B, gC, N); }
/* A == B: one array for both */
static double fd_gemm_same(const double *A) { return gemm_sq(A, A, gC, N); }
static double g_a;
static int g_off; /* y = x + off inside one buffer (x at 0, y at off) */
static double fd_axpy_buf(const double *v) {
  double b[2 * N + 1];
  memcpy(b, v, sizeof b);
  return axpy_sq(g_a, b, b + g_off, N);
}

static size_t g_cap;
static double fd_capped_buf(const double *v) {
  double b[2 * N + 1];
  memcpy(b, v, sizeof b);
  return capped(b + g_off, b, N, g_cap);
}

int main(void) {
  for (int i = 0; i < N * N; i++) {
    gA[i] = sin(1.3 * i) * 0.7;
    gB[i] = cos(0.7 * i + 0.2) * 0.9;
  }
  /* gemm over apart arrays */
  {
    double A[N * N], B[N * N], C[N * N], dA[N * N] = {0}, dB[N * N] = {0}, dC[N * N] = {0};
    memcpy(A, gA, sizeof A);
    memcpy(B, gB, sizeof B);
    __enzyme_autodiff((void *)gemm_sq, enzyme_dup, A, dA, enzyme_dup, B, dB, enzyme_dup, C, dC,
                      enzyme_const, lt_vi(N));
    for (int i = 0; i < N * N; i++) {
      lt_check("gemm apart: dA vs fd", dA[i], lt_fd_arr(fd_gemm_A, A, N * N, i), 1e-6, 1e-8);
      lt_check("gemm apart: dB vs fd", dB[i], lt_fd_arr(fd_gemm_B, B, N * N, i), 1e-6, 1e-8);
    }
  }
  /* gemm with A == B and one gradient buffer for both */
  {
    double A[N * N], C[N * N], dA[N * N] = {0}, dC[N * N] = {0};
    memcpy(A, gA, sizeof A);
    __enzyme_autodiff((void *)gemm_sq, enzyme_dup, A, dA, enzyme_dup, A, dA, enzyme_dup, C, dC,
                      enzyme_const, lt_vi(N));
    for (int i = 0; i < N * N; i++)
      lt_check("gemm A == B: dA vs fd", dA[i], lt_fd_arr(fd_gemm_same, A, N * N, i), 1e-6, 1e-8);
  }
  /* axpy: x and y apart (off = N + 1: y = b + N + 1 reaches b[2N]),
   * in place (off = 0) and overlapping (off = 1) */
  int offs[3] = {N + 1, 0, 1};
  for (int t = 0; t < 3; t++) {
    double b[2 * N + 1], db[2 * N + 1] = {0};
    for (int i = 0; i < 2 * N + 1; i++)
      b[i] = 0.3 * cos(2.1 * i) - 0.1;
    double v0[2 * N + 1];
    memcpy(v0, b, sizeof b);
    g_a = lt_vd(0.8);
    g_off = offs[t];
    double da = __enzyme_autodiff((void *)axpy_sq, enzyme_out, g_a, enzyme_dup, b, db,
                                  enzyme_dup, b + g_off, db + g_off, enzyme_const, lt_vi(N));
    char what[64];
    for (int i = 0; i < 2 * N + 1; i++) {
      snprintf(what, sizeof what, "axpy off %d: db vs fd", g_off);
      lt_check(what, db[i], lt_fd_arr(fd_axpy_buf, v0, 2 * N + 1, i), 1e-6, 1e-8);
    }
    /* d/da by differences */
    double h = 1e-6, ap = g_a + h, am = g_a - h;
    g_a = ap;
    double fp = fd_axpy_buf(v0);
    g_a = am;
    double fm = fd_axpy_buf(v0);
    snprintf(what, sizeof what, "axpy off %d: da vs fd", g_off);
    lt_check(what, da, (fp - fm) / (ap - am), 1e-6, 1e-8);
  }
  /* apart primals, one gradient buffer for x and y: the sum of both */
  {
    double x[N], y[N], dxy[N] = {0}, x0[N], y0[N];
    for (int i = 0; i < N; i++) {
      x[i] = x0[i] = 0.2 * i - 0.4;
      y[i] = y0[i] = 0.5 - 0.15 * i;
    }
    double a = lt_vd(1.1);
    __enzyme_autodiff((void *)axpy_sq, enzyme_const, a, enzyme_dup, x, dxy, enzyme_dup, y, dxy,
                      enzyme_const, lt_vi(N));
    for (int i = 0; i < N; i++) {
      double yi = a * x0[i] + y0[i], w = sin(yi) + yi * cos(yi);
      lt_check("shared shadow: dx + dy", dxy[i], a * w + w, 1e-12, 1e-14);
    }
  }
  /* capped: x = y + off in one buffer, off = 1 (overlapping) or N + 1 */
  size_t caps[2] = {(size_t)-1, 2};
  for (int t = 0; t < 4; t++) {
    double b[2 * N + 1], db[2 * N + 1] = {0}, v0[2 * N + 1];
    for (int i = 0; i < 2 * N + 1; i++)
      b[i] = v0[i] = 0.5 + 0.1 * i;
    g_off = t & 1 ? N + 1 : 1;
    g_cap = caps[t >> 1];
    volatile size_t vc = g_cap;
    __enzyme_autodiff((void *)capped, enzyme_dup, b + g_off, db + g_off, enzyme_dup, b, db,
                      enzyme_const, (size_t)lt_vi(N), enzyme_const, (size_t)vc);
    char what[80];
    snprintf(what, sizeof what, "capped off %d cap %zd: db vs fd", g_off, (ssize_t)g_cap);
    for (int i = 0; i < 2 * N + 1; i++)
      lt_check(what, db[i], lt_fd_arr(fd_capped_buf, v0, 2 * N + 1, i), 1e-6, 1e-8);
  }
  return lt_done();
}
