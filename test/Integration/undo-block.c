// Stores that overwrite state a later re-read needs are logged (gen/undo.c).
// A store that writes a dense affine range over each run of its loop,
// such as a time step's copy back u[i] = tmp[i], is logged as one block
// per run (gen/undoblock.c): the range's old contents copied where the
// loop starts, put back where the reverse pass leaves the loop, 8 bytes
// per double instead of a 24-byte entry and a call per store. Shapes: an
// in-place Burgers step (a loop leaving from its header), the copy run
// downwards (a negative step), a do-while copy (a loop leaving from its
// latch), a float state whose block is not a whole number of words, and
// the copy of a partial range, and of the whole array between exact-size
// arrays (built with AddressSanitizer too: the block reads no byte the
// loop does not write). Gauss-Seidel sweeps, which re-read u inside the loop that
// writes it (taped). Each gradient against central differences at
// -O0 and -O2 (and under AddressSanitizer: undo-block-asan.c), with plain
// pointers, and the state left as the primal leaves it.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O2 -S -emit-llvm %s -o %t.ll && FileCheck %s < %t.ll
#include "loopcheck.h"
#include <stdio.h>

#define NS 7 /* time steps */

/* the objective of each kernel: a weighted sum of squares of the state */
static double energy(const double *u, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i] * (1 + 0.1 * i);
  return e;
}

static double flux(const double *u, int i) {
  return u[i] - 0.05 * u[i] * (u[i + 1] - u[i - 1]) + 0.02 * (u[i + 1] - 2 * u[i] + u[i - 1]);
}

double up(double *u, double *tmp, int n) {
  for (int t = 0; t < NS; t++) {
    for (int i = 1; i < n - 1; i++)
      tmp[i] = flux(u, i);
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
  }
  return energy(u, n);
}

double down(double *u, double *tmp, int n) {
  for (int t = 0; t < NS; t++) {
    for (int i = 1; i < n - 1; i++)
      tmp[i] = flux(u, i) + 0.01 * sin(u[i]);
    tmp[0] = 0.9 * u[0] + 0.1 * u[1] * u[1];
    for (int i = n - 2; i >= 0; i--) /* down to u[0]: one more is u[-1] */
      u[i] = tmp[i];
  }
  return energy(u, n);
}

double dowhile(double *u, double *tmp, int n) {
  for (int t = 0; t < NS; t++) {
    for (int i = 1; i < n - 1; i++)
      tmp[i] = flux(u, i) * (1 + 0.01 * u[i]);
    int i = 1;
    do {
      u[i] = tmp[i];
      i++;
    } while (i < n - 1);
  }
  return energy(u, n);
}

/* the state in floats: 13 of them, a block of 44 bytes (5 words and 4) */
double floats(float *u, double *tmp, int n) {
  for (int t = 0; t < NS; t++) {
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] - 0.05 * u[i] * (u[i + 1] - u[i - 1]) + 0.02 * (u[i + 1] - u[i - 1]);
    for (int i = 1; i < n - 1; i++)
      u[i] = (float)tmp[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += (double)u[i] * u[i] * (1 + 0.1 * i);
  return e;
}

/* only u[2 .. n-3] is written: the block is that range, nothing more */
double partial(double *u, double *tmp, int n) {
  for (int t = 0; t < NS; t++) {
    for (int i = 2; i < n - 2; i++)
      tmp[i] = flux(u, i) * flux(u, i - 1);
    for (int i = 2; i < n - 2; i++)
      u[i] = tmp[i];
  }
  return energy(u, n);
}

/* every element written, periodic: a block one element too long reads
 * past the end of u */
double whole(double *u, double *tmp, int n) {
  for (int t = 0; t < NS; t++) {
    for (int i = 0; i < n; i++) {
      double l = u[i == 0 ? n - 1 : i - 1], r = u[i == n - 1 ? 0 : i + 1];
      tmp[i] = u[i] - 0.05 * u[i] * (r - l) + 0.02 * (r - 2 * u[i] + l);
    }
    for (int i = 0; i < n; i++)
      u[i] = tmp[i];
  }
  return energy(u, n);
}

/* two arrays in turn, each loop re-reading the other's: with u and v
 * apart, each store is a block (its loop re-reads nothing it writes) */
double pingpong(double *u, double *v, int n) {
  for (int t = 0; t < NS; t++) {
    for (int i = 1; i < n - 1; i++)
      v[i] = flux(u, i);
    for (int i = 1; i < n - 1; i++)
      u[i] = flux(v, i) + 0.01 * v[i] * v[i];
  }
  return energy(u, n);
}

/* in place: the loop re-reads what it writes (u[i - 1] is this sweep's),
 * no block */
double seidel(double *u, double *tmp, int n) {
  (void)tmp;
  for (int t = 0; t < NS; t++)
    for (int i = 1; i < n - 1; i++)
      u[i] = 0.5 * u[i] + 0.2 * (u[i - 1] + u[i + 1]) + 0.1 * sin(u[i]);
  return energy(u, n);
}

typedef double (*kern)(double *, double *, int);
static kern K;
static int N;
static double obj(double *x, void *c) {
  (void)c;
  double *tmp = calloc((size_t)N, sizeof *tmp);
  double r = K(x, tmp, N);
  free(tmp);
  return r;
}

static void check(const char *what, kern k, int n) {
  K = k, N = n;
  double *x0 = malloc(n * sizeof *x0), *x = malloc(n * sizeof *x);
  double *g = calloc(n, sizeof *g), *fd = malloc(n * sizeof *fd);
  double *tmp = calloc(n, sizeof *tmp), *dtmp = calloc(n, sizeof *dtmp);
  lt_data(x0, n, -0.8, 0.9, 3);
  memcpy(x, x0, n * sizeof *x);
  if (k == up)
    __enzyme_autodiff((void *)up, enzyme_dup, x, g, enzyme_dup, tmp, dtmp, enzyme_const, n);
  else if (k == down)
    __enzyme_autodiff((void *)down, enzyme_dup, x, g, enzyme_dup, tmp, dtmp, enzyme_const, n);
  else if (k == dowhile)
    __enzyme_autodiff((void *)dowhile, enzyme_dup, x, g, enzyme_dup, tmp, dtmp, enzyme_const,
                      n);
  else if (k == partial)
    __enzyme_autodiff((void *)partial, enzyme_dup, x, g, enzyme_dup, tmp, dtmp, enzyme_const,
                      n);
  else if (k == pingpong)
    __enzyme_autodiff((void *)pingpong, enzyme_dup, x, g, enzyme_dup, tmp, dtmp, enzyme_const,
                      n);
  else if (k == whole)
    __enzyme_autodiff((void *)whole, enzyme_dup, x, g, enzyme_dup, tmp, dtmp, enzyme_const, n);
  else
    __enzyme_autodiff((void *)seidel, enzyme_dup, x, g, enzyme_dup, tmp, dtmp, enzyme_const, n);
  /* the primal's final state is left in x */
  memcpy(fd, x0, n * sizeof *fd);
  double *tt = calloc(n, sizeof *tt);
  k(fd, tt, n);
  free(tt);
  int same = 1;
  for (int i = 0; i < n; i++)
    same &= x[i] == fd[i];
  char buf[80];
  snprintf(buf, sizeof buf, "%s: the state the primal leaves", what);
  lt_check_ad(buf, same, 1, 0, 0);
  lt_fd_grad(obj, x0, n, NULL, fd);
  printf("-- %s n = %d\n", what, n);
  lt_gradv(what, n, g, fd, NULL, 1e-6, 0);
  free(x0), free(x), free(g), free(fd), free(tmp), free(dtmp);
}

static double fobj(double *x, void *c) {
  int n = *(int *)c;
  float u[16];
  double tmp[16] = {0};
  for (int i = 0; i < n; i++)
    u[i] = (float)x[i];
  return floats(u, tmp, n);
}

int main(void) {
  int n = lt_vi(24);
  check("up", up, n);
  check("down", down, n);
  check("dowhile", dowhile, n);
  check("partial", partial, n);
  check("whole", whole, n);
  check("pingpong", pingpong, n);
  check("seidel", seidel, n);
  /* floats: the gradient against a difference of float arithmetic */
  int m = lt_vi(13);
  double x0[16], fd[16];
  float u[16], du[16] = {0};
  double tmp[16] = {0}, dtmp[16] = {0};
  lt_data(x0, m, -0.8, 0.9, 5);
  for (int i = 0; i < m; i++)
    u[i] = (float)x0[i];
  __enzyme_autodiff((void *)floats, enzyme_dup, u, du, enzyme_dup, tmp, dtmp, enzyme_const, m);
  double g[16];
  for (int i = 0; i < m; i++) {
    g[i] = du[i];
    fd[i] = lt_fdv_h(fobj, x0, m, i, &m, 1e-2);
  }
  printf("-- floats n = %d\n", m);
  lt_gradv("floats", m, g, fd, NULL, 2e-3, 0);
  return lt_done();
}

// The copy loops' stores: a block each, no store-by-store save, in the
// version for arrays apart. In the other, tmp[i] may overwrite the u its
// own loop re-reads: that store is logged one by one, the copy's still as
// a block.
// CHECK-LABEL: define internal void @up.lt.grad(ptr %0
// CHECK-DAG: call void @lt.undo.save(
// CHECK-DAG: call void @lt.undo.block(
// CHECK: {{^}}}
// CHECK-LABEL: define internal void @up.lt.grad.{{[0-9]+}}(ptr noalias
// CHECK-NOT: @lt.undo.save(
// CHECK: call void @lt.undo.block(
// CHECK-NOT: @lt.undo.save(
// CHECK: {{^}}}
// Each loop of pingpong re-reads the other array: both stores blocks.
// CHECK-LABEL: define internal void @pingpong.lt.grad.{{[0-9]+}}(ptr noalias
// CHECK-NOT: @lt.undo.save(
// CHECK: call void @lt.undo.block(
// CHECK-NOT: @lt.undo.save(
// CHECK: call void @lt.undo.block(
// CHECK-NOT: @lt.undo.save(
// CHECK: {{^}}}
