// Reductions over an array with a runtime trip count n (enzyme_const):
// sum x_i, sum x_i^2, dot(x, y) with both arrays dup, and a sum of squares
// with a compile-time trip count. Gradients against the analytic value and
// central finite differences; shadows accumulate (+=).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

double sum(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

#define N8 8
/* constant trip count: sum (x_i^2 + x_i) * (i + 1) */
double sumsq8(const double *x) {
  double s = 0;
  for (int i = 0; i < N8; i++)
    s += (x[i] * x[i] + x[i]) * (i + 1);
  return s;
}

static double o_sum(double *x, void *c) { return sum(x, *(int *)c); }
static double o_sumsq(double *x, void *c) { return sumsq(x, *(int *)c); }
static double o_dot(double *z, void *c) {
  int n = *(int *)c;
  return dot(z, z + n, n);
}
static double o_sumsq8(double *x, void *c) {
  (void)c;
  return sumsq8(x);
}

int main(void) {
  enum { NMAX = 50 };
  int sizes[3] = {lt_vi(5), lt_vi(17), lt_vi(50)};
  for (int t = 0; t < 3; t++) {
    int n = sizes[t];
    double x[NMAX], y[NMAX], z[2 * NMAX];
    double dx[NMAX], dy[NMAX], an[2 * NMAX], fd[2 * NMAX], ad[2 * NMAX];
    lt_data(x, n, -1.5, 2.0, 1);
    lt_data(y, n, -2.0, 1.0, 2);
    printf("-- n = %d\n", n);

    /* sum: gradient 1, accumulated onto a pre-filled shadow */
    for (int i = 0; i < n; i++)
      dx[i] = lt_vd(0.25 * i);
    __enzyme_autodiff((void *)sum, enzyme_dup, x, dx, enzyme_const, n);
    for (int i = 0; i < n; i++) {
      ad[i] = dx[i] - 0.25 * i;
      an[i] = 1.0;
    }
    lt_fd_grad(o_sum, x, n, &n, fd);
    lt_gradv("sum", n, ad, an, fd, 1e-10, 1e-6);

    /* sum of squares: 2 x_i */
    memset(dx, 0, sizeof dx);
    __enzyme_autodiff((void *)sumsq, enzyme_dup, x, dx, enzyme_const, n);
    for (int i = 0; i < n; i++)
      an[i] = 2 * x[i];
    lt_fd_grad(o_sumsq, x, n, &n, fd);
    lt_gradv("sumsq", n, dx, an, fd, 1e-10, 1e-6);

    /* dot, both dup: d/dx = y, d/dy = x */
    memset(dx, 0, sizeof dx);
    memset(dy, 0, sizeof dy);
    __enzyme_autodiff((void *)dot, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, n);
    for (int i = 0; i < n; i++) {
      z[i] = x[i];
      z[n + i] = y[i];
      an[i] = y[i];
      an[n + i] = x[i];
      ad[i] = dx[i];
      ad[n + i] = dy[i];
    }
    lt_fd_grad(o_dot, z, 2 * n, &n, fd);
    lt_gradv("dot", 2 * n, ad, an, fd, 1e-10, 1e-6);

    /* inputs untouched */
    double x2[NMAX];
    lt_data(x2, n, -1.5, 2.0, 1);
    for (int i = 0; i < n; i++)
      lt_check_ad("x unchanged", x[i], x2[i], 0, 0);
  }

  /* compile-time trip count */
  double x[N8], dx[N8] = {0}, an[N8], fd[N8];
  lt_data(x, N8, -1.0, 1.5, 3);
  __enzyme_autodiff((void *)sumsq8, enzyme_dup, x, dx);
  for (int i = 0; i < N8; i++)
    an[i] = (2 * x[i] + 1) * (i + 1);
  lt_fd_grad(o_sumsq8, x, N8, NULL, fd);
  lt_gradv("sumsq8", N8, dx, an, fd, 1e-10, 1e-6);
  return lt_done();
}
