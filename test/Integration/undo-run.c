// Run entries of the undo log (gen/undoblock.c): a store at one address S
// in every iteration of its loop, such as a triangular solve's accumulator
// x[i] -= L[i][j] * x[j] with plain pointers, logged S's old value in every
// iteration (24 bytes and a call each). Now A checks in the loop's
// preheader whether the loads the reverse pass re-reads in the loop stay
// clear of S over the whole run; then it saves S once for the run and
// skips the saves in the loop, else it logs every store as before. Shapes:
// forward substitution (the loads below S), backward substitution run
// downwards (above S), a sweep whose every run reads S itself (the
// fallback), rows of both kinds in one call (run entries and per-store
// entries interleaved in the log), strided loads beside an odd slot with a
// select, and a float state. Each gradient against central differences at
// -O0 and -O2 (and under AddressSanitizer: undo-run-asan.c), with the
// state left as the primal leaves it.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O2 -S -emit-llvm %s -o %t.ll && FileCheck %s < %t.ll
#include "loopcheck.h"
#include <stdio.h>

// The run entry before the inner loop, the saves in it behind its test;
// where the reverse enters the loop, whether a run entry is on top of the
// log, and the restores in the loop behind that (a branch, not a call per
// iteration: lt.undo.restore.run is left for loops where that place is
// not one).
// CHECK-LABEL: define internal {{.*}}@fsub.lt.grad(
// CHECK: call void @lt.undo.run(
// CHECK: call i1 @lt.undo.top.run(
// CHECK-NOT: call void @lt.undo.restore.run(
// CHECK-LABEL: define internal {{.*}}@bsub.lt.grad(
// CHECK: call void @lt.undo.run(
// CHECK: call i1 @lt.undo.top.run(
// CHECK-NOT: call void @lt.undo.restore.run(
// CHECK-LABEL: define internal {{.*}}@sweep.lt.grad(

static double energy(const double *x, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    e += x[i] * x[i] * (1 + 0.1 * i);
  return e;
}

/* P = (L row-major n x n, b n); x = L^-1 b */
double fsub(double *P, double *x, int n) {
  const double *L = P, *b = P + n * n;
  for (int i = 0; i < n; i++) {
    x[i] = b[i];
    for (int j = 0; j < i; j++)
      x[i] -= L[i * n + j] * x[j];
    x[i] = x[i] / L[i * n + i];
  }
  return energy(x, n);
}

/* upper triangular, from the last row up; the inner loop runs down */
double bsub(double *P, double *x, int n) {
  const double *U = P, *b = P + n * n;
  for (int i = n - 1; i >= 0; i--) {
    x[i] = b[i];
    for (int j = n - 1; j > i; j--)
      x[i] -= U[i * n + j] * x[j];
    x[i] = x[i] / U[i * n + i];
  }
  return energy(x, n);
}

/* every run reads x[i] itself (j == i): the saves stay */
double sweep(double *P, double *x, int n) {
  const double *A = P, *b = P + n * n;
  for (int i = 0; i < n; i++)
    x[i] = b[i];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      x[i] -= 0.1 * A[i * n + j] * x[j] * x[j];
  return energy(x, n);
}

/* even rows stop below x[i], odd rows cross it */
double mixed(double *P, double *x, int n) {
  const double *A = P, *b = P + n * n;
  for (int i = 0; i < n; i++)
    x[i] = b[i];
  for (int i = 0; i < n; i++) {
    int m = i % 2 ? n : i;
    for (int j = 0; j < m; j++)
      x[i] -= 0.2 * A[i * n + j] * sin(x[j]);
  }
  return energy(x, n);
}

/* x holds pairs: the loads x[2j], x[2j + 1] below the slot x[2i + 1] */
double strided(double *P, double *x, int n) {
  const double *A = P, *b = P + n * n;
  for (int i = 0; i < n; i++) {
    x[2 * i] = b[i];
    x[2 * i + 1] = 0.5 * b[i];
  }
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++) {
      double c = A[i * n + j];
      c = c < -0.3 ? -c : c;
      x[2 * i + 1] += 0.3 * c * x[2 * j] * x[2 * j + 1];
    }
  return energy(x, 2 * n);
}

/* forward substitution into a float state */
double fsubf(double *P, float *y, int n) {
  const double *L = P, *b = P + n * n;
  for (int i = 0; i < n; i++) {
    y[i] = (float)b[i];
    for (int j = 0; j < i; j++)
      y[i] -= (float)L[i * n + j] * y[j];
    y[i] = y[i] / (float)L[i * n + i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += (double)y[i] * y[i] * (1 + 0.1 * i);
  return e;
}

typedef double (*kern)(double *, double *, int);
static kern K;
static int N;

/* x's entries per unknown */
static int width(kern k) { return k == strided ? 2 : 1; }

static double obj(double *p, void *c) {
  (void)c;
  double *x = calloc((size_t)(2 * N), sizeof *x);
  double r = K(p, x, N);
  free(x);
  return r;
}

static double objf(double *p, void *c) {
  (void)c;
  float *y = calloc((size_t)N, sizeof *y);
  double r = fsubf(p, y, N);
  free(y);
  return r;
}

/* L well conditioned: a diagonal of 2..3, small off-diagonal entries */
static void matrix(double *p, int n) {
  lt_data(p, n * n + n, -0.9, 0.9, 5);
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      p[i * n + j] = i == j ? 2.5 + 0.5 * p[i * n + j] : p[i * n + j] / n;
}

static void check(const char *what, kern k, int n) {
  K = k, N = n;
  int np = n * n + n, nx = width(k) * n;
  double *p0 = malloc(np * sizeof *p0), *p = malloc(np * sizeof *p);
  double *g = calloc(np, sizeof *g), *fd = malloc(np * sizeof *fd);
  /* x sized exactly: the run entry reads no byte the loop does not write */
  double *x = calloc(nx, sizeof *x), *dx = calloc(nx, sizeof *dx);
  double *x1 = calloc(nx, sizeof *x1);
  matrix(p0, n);
  memcpy(p, p0, np * sizeof *p);
  if (k == fsub)
    __enzyme_autodiff((void *)fsub, enzyme_dup, p, g, enzyme_dup, x, dx, enzyme_const, n);
  else if (k == bsub)
    __enzyme_autodiff((void *)bsub, enzyme_dup, p, g, enzyme_dup, x, dx, enzyme_const, n);
  else if (k == sweep)
    __enzyme_autodiff((void *)sweep, enzyme_dup, p, g, enzyme_dup, x, dx, enzyme_const, n);
  else if (k == mixed)
    __enzyme_autodiff((void *)mixed, enzyme_dup, p, g, enzyme_dup, x, dx, enzyme_const, n);
  else
    __enzyme_autodiff((void *)strided, enzyme_dup, p, g, enzyme_dup, x, dx, enzyme_const, n);
  k(p0, x1, n);
  int same = 1;
  for (int i = 0; i < nx; i++)
    same &= x[i] == x1[i];
  char buf[80];
  snprintf(buf, sizeof buf, "%s: the state the primal leaves", what);
  lt_check_ad(buf, same, 1, 0, 0);
  lt_fd_grad(obj, p0, np, NULL, fd);
  printf("-- %s n = %d\n", what, n);
  lt_gradv(what, np, g, fd, NULL, 1e-6, 0);
  free(p0), free(p), free(g), free(fd), free(x), free(dx), free(x1);
}

static void checkf(int n) {
  N = n;
  int np = n * n + n;
  double *p0 = malloc(np * sizeof *p0), *p = malloc(np * sizeof *p);
  double *g = calloc(np, sizeof *g), *fd = malloc(np * sizeof *fd);
  float *y = calloc(n, sizeof *y), *dy = calloc(n, sizeof *dy);
  matrix(p0, n);
  memcpy(p, p0, np * sizeof *p);
  __enzyme_autodiff((void *)fsubf, enzyme_dup, p, g, enzyme_dup, y, dy, enzyme_const, n);
  for (int i = 0; i < np; i++)
    fd[i] = lt_fdv_h(objf, p0, np, i, NULL, 1e-3);
  printf("-- fsubf n = %d\n", n);
  lt_gradv("fsubf", np, g, fd, NULL, 2e-3, 0);
  free(p0), free(p), free(g), free(fd), free(y), free(dy);
}

int main(void) {
  int n = lt_vi(9);
  check("fsub", fsub, n);
  check("bsub", bsub, n);
  check("sweep", sweep, n);
  check("mixed", mixed, n);
  check("strided", strided, n);
  check("fsub n=1", fsub, lt_vi(1));
  checkf(n);
  return lt_done();
}
