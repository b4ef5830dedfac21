/* kernels.c: the benchmark kernels, differentiated with __enzyme_autodiff.
 * Compiled with clang-22 -O2 -fpass-plugin=build/lib/LLVMLeantape.so.
 *
 * Seed 001's suite (written in C), seed 000's in-place add (n = 4096),
 * seed 002's normalize/mag (n = 16000), and two kernels whose callees stay
 * calls because they are recursive (tree_sum_4096, hot_pw_100000/10000).
 * No kernel is opt-in (extra) at present; the mechanism stays.
 * Restrict/plain twins: every kernel with restrict pointers has a `_plain`
 * twin, the same code without restrict (and the plain in-place add a
 * `_restrict` twin); two alias rows call plain kernels with overlapping
 * arrays (correctness of the undo-log path, and its cost).
 * The ADBench objectives are in adbench.c.
 *
 * -DBENCH_ONE -DONE_<tag> compiles only the kernel <tag> (its function,
 * wrappers and table entry): run.sh's per-kernel compile-time column.
 * Kernel functions are external and noinline so the timed primal is the
 * same function the plugin differentiates (no constant propagation of
 * sizes into the primal only).
 * Helpers called from kernels (mag, the per-element map function) are
 * left to the optimiser unless stated otherwise. */
#include <leantape.h>
#include <math.h>
#include <string.h>

#include "bench.h"

#define KERNEL __attribute__((noinline))
#ifdef BENCH_ONE
#define ALL 0
#else
#define ALL 1
#endif

static volatile double sink;

/* deterministic uniform data in [lo, hi) */
static void fill(double *p, int n, double lo, double hi, unsigned seed) {
  unsigned long long s = 0x9E3779B97F4A7C15ULL * (seed + 1);
  for (int i = 0; i < n; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    p[i] = lo + (hi - lo) * (double)(s >> 11) * 0x1.0p-53;
  }
}

/* ---- sum_1000, _sum_1000, sum_sin_1000 --------------------------------- */
#define NSUM 1000
static double S_P[NSUM], S_dP[NSUM];
static int n_sum = NSUM;

#if ALL || defined(ONE_sum)
KERNEL double sum_k(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
#endif

#if ALL || defined(ONE__sum)
/* hand-written while loop with 1-based index, as Julia's _sum */
KERNEL double _sum_k(const double *x, int n) {
  double s = 0;
  int i = 1;
  while (i <= n) {
    s += x[i - 1];
    i += 1;
  }
  return s;
}
#endif

#if ALL || defined(ONE_sum_sin)
KERNEL double sum_sin_k(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(x[i]);
  return s;
}
#endif

static double *sum_param(void) { return S_P; }
static void sum_setup(void) { fill(S_P, NSUM, -2, 2, 1); }

#define SCALAR_KERNEL(tag, P, dP, N, CALLARGS, ...)                         \
  static void tag##_primal(void) { sink = tag##_k CALLARGS; }                 \
  static double tag##_loss(void) { return tag##_k CALLARGS; }                 \
  static void tag##_grad(void) { __enzyme_autodiff((void *)tag##_k, __VA_ARGS__); } \
  static void tag##_grad_fresh(double *g) {                                   \
    memset(dP, 0, (N) * sizeof(double));                                      \
    tag##_grad();                                                             \
    memcpy(g, dP, (N) * sizeof(double));                                      \
  }

#if ALL || defined(ONE_sum)
SCALAR_KERNEL(sum, S_P, S_dP, NSUM, (S_P, n_sum),
              enzyme_dup, S_P, S_dP, enzyme_const, n_sum)
#endif
#if ALL || defined(ONE__sum)
SCALAR_KERNEL(_sum, S_P, S_dP, NSUM, (S_P, n_sum),
              enzyme_dup, S_P, S_dP, enzyme_const, n_sum)
#endif
#if ALL || defined(ONE_sum_sin)
SCALAR_KERNEL(sum_sin, S_P, S_dP, NSUM, (S_P, n_sum),
              enzyme_dup, S_P, S_dP, enzyme_const, n_sum)
#endif

/* ---- kron_sum, kron_view_sum (20x20 each) ------------------------------ */
#define KM 20
/* P = [A (KM*KM), B (KM*2KM)]: kron_sum uses B's first KM*KM entries as a
 * dense row-major matrix; kron_view_sum views A transposed (strides 1, KM)
 * and B as every other column of a KM x 2KM matrix (strides 2KM, 2). */
#define KNP (KM * KM + KM * 2 * KM)
static double K_P[KNP], K_dP[KNP];
static int k_m = KM;
static long k_as0 = 1, k_as1 = KM, k_bs0 = 2 * KM, k_bs1 = 2;

#if ALL || defined(ONE_kron)
/* sum over all entries of kron(A, B): entry (i*p+k, j*q+l) = A[i,j]*B[k,l],
 * traversed row by row of the Kronecker product */
KERNEL double kron_k(const double *A, const double *B, int m, int n, int p,
                     int q) {
  double s = 0;
  for (int i = 0; i < m; i++)
    for (int k = 0; k < p; k++)
      for (int j = 0; j < n; j++)
        for (int l = 0; l < q; l++)
          s += A[i * n + j] * B[k * q + l];
  return s;
}
#endif

#if ALL || defined(ONE_kron_view)
KERNEL double kron_view_k(const double *A, long as0, long as1, const double *B,
                          long bs0, long bs1, int m, int n, int p, int q) {
  double s = 0;
  for (int i = 0; i < m; i++)
    for (int k = 0; k < p; k++)
      for (int j = 0; j < n; j++)
        for (int l = 0; l < q; l++)
          s += A[i * as0 + j * as1] * B[k * bs0 + l * bs1];
  return s;
}
#endif

static double *kron_param(void) { return K_P; }
static void kron_setup(void) { fill(K_P, KNP, -1, 1, 2); }
#if ALL || defined(ONE_kron)
SCALAR_KERNEL(kron, K_P, K_dP, KNP, (K_P, K_P + KM * KM, k_m, k_m, k_m, k_m),
              enzyme_dup, K_P, K_dP, enzyme_dup, K_P + KM * KM,
              K_dP + KM * KM, enzyme_const, k_m, enzyme_const, k_m,
              enzyme_const, k_m, enzyme_const, k_m)
#endif
#if ALL || defined(ONE_kron_view)
SCALAR_KERNEL(kron_view, K_P, K_dP, KNP,
              (K_P, k_as0, k_as1, K_P + KM * KM, k_bs0, k_bs1, k_m, k_m, k_m,
               k_m),
              enzyme_dup, K_P, K_dP, enzyme_const, k_as0, enzyme_const, k_as1,
              enzyme_dup, K_P + KM * KM, K_dP + KM * KM, enzyme_const, k_bs0,
              enzyme_const, k_bs1, enzyme_const, k_m, enzyme_const, k_m,
              enzyme_const, k_m, enzyme_const, k_m)
#endif

/* ---- sum(sin(cos(exp(x)))) on a 10x10 array, three styles -------------- */
#define SC 10
static double C_P[SC * SC], C_dP[SC * SC];
static int c_n = SC;

#if ALL || defined(ONE_naive_sce)
/* plain nested loops */
KERNEL double naive_sce_k(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += sin(cos(exp(x[i * n + j])));
  return s;
}
#endif

#if ALL || defined(ONE_map_sce)
/* a helper function called per element (kept a real call) */
__attribute__((noinline)) double sce(double x) { return sin(cos(exp(x))); }
KERNEL double map_sce_k(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += sce(x[i]);
  return s;
}
#endif

#if ALL || defined(ONE_bcast_sce)
/* broadcast into an output array, then sum it */
KERNEL double bcast_sce_k(const double *x, int n) {
  double tmp[SC * SC];
  for (int i = 0; i < n * n; i++)
    tmp[i] = sin(cos(exp(x[i])));
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += tmp[i];
  return s;
}
#endif

static double *sce_param(void) { return C_P; }
static void sce_setup(void) { fill(C_P, SC * SC, -1.5, 1.5, 3); }
#if ALL || defined(ONE_naive_sce)
SCALAR_KERNEL(naive_sce, C_P, C_dP, SC *SC, (C_P, c_n),
              enzyme_dup, C_P, C_dP, enzyme_const, c_n)
#endif
#if ALL || defined(ONE_map_sce)
SCALAR_KERNEL(map_sce, C_P, C_dP, SC *SC, (C_P, c_n),
              enzyme_dup, C_P, C_dP, enzyme_const, c_n)
#endif
#if ALL || defined(ONE_bcast_sce)
SCALAR_KERNEL(bcast_sce, C_P, C_dP, SC *SC, (C_P, c_n),
              enzyme_dup, C_P, C_dP, enzyme_const, c_n)
#endif

/* ---- simple_mlp: L = sum (Y - W2 tanh(W1 X))^2, d = 20, batch 10 ------- */
#define MD 20
#define MB 10
static double M_P[2 * MD * MD], M_dP[2 * MD * MD];
static double M_X[MD * MB], M_Y[MD * MB];
static int m_d = MD, m_b = MB;

#if ALL || defined(ONE_mlp)
KERNEL double mlp_k(const double *W1, const double *W2, const double *X,
                    const double *Y, int d, int b) {
  double H[MD * MB];
  for (int i = 0; i < d; i++)
    for (int k = 0; k < b; k++) {
      double a = 0;
      for (int j = 0; j < d; j++)
        a += W1[i * d + j] * X[j * b + k];
      H[i * b + k] = tanh(a);
    }
  double L = 0;
  for (int i = 0; i < d; i++)
    for (int k = 0; k < b; k++) {
      double z = 0;
      for (int j = 0; j < d; j++)
        z += W2[i * d + j] * H[j * b + k];
      double r = Y[i * b + k] - z;
      L += r * r;
    }
  return L;
}
#endif

static double *mlp_param(void) { return M_P; }
static void mlp_setup(void) {
  fill(M_P, 2 * MD * MD, -0.3, 0.3, 4);
  fill(M_X, MD * MB, -1, 1, 5);
  fill(M_Y, MD * MB, -1, 1, 6);
}
#if ALL || defined(ONE_mlp)
SCALAR_KERNEL(mlp, M_P, M_dP, 2 * MD * MD,
              (M_P, M_P + MD * MD, M_X, M_Y, m_d, m_b),
              enzyme_dup, M_P, M_dP, enzyme_dup, M_P + MD * MD,
              M_dP + MD * MD, enzyme_const, M_X, enzyme_const, M_Y,
              enzyme_const, m_d, enzyme_const, m_b)
#endif

/* ---- gp_lml: GP log marginal likelihood, RBF kernel, n = 20 ------------ */
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

/* ---- large_single_block: ~100 scalar operations, no loop --------------- */
static double B_P[4], B_dP[4];
#define STEP(c0)                                                               \
  a = sin(a * b + 0.1 * c);                                                    \
  b = cos(b + a * d) * (c0);                                                   \
  c = tanh(c * a - 0.3 * d);                                                   \
  d = 0.5 * d + a * b - 0.2 * c;
#if ALL || defined(ONE_block)
KERNEL double block_k(const double *x) {
  double a = x[0], b = x[1], c = x[2], d = x[3];
  STEP(0.9) STEP(1.1) STEP(0.8) STEP(1.2) STEP(0.95)
  STEP(1.05) STEP(0.85) STEP(1.15)
  return a * b + c * d + a + b + c + d;
}
#endif
static double *block_param(void) { return B_P; }
static void block_setup(void) { fill(B_P, 4, -1, 1, 8); }
#if ALL || defined(ONE_block)
SCALAR_KERNEL(block, B_P, B_dP, 4, (B_P), enzyme_dup, B_P, B_dP)
#endif

/* ---- seed 000: in-place add y[i] = y[i] + x[i], n = 4096 ---------------- */
/* add_k has plain pointers (as seed 000); add_restrict_k is its restrict
 * twin; inplace_add_4096_alias calls add_k with y == x (y[i] = 2 y[i]). */
#define NADD 4096
static double A_P[2 * NADD], A_dP[2 * NADD], A_w[NADD], A_save[NADD];
static int a_n = NADD;

#if ALL || defined(ONE_add) || defined(ONE_add_alias)
KERNEL void add_k(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] + x[i];
}
#endif
#if ALL || defined(ONE_add_restrict)
KERNEL void add_restrict_k(double *restrict y, const double *restrict x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] + x[i];
}
#endif
static double *add_param(void) { return A_P; }
static void add_setup(void) {
  fill(A_P, 2 * NADD, -1, 1, 9);
  fill(A_w, NADD, -1, 1, 10);
  for (int i = 0; i < NADD; i++)
    A_dP[i] = A_w[i];
}
#define ADD_KERNEL(tag)                                                        \
  static void tag##_primal(void) { tag##_k(A_P, A_P + NADD, a_n); }           \
  static void tag##_grad(void) {                                              \
    __enzyme_autodiff((void *)tag##_k, enzyme_dup, A_P, A_dP, enzyme_dup,     \
                      A_P + NADD, A_dP + NADD, enzyme_const, a_n);            \
  }                                                                           \
  /* objective: sum_j w_j y_j after the call (y restored afterwards) */       \
  static double tag##_loss(void) {                                            \
    memcpy(A_save, A_P, sizeof A_save);                                       \
    tag##_k(A_P, A_P + NADD, a_n);                                            \
    double L = 0;                                                             \
    for (int j = 0; j < NADD; j++)                                            \
      L += A_w[j] * A_P[j];                                                   \
    memcpy(A_P, A_save, sizeof A_save);                                       \
    return L;                                                                 \
  }                                                                           \
  static void tag##_grad_fresh(double *g) {                                   \
    memcpy(A_dP, A_w, NADD * sizeof(double));                                 \
    memset(A_dP + NADD, 0, NADD * sizeof(double));                            \
    memcpy(A_save, A_P, sizeof A_save);                                       \
    tag##_grad();                                                             \
    memcpy(A_P, A_save, sizeof A_save);                                       \
    memcpy(g, A_dP, 2 * NADD * sizeof(double));                               \
  }
#if ALL || defined(ONE_add)
ADD_KERNEL(add)
#endif
#if ALL || defined(ONE_add_restrict)
ADD_KERNEL(add_restrict)
#endif

#if ALL || defined(ONE_add_alias)
/* y == x: the parameters are P[0..NADD), y starts as a copy of them (so
 * every call sees the same input; the copy is in primal and gradient);
 * objective sum_j w_j y_j after the call, = 2 sum_j w_j P_j. */
static double A_y[NADD], A_dy[NADD];
static void add_alias_primal(void) {
  memcpy(A_y, A_P, sizeof A_y);
  add_k(A_y, A_y, a_n);
}
static void add_alias_grad(void) {
  memcpy(A_y, A_P, sizeof A_y);
  memcpy(A_dy, A_w, sizeof A_dy);
  __enzyme_autodiff((void *)add_k, enzyme_dup, A_y, A_dy, enzyme_dup, A_y,
                    A_dy, enzyme_const, a_n);
}
static double add_alias_loss(void) {
  add_alias_primal();
  double L = 0;
  for (int j = 0; j < NADD; j++)
    L += A_w[j] * A_y[j];
  return L;
}
static void add_alias_grad_fresh(double *g) {
  add_alias_grad();
  memcpy(g, A_dy, sizeof A_dy);
}
#endif

/* ---- seed 002: out[j] = x[j] / mag(x, n), n = 16000 (O(n^2)) ----------- */
/* normalize_k: restrict pointers (seed 002's IR has noalias);
 * normalize_plain_k: the same code without restrict (out and x separate
 * arrays in normalize_16000_plain; the same array, out == x, in
 * normalize_16000_plain_inplace). normalize_ni*: mag noinline (which the
 * plugin's clone drops: it is inlined). */
#define NN 16000
static double N_P[NN], N_dP[NN], N_out[NN], N_dout[NN], N_w[NN];
static int n_n = NN;

#if ALL || defined(ONE_normalize) || defined(ONE_normalize_plain) ||          \
    defined(ONE_normalize_inplace)
double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}
#endif
#if ALL || defined(ONE_normalize_ni) || defined(ONE_normalize_ni_plain)
__attribute__((noinline)) double mag_ni(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}
#endif
#if ALL || defined(ONE_normalize)
KERNEL void normalize_k(double *restrict out, const double *restrict x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag(x, n);
}
#endif
#if ALL || defined(ONE_normalize_plain) || defined(ONE_normalize_inplace)
KERNEL void normalize_plain_k(double *out, const double *x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag(x, n);
}
#endif
#if ALL || defined(ONE_normalize_ni)
KERNEL void normalize_ni_k(double *restrict out, const double *restrict x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag_ni(x, n);
}
#endif
#if ALL || defined(ONE_normalize_ni_plain)
KERNEL void normalize_ni_plain_k(double *out, const double *x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag_ni(x, n);
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

/* ---- tree_sum_4096: a recursion over halves of an array ---------------- */
/* tree_r calls itself, so it stays a call with its own augmented forward
 * and reverse; each activation's tape is a separate sub-tape. Leaves of
 * 8 elements are a loop. 1023 activations for n = 4096. */
#define NTREE 4096
static double T_P[NTREE], T_dP[NTREE];
static int t_n = NTREE;

#if ALL || defined(ONE_tree)
double tree_r(const double *x, int lo, int hi) {
  if (hi - lo <= 8) {
    double s = 0;
    for (int i = lo; i < hi; i++)
      s += x[i] * x[i];
    return s;
  }
  int m = (lo + hi) / 2;
  double l = tree_r(x, lo, m), r = tree_r(x, m, hi);
  return l * 0.9 + sin(r);
}
KERNEL double tree_k(const double *x, int n) { return tree_r(x, 0, n); }
#endif

static double *tree_param(void) { return T_P; }
static void tree_setup(void) { fill(T_P, NTREE, -1, 1, 13); }
#if ALL || defined(ONE_tree)
SCALAR_KERNEL(tree, T_P, T_dP, NTREE, (T_P, t_n),
              enzyme_dup, T_P, T_dP, enzyme_const, t_n)
#endif

/* ---- hot_pw_100000: a kept call in a counted loop ---------------------- */
/* pw(x, k) = x^k by repeated squaring, recursive (so a call, not inlined),
 * called once per iteration of a loop of n = 1e5 (k[i] in 1..8: 2 to 5
 * activations per call). The trip count is known at loop entry, so the
 * per-iteration record holding the call's tape is preallocated with the
 * loop cache. hot_pw_10000 is the same at n = 1e4, to read how the
 * allocation count scales with the trip count. */
#define NHOT 100000
static double H_P[NHOT], H_dP[NHOT];
static int H_k[NHOT];
static int h_n = NHOT, h_n4 = NHOT / 10;

#if ALL || defined(ONE_hot_pw) || defined(ONE_hot_pw4)
double pw(double x, int k) {
  if (k == 0)
    return 1.0;
  double h = pw(x * x, k >> 1);
  return (k & 1) ? x * h : h;
}
KERNEL double hot_pw_k(const double *x, const int *k, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += pw(x[i], k[i]);
  return s;
}
#endif

static double *hot_param(void) { return H_P; }
static void hot_setup(void) {
  fill(H_P, NHOT, 0.6, 1.1, 14);
  for (int i = 0; i < NHOT; i++)
    H_k[i] = 1 + (int)((i * 2654435761u) >> 29); /* 1..8 */
}
#if ALL || defined(ONE_hot_pw)
SCALAR_KERNEL(hot_pw, H_P, H_dP, NHOT, (H_P, H_k, h_n),
              enzyme_dup, H_P, H_dP, enzyme_const, H_k, enzyme_const, h_n)
#endif
#if ALL || defined(ONE_hot_pw4)
#define hot_pw4_k hot_pw_k /* the same function, n = 1e4 */
SCALAR_KERNEL(hot_pw4, H_P, H_dP, NHOT / 10, (H_P, H_k, h_n4),
              enzyme_dup, H_P, H_dP, enzyme_const, H_k, enzyme_const, h_n4)
#endif

/* ---- the table ---------------------------------------------------------- */
#define ENTRY(label, tgt, np, fam, tag) ENTRYX(label, tgt, 0, np, fam, tag, 0)
#define ENTRYX(label, tgt, extra, np, fam, tag, twin)                          \
  {label,        tgt,        extra,      np,                                   \
   fam##_param,  fam##_setup, tag##_primal, tag##_grad,                        \
   tag##_loss,   tag##_grad_fresh, #tag, __FILE__, twin}

const kernel_t kernels[] = {
#if ALL || defined(ONE_sum)
    ENTRY("sum_1000", TGT_NOTAPE, NSUM, sum, sum),
#endif
#if ALL || defined(ONE__sum)
    ENTRY("_sum_1000", TGT_NOTAPE, NSUM, sum, _sum),
#endif
#if ALL || defined(ONE_sum_sin)
    ENTRY("sum_sin_1000", TGT_NOTAPE, NSUM, sum, sum_sin),
#endif
#if ALL || defined(ONE_kron)
    ENTRY("kron_sum", TGT_GENERAL, KNP, kron, kron),
#endif
#if ALL || defined(ONE_kron_view)
    ENTRY("kron_view_sum", TGT_GENERAL, KNP, kron, kron_view),
#endif
#if ALL || defined(ONE_naive_sce)
    ENTRY("naive_map_sin_cos_exp", TGT_GENERAL, SC * SC, sce, naive_sce),
#endif
#if ALL || defined(ONE_map_sce)
    ENTRY("map_sin_cos_exp", TGT_GENERAL, SC * SC, sce, map_sce),
#endif
#if ALL || defined(ONE_bcast_sce)
    ENTRY("broadcast_sin_cos_exp", TGT_GENERAL, SC * SC, sce, bcast_sce),
#endif
#if ALL || defined(ONE_mlp)
    ENTRY("simple_mlp", TGT_GENERAL, 2 * MD * MD, mlp, mlp),
#endif
#if ALL || defined(ONE_gp_lml)
    ENTRY("gp_lml", TGT_GENERAL, 3, gp, gp_lml),
#endif
#if ALL || defined(ONE_block)
    ENTRY("large_single_block", TGT_GENERAL, 4, block, block),
#endif
#if ALL || defined(ONE_add)
    /* plain pointers; its restrict twin is the next row */
    ENTRYX("inplace_add_4096", TGT_NOTAPE, 0, 2 * NADD, add, add,
           "inplace_add_4096_restrict"),
#endif
#if ALL || defined(ONE_add_restrict)
    ENTRY("inplace_add_4096_restrict", TGT_NOTAPE, 2 * NADD, add, add_restrict),
#endif
#if ALL || defined(ONE_add_alias)
    ENTRY("inplace_add_4096_alias", TGT_GENERAL, NADD, add, add_alias),
#endif
#if ALL || defined(ONE_normalize)
    ENTRY("normalize_16000", TGT_NORMALIZE, NN, norm, normalize),
#endif
#if ALL || defined(ONE_normalize_plain)
    ENTRYX("normalize_16000_plain", TGT_NORMALIZE, 0, NN, norm,
           normalize_plain, "normalize_16000"),
#endif
#if ALL || defined(ONE_normalize_inplace)
    ENTRY("normalize_16000_plain_inplace", TGT_GENERAL, NN, norm,
          normalize_inplace),
#endif
#if ALL || defined(ONE_tree)
    ENTRY("tree_sum_4096", TGT_GENERAL, NTREE, tree, tree),
#endif
#if ALL || defined(ONE_hot_pw)
    ENTRY("hot_pw_100000", TGT_GENERAL, NHOT, hot, hot_pw),
#endif
#if ALL || defined(ONE_hot_pw4)
    ENTRY("hot_pw_10000", TGT_GENERAL, NHOT / 10, hot, hot_pw4),
#endif
    /* opt-in (BENCH_EXTRA=1) until 2026-12-01 (~35 s per gradient when
     * mag stayed a call); the plugin now inlines mag_ni (its size policy
     * drops noinline), so they run by default */
#if ALL || defined(ONE_normalize_ni)
    ENTRY("normalize_16000_noinline_mag", TGT_NORMALIZE, NN, norm,
          normalize_ni),
#endif
#if ALL || defined(ONE_normalize_ni_plain)
    ENTRYX("normalize_16000_noinline_mag_plain", TGT_NORMALIZE, 0, NN, norm,
           normalize_ni_plain, "normalize_16000_noinline_mag"),
#endif
};
const int nkernels = sizeof kernels / sizeof kernels[0];
