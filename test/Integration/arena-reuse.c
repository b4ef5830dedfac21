// The tapes of a recursive callee's activations come from a last-in
// first-out arena (arena.c): its chunks double as it fills, and after it
// empties the next gradient's first chunk is as large as all of them were,
// so from the second gradient on one malloc and one free hold every tape
// (and nothing is kept between gradients). Counted through the linker's
// --wrap of malloc and free; the gradient against central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm -Wl,--wrap=malloc,--wrap=free && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Wl,--wrap=malloc,--wrap=free && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stddef.h>

void *__real_malloc(size_t);
void __real_free(void *);
static long nmalloc, nfree;
void *__wrap_malloc(size_t n) {
  nmalloc++;
  return __real_malloc(n);
}
void __wrap_free(void *p) {
  nfree += p != NULL;
  __real_free(p);
}

/* 2^12 leaves: thousands of activations, more than the first chunk holds */
double tree(const double *x, int lo, int hi) {
  if (hi - lo == 1)
    return sin(x[lo]) * x[lo];
  int m = (lo + hi) / 2;
  return tree(x, lo, m) * 0.9 + cos(tree(x, m, hi));
}
enum { N = 4096 };
static double X[N];
static int K;
double f(const double *x) { return tree(x, 0, N); }
static double f_k(double t) {
  static double x[N];
  for (int i = 0; i < N; i++)
    x[i] = X[i] + (i == K ? t : 0);
  return f(x);
}

int main(void) {
  for (int i = 0; i < N; i++)
    X[i] = lt_vd(0.001 * i - 1);
  static double dx[N];
  long m[3], fr[3];
  for (int r = 0; r < 3; r++) {
    for (int i = 0; i < N; i++)
      dx[i] = 0;
    long m0 = nmalloc, f0 = nfree;
    __enzyme_autodiff((void *)f, enzyme_dup, X, dx);
    m[r] = nmalloc - m0;
    fr[r] = nfree - f0;
  }
  lt_check("first gradient: chunks allocated and freed", m[0] - fr[0], 0, 0, 0);
  lt_check("first gradient: more than one chunk", m[0] > 1, 1, 0, 0);
  lt_check("second gradient: one malloc", m[1], 1, 0, 0);
  lt_check("second gradient: one free", fr[1], 1, 0, 0);
  lt_check("third gradient: one malloc", m[2], 1, 0, 0);
  for (K = 0; K < N; K += 1000)
    lt_check("gradient", dx[K], lt_fd(f_k, 0), 1e-6, 1e-8);
  return lt_done();
}
