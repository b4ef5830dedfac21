// Plain-pointer kernels (no restrict), called with disjoint and with
// overlapping arrays: the reverse pass re-reads loads that only logged
// stores may overwrite (undo log, run-time disjointness test; issue 9).
// Each gradient against central finite differences, and the primal
// results after __enzyme_autodiff against a plain run of the kernel.
//  - normalize/mag: out disjoint from x, out == x, out == x + 1, x == out + 2
//  - matmul C = A B: disjoint, and C overlapping A (C == A + 1)
//  - x[i] *= y[i]: disjoint, y == x + 1
//  - a stencil with swapped buffers: disjoint, b == a + 1
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

#define NB 24 /* buffer doubles */

double mag(const double *x, long n) {
  double s = 0;
  for (long i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}
void normalize(double *out, const double *x, long n) {
  for (long j = 0; j < n; j++)
    out[j] = x[j] / mag(x, n);
}
void matmul(double *C, const double *A, const double *B, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double s = 0;
      for (int k = 0; k < n; k++)
        s += A[i * n + k] * B[k * n + j];
      C[i * n + j] = s;
    }
}
void mulin(double *x, const double *y, int n) {
  for (int i = 0; i < n; i++)
    x[i] *= y[i];
}
void stencil(double *a, double *b, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      b[i] = a[i] + 0.1 * sin(a[i - 1] - 2 * a[i] + a[i + 1]);
    double *tmp = a;
    a = b;
    b = tmp;
  }
}

/* Objectives over one buffer; the offsets say where each array starts. */
double o_norm(double *buf, long xo, long oo, long n) {
  normalize(buf + oo, buf + xo, n);
  double s = 0;
  for (long j = 0; j < NB; j++)
    s += buf[j] * sin(j + 1.0);
  return s;
}
double o_mat(double *buf, int co, int ao, int bo, int n) {
  matmul(buf + co, buf + ao, buf + bo, n);
  double s = 0;
  for (int j = 0; j < NB; j++)
    s += buf[j] * buf[j] * cos(j * 0.3);
  return s;
}
double o_mul(double *buf, int xo, int yo, int n) {
  mulin(buf + xo, buf + yo, n);
  double s = 0;
  for (int j = 0; j < NB; j++)
    s += sin(buf[j]);
  return s;
}
double o_st(double *buf, int ao, int bo, int n) {
  stencil(buf + ao, buf + bo, n, 3);
  double s = 0;
  for (int j = 0; j < NB; j++)
    s += buf[j] * buf[j] * (j + 1);
  return s;
}

static void init(double *b) {
  for (int i = 0; i < NB; i++)
    b[i] = lt_vd(0.4 + 0.3 * sin(1.3 * i));
}

static int kind, p0, p1, p2, p3;
static double run(double *b) {
  switch (kind) {
  case 0: return o_norm(b, p0, p1, p2);
  case 1: return o_mat(b, p0, p1, p2, p3);
  case 2: return o_mul(b, p0, p1, p2);
  default: return o_st(b, p0, p1, p2);
  }
}
static double fx(const double *v) {
  double b[NB];
  memcpy(b, v, sizeof b);
  return run(b);
}

/* The gradient against finite differences, the primal state against a
 * plain run. */
static void check(const char *what, const double *grad, const double *after) {
  double b[NB], fdx[NB], ref[NB];
  init(b);
  memcpy(ref, b, sizeof ref);
  run(ref);
  for (int i = 0; i < NB; i += 1) {
    char w[80];
    snprintf(w, sizeof w, "%s d/db[%d]", what, i);
    double h = 1e-6, p[NB], m[NB];
    memcpy(p, b, sizeof p);
    memcpy(m, b, sizeof m);
    p[i] += h;
    m[i] -= h;
    fdx[i] = (fx(p) - fx(m)) / (2 * h);
    lt_check(w, grad[i], fdx[i], 1e-6, 1e-8);
  }
  for (int i = 0; i < NB; i++)
    if (after[i] != ref[i]) {
      char w[80];
      snprintf(w, sizeof w, "%s primal b[%d] after", what, i);
      lt_check(w, after[i], ref[i], 0, 0);
    }
}

#define CASE(what, k, a0, a1, a2, a3, CALL)                                    \
  do {                                                                         \
    double b[NB], db[NB] = {0};                                                \
    init(b);                                                                   \
    kind = k, p0 = a0, p1 = a1, p2 = a2, p3 = a3;                              \
    CALL;                                                                      \
    check(what, db, b);                                                        \
  } while (0)

int main(void) {
  CASE("normalize disjoint", 0, 0, 8, 7, 0,
       __enzyme_autodiff((void *)o_norm, enzyme_dup, b, db, enzyme_const, 0L, enzyme_const, 8L, enzyme_const, 7L));
  CASE("normalize in place", 0, 0, 0, 7, 0,
       __enzyme_autodiff((void *)o_norm, enzyme_dup, b, db, enzyme_const, 0L, enzyme_const, 0L, enzyme_const, 7L));
  CASE("normalize out = x + 1", 0, 0, 1, 7, 0,
       __enzyme_autodiff((void *)o_norm, enzyme_dup, b, db, enzyme_const, 0L, enzyme_const, 1L, enzyme_const, 7L));
  CASE("normalize x = out + 2", 0, 2, 0, 7, 0,
       __enzyme_autodiff((void *)o_norm, enzyme_dup, b, db, enzyme_const, 2L, enzyme_const, 0L, enzyme_const, 7L));
  CASE("matmul disjoint", 1, 0, 9, 15, 3,
       __enzyme_autodiff((void *)o_mat, enzyme_dup, b, db, enzyme_const, 0, enzyme_const, 9, enzyme_const, 15, enzyme_const, 3));
  CASE("matmul C = A + 1", 1, 10, 9, 0, 3,
       __enzyme_autodiff((void *)o_mat, enzyme_dup, b, db, enzyme_const, 10, enzyme_const, 9, enzyme_const, 0, enzyme_const, 3));
  CASE("x *= y disjoint", 2, 0, 10, 9, 0,
       __enzyme_autodiff((void *)o_mul, enzyme_dup, b, db, enzyme_const, 0, enzyme_const, 10, enzyme_const, 9));
  CASE("x *= y, y = x + 1", 2, 0, 1, 9, 0,
       __enzyme_autodiff((void *)o_mul, enzyme_dup, b, db, enzyme_const, 0, enzyme_const, 1, enzyme_const, 9));
  CASE("stencil disjoint", 3, 0, 10, 9, 0,
       __enzyme_autodiff((void *)o_st, enzyme_dup, b, db, enzyme_const, 0, enzyme_const, 10, enzyme_const, 9));
  CASE("stencil b = a + 1", 3, 0, 1, 9, 0,
       __enzyme_autodiff((void *)o_st, enzyme_dup, b, db, enzyme_const, 0, enzyme_const, 1, enzyme_const, 9));
  return lt_done();
}
