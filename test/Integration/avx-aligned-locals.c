// A 32-byte-aligned local (a Matrix4d under AVX: aligned vector loads and
// stores) in a function that stays a call (recursive): its derivative's
// augmented function gave the local a shadow from calloc, 16-byte aligned,
// and the reverse pass's aligned AVX access to it faulted (--eigen seeds
// 76, 82 at -O0 with -mavx2 -mfma). The shadow is now as aligned as the
// slot.
// REQUIRES: avx2-fma
// RUN: %ltclang -O0 -mavx2 -mfma %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 -mavx2 -mfma %s -o %t.O2 -lm && %t.O2

#include <immintrin.h>

#include "check.h"
#include <leantape.h>

/* aligned access to the caller's slot, in a helper that is inlined into
 * the recursive function's clone */
static void square_plus(double *buf, const double *x) {
  __m256d v = _mm256_loadu_pd(x);
  _mm256_store_pd(buf, _mm256_mul_pd(v, v));
  __m256d w = _mm256_load_pd(buf);
  _mm256_store_pd(buf, _mm256_add_pd(w, _mm256_set1_pd(x[0])));
}

double rec(const double *x, int k) {
  double buf[4] __attribute__((aligned(32)));
  volatile int keep = 0; /* the slot stays a slot */
  double *p = keep ? (double *)x : buf;
  square_plus(p, x);
  double s = buf[0] + 2 * buf[1] + 3 * buf[2] + 4 * buf[3];
  return k == 0 ? s : s * 0.5 + rec(x, k - 1);
}

double f(double *x) { return rec(x, 3); }

int main(void) {
  double x[4] = {0.3, -0.7, 1.1, 0.4}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  /* each level: s = sum (i+1) (x_i^2 + x0); levels weighted 0.5, 0.5, 0.5, 1 */
  double w = 0.5 * 3 + 1;
  double want[4] = {w * (2 * x[0] + 10), w * 2 * 2 * x[1], w * 3 * 2 * x[2], w * 4 * 2 * x[3]};
  char name[16];
  for (int i = 0; i < 4; i++) {
    snprintf(name, sizeof name, "dx[%d]", i);
    lt_check(name, dx[i], want[i], 1e-13, 0);
  }
  return lt_done();
}
