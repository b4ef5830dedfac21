// Triangular nests of many shapes, whose caches (and, at -O0, undo logs)
// are sized before the nest from the exact sum of the inner trip counts
// over the enclosing counters (gen/loopfwd.c, gen/undo.c): inner ranges
// that are empty in some iterations (j = i + 1 .. n), downward loops with
// a step of 2, an inner loop under a branch, a nest four deep whose
// bounds come from two counters, ranges that are negative (clamped to
// nothing) for half the outer iterations, and an in-place update whose
// stores stay in a triangular nest. Built with AddressSanitizer, so a
// cache or log sized too small is a heap overflow, and the gradients are
// checked against central differences for several n (1 gives empty
// nests).
// REQUIRES: asan
// RUN: %ltclang -O0 -g -fsanitize=address %s -o %t.O0 -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.O0
// RUN: %ltclang -O2 -g -fsanitize=address %s -o %t.O2 -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

double shapes(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      s += sin(x[i] * x[j]);
  for (int i = n - 1; i >= 0; i--)
    for (int j = n - 1; j > i; j -= 2)
      s += x[i] * cos(x[j] * s * 1e-3);
  for (int i = 0; i < n; i++)
    if (i % 3)
      for (int j = 0; j < i; j++)
        s += exp(-x[j] * x[i] * 0.1) * x[j];
  for (int a = 0; a < n; a++)
    for (int b = 0; b <= a; b++)
      for (int c = b; c <= a; c++)
        for (int d = 0; d < c - b; d++)
          s += sin(x[d] + 1e-7 * s) * x[a];
  for (int i = 0; i < n; i++)
    for (int j = i; j < 2 * i - n / 2; j++)
      s += x[j % n] * x[i] * x[(i + j) % n];
  return s;
}

double inplace(double *A, int n) {
  for (int i = 0; i < n; i++)
    for (int j = 0; j < i; j++)
      for (int k = j; k < i; k++)
        A[i * n + j] -= sin(A[k * n + j]) * A[i * n + k] * 0.1;
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += A[i] * A[i];
  return s;
}

#define MAXLEN 256
static double fd(double (*f)(double *, int), const double *x, int len, int n, int i) {
  double xp[MAXLEN], xm[MAXLEN], h = 1e-6;
  memcpy(xp, x, len * sizeof *x);
  memcpy(xm, x, len * sizeof *x);
  volatile double vp = x[i] + h, vm = x[i] - h;
  xp[i] = vp;
  xm[i] = vm;
  return (f(xp, n) - f(xm, n)) / (vp - vm);
}

int main(void) {
  for (int n = 1; n <= 13; n += 3) {
    double x[MAXLEN], g[MAXLEN], y[MAXLEN];
    char what[64];
    for (int i = 0; i < n * n; i++)
      x[i] = lt_vd(0.3 + 0.5 * sin(1.3 * i + n) + (i % (n + 1) == 0));
    memset(g, 0, sizeof g);
    memcpy(y, x, sizeof y);
    __enzyme_autodiff((void *)shapes, enzyme_dup, y, g, enzyme_const, n);
    for (int i = 0; i < n; i++) {
      snprintf(what, sizeof what, "shapes n=%d d/dx[%d]", n, i);
      lt_check(what, g[i], fd(shapes, x, n, n, i), 1e-5, 1e-5);
    }
    memset(g, 0, sizeof g);
    memcpy(y, x, sizeof y);
    __enzyme_autodiff((void *)inplace, enzyme_dup, y, g, enzyme_const, n);
    for (int i = 0; i < n * n; i++) {
      snprintf(what, sizeof what, "inplace n=%d d/dA[%d]", n, i);
      lt_check(what, g[i], fd(inplace, x, n * n, n, i), 1e-5, 1e-5);
    }
  }
  return lt_done();
}
