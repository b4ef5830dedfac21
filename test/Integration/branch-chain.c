// A block entered from more than two predecessors, each but the last
// deciding by its own branch on a condition made before the block (a chain
// p1 dom p2 dom p3: PolyBench's fdtd-2d time loop, whose body the guards
// of its inner loops leave by three edges): the reverse pass recomputes
// the predecessor from the conditions (gen/reverse.c recompute_chain)
// instead of taping a byte an iteration. Gradients against central
// differences at -O0 and -O2 for every combination of the guards (nx, ny
// of 1 skip loops, of 2 and 5 run them); at -O2 the time loop caches
// nothing.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O2 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: loop (depth 1) in 'fdtd': caches nothing per iteration

#include "check.h"
#include <leantape.h>
#include <string.h>

#define NI __attribute__((noinline))
#define M 6

NI void fdtd(int tmax, int nx, int ny, double *ex, double *ey, double *hz, const double *f) {
  for (int t = 0; t < tmax; t++) {
    for (int j = 0; j < ny; j++)
      ey[j] = f[t] * ey[j] + 0.1 * hz[j];
    for (int i = 1; i < nx; i++)
      for (int j = 0; j < ny; j++)
        ey[i * M + j] = ey[i * M + j] - 0.5 * (hz[i * M + j] - hz[(i - 1) * M + j]);
    for (int i = 0; i < nx; i++)
      for (int j = 1; j < ny; j++)
        ex[i * M + j] = ex[i * M + j] - 0.5 * (hz[i * M + j] - hz[i * M + j - 1]) * ex[i * M + j];
    for (int i = 0; i < nx - 1; i++)
      for (int j = 0; j < ny - 1; j++)
        hz[i * M + j] = hz[i * M + j] - 0.7 * (ex[i * M + j + 1] - ex[i * M + j] +
                                               ey[(i + 1) * M + j] - ey[i * M + j]);
  }
}

static double W[3 * M * M];
static double obj(const double *x0, int tmax, int nx, int ny, const double *f) {
  double x[3 * M * M], s = 0;
  memcpy(x, x0, sizeof x);
  fdtd(tmax, nx, ny, x, x + M * M, x + 2 * M * M, f);
  for (int k = 0; k < 3 * M * M; k++)
    s += W[k] * x[k];
  return s;
}

int main(void) {
  static const int sizes[] = {1, 2, 5};
  double f[4] = {0.9, 1.1, 0.8, 1.05};
  for (int k = 0; k < 3 * M * M; k++)
    W[k] = 0.5 + 0.01 * ((k * 5) % 17);
  for (int a = 0; a < 3; a++)
    for (int b = 0; b < 3; b++) {
      int nx = sizes[a], ny = sizes[b], tmax = 3;
      double x0[3 * M * M], x[3 * M * M], dx[3 * M * M];
      for (int k = 0; k < 3 * M * M; k++)
        x0[k] = 0.2 + 0.03 * ((k * 7) % 11);
      memcpy(x, x0, sizeof x);
      memcpy(dx, W, sizeof dx);
      __enzyme_autodiff((void *)fdtd, enzyme_const, tmax, enzyme_const, nx, enzyme_const, ny,
                        enzyme_dup, x, dx, enzyme_dup, x + M * M, dx + M * M, enzyme_dup,
                        x + 2 * M * M, dx + 2 * M * M, enzyme_const, f);
      for (int k = 0; k < 3 * M * M; k += 5) {
        double xp[3 * M * M], xm[3 * M * M], h = 1e-6;
        memcpy(xp, x0, sizeof xp);
        memcpy(xm, x0, sizeof xm);
        xp[k] += h;
        xm[k] -= h;
        char what[48];
        snprintf(what, sizeof what, "nx %d ny %d d[%d]", nx, ny, k);
        lt_check(what, dx[k], (obj(xp, tmax, nx, ny, f) - obj(xm, tmax, nx, ny, f)) / (2 * h),
                 1e-6, 1e-9);
      }
    }
  return lt_done();
}
