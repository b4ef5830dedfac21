/* linalg.c: BLAS and LAPACK rows of the benchmark (issue 19).
 *
 * Two programs written with library calls, differentiated in reverse
 * mode, each beside the same program with the calls replaced by plain
 * loops (also differentiated by Leantape):
 *  - mlp: a two-layer perceptron's forward pass, Z = X W1 (cblas_dgemm,
 *    batch 256, 512 -> 512), A = tanh(Z), O = A W2 (512 -> 10), loss
 *    0.5 / 256 * |O - Y|^2; active W1 and W2 (X and Y constant);
 *  - gp: a Gaussian process log marginal likelihood, n = 1000 points in
 *    1-D, RBF kernel: K's lower triangle, dpotrf_, dpotrs_ with y,
 *    -y^T alpha / 2 - sum log L_ii - n/2 log 2 pi; active the log
 *    lengthscale, log variance and log noise.
 * CPU time of the thread (measure.h), OPENBLAS_NUM_THREADS=1 (run.sh sets
 * it): each kernel's four functions (library primal and gradient, loop
 * primal and gradient) in BENCH_GROUPS groups of BENCH_REPS interleaved
 * rounds; each figure is the ratio of the fastest batches (min-max of the
 * groups: measure.h).
 * Targets: grad/primal <= 3.0 (mlp) and <= 4.0 (gp) for the library
 * version, and its gradient at least 5x faster than the loop version's
 * (met only over the whole spread). Gradients are checked against central
 * differences and the two versions against each other. Built by run.sh
 * with the plugin, linked with -lopenblas. */
#include <cblas.h>
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

#define KERNEL __attribute__((noinline))

void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, long l);
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info, long l);

/* ---- mlp ------------------------------------------------------------------- */

#define MB 256 /* batch */
#define MD 512 /* inputs */
#define MH 512 /* hidden */
#define MO 10  /* outputs */

/* row-major: X MB x MD, W1 MD x MH, W2 MH x MO; Z, A MB x MH, O MB x MO */
KERNEL double mlp_blas_k(const double *restrict X, const double *restrict W1,
                         const double *restrict W2, const double *restrict Y, double *restrict Z,
                         double *restrict A, double *restrict O) {
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, MB, MH, MD, 1.0, X, MD, W1, MH, 0.0, Z,
              MH);
  for (long i = 0; i < (long)MB * MH; i++)
    A[i] = tanh(Z[i]);
  cblas_dgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, MB, MO, MH, 1.0, A, MH, W2, MO, 0.0, O,
              MO);
  double l = 0;
  for (long i = 0; i < (long)MB * MO; i++) {
    double d = O[i] - Y[i];
    l += d * d;
  }
  return 0.5 * l / MB;
}

/* C (m x n) = A (m x k) B (k x n), row-major, as plain loops */
static inline void matmul(const double *restrict A, const double *restrict B, double *restrict C,
                          int m, int n, int k) {
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++)
      C[(long)i * n + j] = 0;
    for (int p = 0; p < k; p++) {
      double a = A[(long)i * k + p];
      for (int j = 0; j < n; j++)
        C[(long)i * n + j] += a * B[(long)p * n + j];
    }
  }
}

KERNEL double mlp_loops_k(const double *restrict X, const double *restrict W1,
                          const double *restrict W2, const double *restrict Y, double *restrict Z,
                          double *restrict A, double *restrict O) {
  matmul(X, W1, Z, MB, MH, MD);
  for (long i = 0; i < (long)MB * MH; i++)
    A[i] = tanh(Z[i]);
  matmul(A, W2, O, MB, MO, MH);
  double l = 0;
  for (long i = 0; i < (long)MB * MO; i++) {
    double d = O[i] - Y[i];
    l += d * d;
  }
  return 0.5 * l / MB;
}

static double *mX, *mY, *mW1, *mW2, *mZ, *mA, *mO, *dW1, *dW2, *dZ, *dA_, *dO;

#define MLP_WRAPPERS(tag, kern)                                                                  \
  static double tag##_loss(void) { return kern(mX, mW1, mW2, mY, mZ, mA, mO); }                   \
  static void tag##_grad(void) {                                                                 \
    memset(dW1, 0, sizeof(double) * MD * MH);                                                    \
    memset(dW2, 0, sizeof(double) * MH * MO);                                                    \
    memset(dZ, 0, sizeof(double) * MB * MH);                                                     \
    memset(dA_, 0, sizeof(double) * MB * MH);                                                    \
    memset(dO, 0, sizeof(double) * MB * MO);                                                     \
    __enzyme_autodiff((void *)kern, enzyme_const, mX, enzyme_dup, mW1, dW1, enzyme_dup, mW2, dW2, \
                      enzyme_const, mY, enzyme_dup, mZ, dZ, enzyme_dup, mA, dA_, enzyme_dup, mO,  \
                      dO);                                                                        \
  }
MLP_WRAPPERS(mlpb, mlp_blas_k)
MLP_WRAPPERS(mlpl, mlp_loops_k)

/* ---- gp ---------------------------------------------------------------------- */

#define GN 1000

/* K's lower triangle, column-major: s2 exp(-(xi - xj)^2 / (2 ell^2)) + sn2 I */
static inline void gp_kernel(const double *theta, const double *x, double *K, int n) {
  double ell = exp(theta[0]), s2 = exp(theta[1]), sn2 = exp(theta[2]);
  for (int j = 0; j < n; j++)
    for (int i = j; i < n; i++) {
      double d = x[i] - x[j];
      K[i + (long)j * n] = s2 * exp(-0.5 * d * d / (ell * ell)) + (i == j ? sn2 : 0);
    }
}

KERNEL double gp_lapack_k(const double *restrict theta, const double *restrict x,
                          const double *restrict y, double *restrict K, double *restrict alpha,
                          int n) {
  gp_kernel(theta, x, K, n);
  for (int i = 0; i < n; i++)
    alpha[i] = y[i];
  int info, one = 1;
  dpotrf_("L", &n, K, &n, &info, 1);
  dpotrs_("L", &n, &one, K, &n, alpha, &n, &info, 1);
  double quad = 0, logdet = 0;
  for (int i = 0; i < n; i++) {
    quad += y[i] * alpha[i];
    logdet += log(K[i + (long)i * n]);
  }
  return -0.5 * quad - logdet - 0.5 * n * log(2 * M_PI);
}

/* the same with an in-place Cholesky (column by column: K = L L^T) and
 * the two triangular solves as loops */
KERNEL double gp_loops_k(const double *restrict theta, const double *restrict x,
                         const double *restrict y, double *restrict K, double *restrict alpha,
                         int n) {
  gp_kernel(theta, x, K, n);
  for (int j = 0; j < n; j++) {
    double s = K[j + (long)j * n];
    for (int k = 0; k < j; k++)
      s -= K[j + (long)k * n] * K[j + (long)k * n];
    double d = sqrt(s);
    K[j + (long)j * n] = d;
    for (int i = j + 1; i < n; i++) {
      double t = K[i + (long)j * n];
      for (int k = 0; k < j; k++)
        t -= K[i + (long)k * n] * K[j + (long)k * n];
      K[i + (long)j * n] = t / d;
    }
  }
  for (int i = 0; i < n; i++) {
    double s = y[i];
    for (int k = 0; k < i; k++)
      s -= K[i + (long)k * n] * alpha[k];
    alpha[i] = s / K[i + (long)i * n];
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = alpha[i];
    for (int k = i + 1; k < n; k++)
      s -= K[k + (long)i * n] * alpha[k];
    alpha[i] = s / K[i + (long)i * n];
  }
  double quad = 0, logdet = 0;
  for (int i = 0; i < n; i++) {
    quad += y[i] * alpha[i];
    logdet += log(K[i + (long)i * n]);
  }
  return -0.5 * quad - logdet - 0.5 * n * log(2 * M_PI);
}

static double gTheta[3], gdTheta[3], *gx, *gy, *gK, *gdK, *gal, *gdal;

#define GP_WRAPPERS(tag, kern)                                                                   \
  static double tag##_loss(void) { return kern(gTheta, gx, gy, gK, gal, GN); }                    \
  static void tag##_grad(void) {                                                                 \
    memset(gdTheta, 0, sizeof gdTheta);                                                          \
    memset(gdK, 0, sizeof(double) * GN * GN);                                                    \
    memset(gdal, 0, sizeof(double) * GN);                                                        \
    __enzyme_autodiff((void *)kern, enzyme_dup, gTheta, gdTheta, enzyme_const, gx, enzyme_const, \
                      gy, enzyme_dup, gK, gdK, enzyme_dup, gal, gdal, enzyme_const, GN);          \
  }
GP_WRAPPERS(gpb, gp_lapack_k)
GP_WRAPPERS(gpl, gp_loops_k)

/* ---- set-up, checks, table ---------------------------------------------------- */

static volatile double sink;
static void mlpb_primal(void) { sink = mlpb_loss(); }
static void mlpl_primal(void) { sink = mlpl_loss(); }
static void gpb_primal(void) { sink = gpb_loss(); }
static void gpl_primal(void) { sink = gpl_loss(); }

static void fill(double *p, long n, double lo, double hi, unsigned seed) {
  unsigned long long s = 0x9E3779B97F4A7C15ULL * (seed + 7);
  for (long i = 0; i < n; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    p[i] = lo + (hi - lo) * (double)(s >> 11) * 0x1.0p-53;
  }
}

static double *alloc(long n) { return calloc((size_t)n, sizeof(double)); }

static void setup(void) {
  mX = alloc((long)MB * MD), mY = alloc((long)MB * MO);
  mW1 = alloc((long)MD * MH), mW2 = alloc((long)MH * MO);
  mZ = alloc((long)MB * MH), mA = alloc((long)MB * MH), mO = alloc((long)MB * MO);
  dW1 = alloc((long)MD * MH), dW2 = alloc((long)MH * MO);
  dZ = alloc((long)MB * MH), dA_ = alloc((long)MB * MH), dO = alloc((long)MB * MO);
  fill(mX, (long)MB * MD, -1, 1, 1);
  fill(mY, (long)MB * MO, -1, 1, 2);
  fill(mW1, (long)MD * MH, -0.06, 0.06, 3);
  fill(mW2, (long)MH * MO, -0.2, 0.2, 4);
  gx = alloc(GN), gy = alloc(GN), gal = alloc(GN), gdal = alloc(GN);
  gK = alloc((long)GN * GN), gdK = alloc((long)GN * GN);
  gTheta[0] = log(0.8), gTheta[1] = log(1.3), gTheta[2] = log(0.1);
  fill(gy, GN, -0.2, 0.2, 7);
  for (int i = 0; i < GN; i++) {
    gx[i] = 20.0 * i / GN;
    gy[i] += sin(gx[i]);
  }
}

/* the largest relative error of entries idx of the gradient g of loss
 * with respect to p against central differences */
static double fd_err(double (*loss)(void), double *p, const double *g, const long *idx, int n) {
  double e = 0;
  for (int s = 0; s < n; s++) {
    long i = idx[s];
    double v = p[i], h = 1e-6 * fmax(1, fabs(v));
    volatile double vp = v + h, vm = v - h;
    p[i] = vp;
    double fp = loss();
    p[i] = vm;
    double fm = loss();
    p[i] = v;
    double fd = (fp - fm) / (vp - vm);
    e = fmax(e, fabs(g[i] - fd) / fmax(fabs(fd), 1e-4));
  }
  return e;
}

static double max_rel(const double *a, const double *b, long n) {
  double e = 0, m = 0;
  for (long i = 0; i < n; i++)
    m = fmax(m, fabs(b[i]));
  for (long i = 0; i < n; i++)
    e = fmax(e, fabs(a[i] - b[i]) / fmax(m, 1e-300));
  return e;
}

/* the check of one kernel: FD error of the library version's gradient,
 * and the largest difference of the two versions' gradients (relative
 * to the largest entry) */
static int check_mlp(double *efd, double *ev) {
  mlpl_grad();
  double *g1 = alloc((long)MD * MH), *g2 = alloc((long)MH * MO);
  memcpy(g1, dW1, sizeof(double) * MD * MH);
  memcpy(g2, dW2, sizeof(double) * MH * MO);
  mlpb_grad();
  *ev = fmax(max_rel(dW1, g1, (long)MD * MH), max_rel(dW2, g2, (long)MH * MO));
  long i1[3] = {0, 1234, (long)MD * MH - 1}, i2[3] = {0, 777, (long)MH * MO - 1};
  double *s1 = alloc((long)MD * MH), *s2 = alloc((long)MH * MO);
  memcpy(s1, dW1, sizeof(double) * MD * MH);
  memcpy(s2, dW2, sizeof(double) * MH * MO);
  *efd = fmax(fd_err(mlpb_loss, mW1, s1, i1, 3), fd_err(mlpb_loss, mW2, s2, i2, 3));
  free(g1), free(g2), free(s1), free(s2);
  return !(*efd <= 1e-5 && *ev <= 1e-10);
}

static int check_gp(double *efd, double *ev) {
  double g[3];
  gpl_grad();
  memcpy(g, gdTheta, sizeof g);
  gpb_grad();
  *ev = max_rel(gdTheta, g, 3);
  double s[3];
  memcpy(s, gdTheta, sizeof s);
  long idx[3] = {0, 1, 2};
  *efd = fd_err(gpb_loss, gTheta, s, idx, 3);
  return !(*efd <= 1e-5 && *ev <= 1e-8);
}

enum { PB, GB, PL, GL, NQ };
static double q_b(const double *t) { return t[GB] / t[PB]; }
static double q_l(const double *t) { return t[GL] / t[PL]; }
static double q_speed(const double *t) { return t[GL] / t[GB]; }

static void cell(spread_t s) { printf(" %.2f (%.2f-%.2f) |", s.fig, s.lo, s.hi); }

static int row(const char *name, const char *calls, void (*pb)(void), void (*gb)(void),
               void (*pl)(void), void (*gl)(void), int (*check)(double *, double *),
               double target) {
  double efd, ev;
  int wrong = check(&efd, &ev);
  static rounds_t t;
  void (*const f[NQ])(void) = {pb, gb, pl, gl};
  rounds(f, NQ, 0.05, &t);
  char label[256];
  snprintf(label, sizeof label, "linalg:%s", name);
  rounds_keep(label, &t);
  spread_t b = spread_of(&t, q_b), sp = spread_of(&t, q_speed);
  printf("| %s | %s | %s (%.1e; %.1e) | %.3f | %.3f |", name, calls, wrong ? "WRONG" : "ok", efd,
         ev, 1e3 * median_time(&t, PB), 1e3 * median_time(&t, GB));
  cell(b);
  printf(" %.3f | %.3f |", 1e3 * median_time(&t, PL), 1e3 * median_time(&t, GL));
  cell(spread_of(&t, q_l));
  cell(sp);
  int met_t = b.hi <= target, met_s = sp.lo >= 5;
  if (met_t && met_s)
    printf(" met |\n");
  else
    printf(" %s%s%s |\n",
           met_t ? "" : b.fig <= target ? "grad/primal in part of the spread" : "grad/primal",
           !met_t && !met_s ? ", " : "",
           met_s ? "" : sp.fig >= 5 ? "speedup<5 in part of the spread" : "speedup<5");
  return wrong;
}

int main(void) {
  setup();
  int bad = 0;
  printf("BLAS and LAPACK (CPU time, OPENBLAS_NUM_THREADS=%s; the fastest batches (min-max of %d "
         "groups of %d interleaved rounds); targets: library grad/primal <= 3.0 (mlp), <= 4.0 "
         "(gp); its gradient >= 5x faster than the loop version's):\n\n",
         getenv("OPENBLAS_NUM_THREADS") ? getenv("OPENBLAS_NUM_THREADS") : "unset",
         bench_groups_all(), bench_reps());
  printf("| kernel | library calls | grad ok (vs central differences; vs the loop version) |"
         " primal ms | grad ms | grad/primal | loops: primal ms | loops: grad ms |"
         " loops: grad/primal | loop grad / library grad | targets (met: the whole spread) |\n");
  printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  bad |= row("linalg_mlp_256x512x512x10", "cblas_dgemm x2", mlpb_primal, mlpb_grad, mlpl_primal,
             mlpl_grad, check_mlp, 3.0);
  bad |= row("linalg_gp_1000", "dpotrf_, dpotrs_", gpb_primal, gpb_grad, gpl_primal, gpl_grad,
             check_gp, 4.0);
  double lo, hi;
  int nl;
  load_range(&lo, &hi, &nl);
  printf("\nLoad average (1 min) during the table: %.2f-%.2f (%d samples)\n", lo, hi, nl);
  return bad;
}
