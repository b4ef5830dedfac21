// memcpy and memmove of a run-time length into local arrays: the copy's
// adjoint goes element by element (analysis/memlayout.c). A copy of n
// doubles into double t[4] was taken in units of the whole array (32
// bytes), so n < 4 moved no adjoint back and the gradient was silently 0
// at -O0 (found by the random tester, through reverse over reverse).
// Shapes: a prefix of a 1-D array (n = 1 and 3), memmove, a prefix of a
// 2-D array spanning rows, an array of structs, floats. Each gradient is
// checked against central differences, also forward mode.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

double __enzyme_fwddiff(void *, ...);

__attribute__((noinline)) double prefix(const double *x, int n) {
  double t[4] = {0};
  memcpy(t, x, n * sizeof *t);
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += sin(t[i]) * t[i];
  return s;
}

__attribute__((noinline)) double moved(const double *x, int n) {
  double t[4] = {0};
  memmove(t, x, n * sizeof *t);
  return t[0] * t[n - 1] + cos(t[1]);
}

__attribute__((noinline)) double rows(const double *x, int n) {
  double t[3][4] = {{0}};
  memcpy(t, x, n * sizeof(double)); /* n = 6: row 0 and half of row 1 */
  double s = 0;
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 4; j++)
      s += (i + 1) * t[i][j] * t[i][j];
  return s;
}

typedef struct {
  double a, b;
} pair;
__attribute__((noinline)) double pairs(const double *x, int n) {
  pair t[4] = {{0, 0}};
  memcpy(t, x, n * sizeof *t); /* n pairs from 2 n doubles */
  double s = 0;
  for (int i = 0; i < 4; i++)
    s += t[i].a * exp(0.3 * t[i].b);
  return s;
}

__attribute__((noinline)) double floats(const double *x, int n) {
  float f[6] = {0}, t[6] = {0};
  for (int i = 0; i < 6; i++)
    f[i] = (float)x[i];
  memcpy(t, f, n * sizeof *t);
  double s = 0;
  for (int i = 0; i < 6; i++)
    s += (double)t[i] * t[i];
  return s;
}

typedef double (*fn_t)(const double *, int);
static fn_t g_f;
static int g_n;
static double fd_f(const double *x) { return g_f(x, g_n); }

static void compare(const char *what, fn_t f, int n, int len, double tol, const double *x,
                    const double *dx, const double *v, double tan) {
  g_f = f;
  g_n = n;
  char buf[96];
  double dd = 0;
  for (int i = 0; i < len; i++) {
    snprintf(buf, sizeof buf, "%s n=%d: d/dx[%d] vs fd", what, n, i);
    lt_check(buf, dx[i], lt_fd_arr(fd_f, x, len, i), tol, tol * 1e-2);
    dd += dx[i] * v[i];
  }
  /* forward mode along v: the tangent is dx . v */
  snprintf(buf, sizeof buf, "%s n=%d: tangent vs gradient", what, n);
  lt_check(buf, tan, dd, tol, tol * 1e-2);
}

#define CHECK(what, f, n, len, tol)                                                     \
  do {                                                                                  \
    double x[12], dx[12] = {0}, v[12];                                                  \
    for (int i = 0; i < (len); i++) {                                                   \
      x[i] = 0.3 + 0.17 * i - 0.02 * i * i;                                             \
      v[i] = 1.0 / (1 + i);                                                             \
    }                                                                                   \
    int nn = lt_vi(n);                                                                  \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, nn);                  \
    double tan = __enzyme_fwddiff((void *)f, enzyme_dup, x, v, enzyme_const, nn);       \
    compare(what, f, n, len, tol, x, dx, v, tan);                                       \
  } while (0)

int main(void) {
  CHECK("prefix", prefix, 1, 4, 1e-6);
  CHECK("prefix", prefix, 3, 4, 1e-6);
  CHECK("memmove", moved, 2, 4, 1e-6);
  CHECK("rows", rows, 6, 12, 1e-6);
  CHECK("pairs", pairs, 3, 8, 1e-6);
  /* floats: against the analytic value, 2 (float)x[i] for the n copied
   * (differences of a float-rounded function are too coarse) */
  {
    double x[6], dx[6] = {0};
    for (int i = 0; i < 6; i++)
      x[i] = 0.3 + 0.17 * i;
    __enzyme_autodiff((void *)floats, enzyme_dup, x, dx, enzyme_const, lt_vi(5));
    for (int i = 0; i < 6; i++)
      lt_check("floats n=5: d/dx vs analytic", dx[i], i < 5 ? 2.0 * (float)x[i] : 0, 1e-6,
               1e-9);
  }
  return lt_done();
}
