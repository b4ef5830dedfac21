// The tapes of a recursive callee's activations come from a last-in
// first-out arena (arena.c): its chunks double as it fills, and after it
// empties the next gradient's first chunk is as large as all of them were,
// so the second gradient's tapes take one malloc; that chunk (128 KiB or
// more) is kept for the next gradient (arenakeep.c), which then takes no
// malloc and no free. With LEANTAPE_ARENA_KEEP=0 nothing is kept or
// reused: one malloc and one free per gradient. Counted through the linker's --wrap of
// malloc and free; the gradient against central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm -Wl,--wrap=malloc,--wrap=free && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Wl,--wrap=malloc,--wrap=free && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

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
  long m[5], fr[5];
  for (int r = 0; r < 5; r++) {
    if (r == 3) /* the kept chunk serves once more, then nothing is kept */
      setenv("LEANTAPE_ARENA_KEEP", "0", 1);
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
  lt_check("second gradient: its chunk kept", fr[1], 0, 0, 0);
  lt_check("third gradient: no malloc", m[2], 0, 0, 0);
  lt_check("third gradient: no free", fr[2], 0, 0, 0);
  lt_check("LEANTAPE_ARENA_KEEP=0: the kept chunk freed, one malloc", m[3], 1, 0, 0);
  lt_check("LEANTAPE_ARENA_KEEP=0: the kept chunk and the new one freed", fr[3], 2, 0, 0);
  lt_check("LEANTAPE_ARENA_KEEP=0: one malloc", m[4], 1, 0, 0);
  lt_check("LEANTAPE_ARENA_KEEP=0: one free", fr[4], 1, 0, 0);
  for (K = 0; K < N; K += 1000)
    lt_check("gradient", dx[K], lt_fd(f_k, 0), 1e-6, 1e-8);
  return lt_done();
}
