// A time loop whose inner loops run only when n > 8: at -O1 their bounds
// are widened (zext of n - 9) where only that guard keeps them
// non-negative, and the nest's cache, sized before the guard from those
// trip counts, asked for 2^32 records when n = 8. malloc failed and the
// arena wrote its chunk header through null: a segfault in the gradient
// (fuzz --gather seed 910312 at -O1). A failed push now returns null and
// leaves the arena as it was (gen/arena.c); the loop never runs, so
// nothing reads it. Gradients at n = 8 (inner loops never run) and n = 14
// against central differences.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O1 %s -o %t1 -lm && %t1
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O3 %s -o %t3 -lm && %t3
#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

#define M 16
__attribute__((noinline)) double f(double *x, double *y, int n) {
  double t1[8];
  for (int q = 0; q < 8; q++)
    t1[q] = 0.5 * y[q];
  double *gp = t1 + 2, *gq = y + 7;
  for (int t = 0; t < 4; t++) {
    for (int i = -1; i < n - 9; i++)
      gq[i] = 0.316 * gp[i] - 0.152 * gp[i - 1] * gp[i] - 0.078;
    for (int i = n - 10; i >= -1; i--)
      gp[i] = gq[i];
  }
  return gp[-1] * gp[-1] + 0.5 * x[0] * y[6];
}

static int nn;
static double obj(const double *v) {
  double x[M], y[M];
  memcpy(x, v, sizeof x);
  memcpy(y, v + M, sizeof y);
  return f(x, y, nn);
}

int main(void) {
  int sizes[2] = {8, 14};
  for (int s = 0; s < 2; s++) {
    nn = lt_vi(sizes[s]);
    double v[2 * M], x[M], y[M], dx[M] = {0}, dy[M] = {0};
    for (int i = 0; i < 2 * M; i++)
      v[i] = lt_vd(0.3 + 0.2 * sin(1.3 * i));
    memcpy(x, v, sizeof x);
    memcpy(y, v + M, sizeof y);
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, nn);
    for (int k = 0; k < 2 * M; k++) {
      double h = 1e-6, vk = v[k];
      volatile double p = vk + h, m = vk - h;
      v[k] = p;
      double fp = obj(v);
      v[k] = m;
      double fm = obj(v);
      v[k] = vk;
      char what[64];
      snprintf(what, sizeof what, "n=%d d/d%s[%d]", nn, k < M ? "x" : "y", k % M);
      lt_check(what, k < M ? dx[k] : dy[k - M], (fp - fm) / (p - m), 1e-6, 1e-7);
    }
  }
  return lt_done();
}
