// 2-D stencils over rows of a constant length W (double (*a)[W], as
// PolyBench and most C codes declare them), whose reverse loops add into
// a shadow's elements j-1, j, j+1 of row i and j of rows i-1 and i+1: all
// accumulations into one array at constant offsets (+-W elements for the
// rows). gen/gather.c used to put the five in one group, which spans 2W
// iterations, more than a recurrence may carry, and so rewrote nothing
// (PolyBench's jacobi-2d: 12.6 times its primal, 3.1 now); it now takes
// the window of at most MAX_DELAY + 1 iterations that holds the most of
// them: row i's three, or, when W is small, all five.
// Kernels: a Jacobi time loop (A -> B -> A, plain pointers and restrict)
// and one sweep into another array, for W = 3 (rows i +- 1 inside the
// window), 9 (just past it) and 33, at n from 3 to W, at -O0..-O3; each
// gradient is checked against central differences, and shadow elements
// no iteration reaches must keep their -0.0.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O1 %s -o %t1 -lm && %t1
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O3 -march=x86-64-v3 %s -o %t3 -lm && %t3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

#define NI __attribute__((noinline))

#define JACOBI(NAME, QUAL, W)                                                               \
  NI void NAME(int steps, int n, double (*QUAL a)[W], double (*QUAL b)[W]) {                \
    for (int t = 0; t < steps; t++) {                                                       \
      for (int i = 1; i < n - 1; i++)                                                       \
        for (int j = 1; j < n - 1; j++)                                                     \
          b[i][j] = 0.2 * (a[i][j] + a[i][j - 1] + a[i][j + 1] + a[i + 1][j] + a[i - 1][j]); \
      for (int i = 1; i < n - 1; i++)                                                       \
        for (int j = 1; j < n - 1; j++)                                                     \
          a[i][j] = 0.2 * (b[i][j] + b[i][j - 1] + b[i][j + 1] + b[i + 1][j] + b[i - 1][j]); \
    }                                                                                       \
  }
#define KERNELS(W)                                                                          \
  JACOBI(jac##W, , W)                                                                       \
  JACOBI(jacr##W, restrict, W)                                                              \
  NI void sq##W(int n, const double (*a)[W], double (*b)[W]) {                              \
    for (int i = 1; i < n - 1; i++)                                                         \
      for (int j = 1; j < n - 1; j++)                                                       \
        b[i][j] = a[i][j] * (a[i][j - 1] - a[i][j + 1]) + a[i - 1][j] * a[i + 1][j];        \
  }

KERNELS(3)
KERNELS(9)
KERNELS(33)

#define MAXE (33 * 33)
static double X[MAXE], Y[MAXE], DX[MAXE], DY[MAXE], WX[MAXE], WY[MAXE];
static int kern, width, n; /* kern: 0 jac, 1 jacr, 2 sq */

static void call(int ad) {
#define CALL(W)                                                                             \
  if (width == W) {                                                                         \
    double(*a)[W] = (double(*)[W])X, (*b)[W] = (double(*)[W])Y;                             \
    double(*da)[W] = (double(*)[W])DX, (*db)[W] = (double(*)[W])DY;                         \
    if (kern == 0 && !ad) jac##W(2, n, a, b);                                               \
    if (kern == 1 && !ad) jacr##W(2, n, a, b);                                              \
    if (kern == 2 && !ad) sq##W(n, (const double(*)[W])a, b);                               \
    if (kern == 0 && ad)                                                                    \
      __enzyme_autodiff((void *)jac##W, enzyme_const, 2, enzyme_const, n, enzyme_dup, a, da, \
                        enzyme_dup, b, db);                                                 \
    if (kern == 1 && ad)                                                                    \
      __enzyme_autodiff((void *)jacr##W, enzyme_const, 2, enzyme_const, n, enzyme_dup, a,   \
                        da, enzyme_dup, b, db);                                             \
    if (kern == 2 && ad)                                                                    \
      __enzyme_autodiff((void *)sq##W, enzyme_const, n, enzyme_dup, a, da, enzyme_dup, b,   \
                        db);                                                                \
  }
  CALL(3)
  CALL(9)
  CALL(33)
}

static double objective(const double *x) {
  memcpy(X, x, sizeof X);
  memset(Y, 0, sizeof Y);
  call(0);
  double s = 0;
  for (int i = 0; i < n * width; i++)
    s += WX[i] * X[i] + WY[i] * Y[i];
  return s;
}

static const char *names[] = {"jacobi plain", "jacobi restrict", "sweep"};

static void run(int k, int w, int nn) {
  kern = k, width = w, n = nn;
  static double x[MAXE];
  int ne = n * w;
  for (int i = 0; i < MAXE; i++) {
    x[i] = lt_vd(0.5 + 0.4 * sin(1.3 * i + w + nn));
    WX[i] = i < ne ? lt_vd(0.3 + 0.2 * cos(0.7 * i)) : 0;
    WY[i] = i < ne ? lt_vd(0.6 - 0.3 * sin(0.9 * i + 1)) : 0;
  }
  memcpy(X, x, sizeof X);
  memset(Y, 0, sizeof Y);
  memcpy(DX, WX, sizeof DX);
  memcpy(DY, WY, sizeof DY);
  for (int i = ne; i < MAXE; i++)
    DX[i] = DY[i] = -0.0;
  call(1);
  for (int i = 0; i < ne; i++) {
    double fd = lt_fd_at(objective, x, i);
    char what[96];
    snprintf(what, sizeof what, "%s W=%d n=%d d/da[%d][%d]", names[k], w, nn, i / w, i % w);
    lt_check(what, DX[i], fd, 1e-6, 1e-7);
  }
  int untouched = 1;
  for (int i = ne; i < MAXE; i++)
    untouched &= signbit(DX[i]) && DX[i] == 0 && signbit(DY[i]) && DY[i] == 0;
  char what[96];
  snprintf(what, sizeof what, "%s W=%d n=%d: shadows past row n-1 untouched", names[k], w, nn);
  lt_check(what, untouched, 1, 0, 0);
}

int main(void) {
  int ws[] = {3, 9, 33};
  for (int k = 0; k < 3; k++)
    for (int wi = 0; wi < 3; wi++)
      for (int nn = 3; nn <= ws[wi]; nn += nn < 6 ? 1 : ws[wi] / 3)
        run(k, ws[wi], nn);
  return lt_done();
}
