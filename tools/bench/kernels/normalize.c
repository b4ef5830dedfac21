/* normalize.c: seed 002's out[j] = x[j] / mag(x, n) (n = 16000, O(n^2)):
 * restrict, plain (separate arrays and out == x), and both with a
 * noinline mag.
 * Included by tools/bench/kernels.c (the table of every family). */
#include "harness.h"

/* normalize_k: restrict pointers (seed 002's IR has noalias);
 * normalize_plain_k: the same code without restrict (out and x separate
 * arrays in normalize_16000_plain; the same array, out == x, in
 * normalize_16000_plain_inplace). normalize_ni*: mag noinline (which the
 * plugin's clone drops: it is inlined). */
#define NN 16000
static double N_P[NN], N_dP[NN], N_out[NN], N_dout[NN], N_w[NN];
static int n_n = NN;

/* the one body of every twin: they differ only in restrict and in mag */
#define MAG_BODY                                                               \
  double s = 0;                                                                \
  for (int i = 0; i < n; i++)                                                  \
    s += x[i] * x[i];                                                          \
  return sqrt(s);
#define NORMALIZE_BODY(mag)                                                    \
  for (int j = 0; j < n; j++)                                                  \
    out[j] = x[j] / mag(x, n);

#if ALL || defined(ONE_normalize) || defined(ONE_normalize_plain) ||          \
    defined(ONE_normalize_inplace)
double mag(const double *x, int n) { MAG_BODY }
#endif
#if ALL || defined(ONE_normalize_ni) || defined(ONE_normalize_ni_plain)
__attribute__((noinline)) double mag_ni(const double *x, int n) { MAG_BODY }
#endif
#if ALL || defined(ONE_normalize)
KERNEL void normalize_k(double *restrict out, const double *restrict x, int n) {
  NORMALIZE_BODY(mag)
}
#endif
#if ALL || defined(ONE_normalize_plain) || defined(ONE_normalize_inplace)
KERNEL void normalize_plain_k(double *out, const double *x, int n) { NORMALIZE_BODY(mag) }
#endif
#if ALL || defined(ONE_normalize_ni)
KERNEL void normalize_ni_k(double *restrict out, const double *restrict x, int n) {
  NORMALIZE_BODY(mag_ni)
}
#endif
#if ALL || defined(ONE_normalize_ni_plain)
KERNEL void normalize_ni_plain_k(double *out, const double *x, int n) {
  NORMALIZE_BODY(mag_ni)
}
#endif
static double *norm_param(void) { return N_P; }
static void norm_setup(void) {
  fill(N_P, NN, -1, 1, 11);
  fill(N_w, NN, -1, 1, 12);
}
#define NORM_KERNEL(tag)                                                       \
  static void tag##_primal(void) { tag##_k(N_out, N_P, n_n); }                \
  /* dout is consumed: reseed it (memcpy of 128 KB << one gradient) */        \
  static void tag##_grad(void) {                                              \
    memcpy(N_dout, N_w, sizeof N_w);                                          \
    __enzyme_autodiff((void *)tag##_k, enzyme_dup, N_out, N_dout, enzyme_dup, \
                      N_P, N_dP, enzyme_const, n_n);                          \
  }                                                                           \
  static double tag##_loss(void) {                                            \
    tag##_k(N_out, N_P, n_n);                                                 \
    double L = 0;                                                             \
    for (int j = 0; j < NN; j++)                                              \
      L += N_w[j] * N_out[j];                                                 \
    return L;                                                                 \
  }                                                                           \
  static void tag##_grad_fresh(double *g) {                                   \
    memset(N_dP, 0, sizeof N_dP);                                             \
    tag##_grad();                                                             \
    memcpy(g, N_dP, sizeof N_dP);                                             \
  }
#if ALL || defined(ONE_normalize)
NORM_KERNEL(normalize)
#endif
#if ALL || defined(ONE_normalize_plain)
NORM_KERNEL(normalize_plain)
#endif
#if ALL || defined(ONE_normalize_ni)
NORM_KERNEL(normalize_ni)
#endif
#if ALL || defined(ONE_normalize_ni_plain)
NORM_KERNEL(normalize_ni_plain)
#endif

#if ALL || defined(ONE_normalize_inplace)
/* out == x: normalize_plain_k(buf, buf, n), buf a copy of P made in primal
 * and gradient (every call sees the same input); each mag(x, n) reads the
 * entries already overwritten. dbuf is seeded with w (the adjoint of the
 * final buf) and holds d loss / d P afterwards. */
static double N_buf[NN], N_dbuf[NN];
static void normalize_inplace_primal(void) {
  memcpy(N_buf, N_P, sizeof N_buf);
  normalize_plain_k(N_buf, N_buf, n_n);
}
static void normalize_inplace_grad(void) {
  memcpy(N_buf, N_P, sizeof N_buf);
  memcpy(N_dbuf, N_w, sizeof N_w);
  __enzyme_autodiff((void *)normalize_plain_k, enzyme_dup, N_buf, N_dbuf,
                    enzyme_dup, N_buf, N_dbuf, enzyme_const, n_n);
}
static double normalize_inplace_loss(void) {
  normalize_inplace_primal();
  double L = 0;
  for (int j = 0; j < NN; j++)
    L += N_w[j] * N_buf[j];
  return L;
}
static void normalize_inplace_grad_fresh(double *g) {
  normalize_inplace_grad();
  memcpy(g, N_dbuf, sizeof N_dbuf);
}
#endif
