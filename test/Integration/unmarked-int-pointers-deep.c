// An unmarked `long **` that reaches its integers only through a callee
// and a local copy of the inner pointer is enzyme_const at every level.
// At -O0 each step (the parameter's spill and reload, the callee's spill,
// the element's address, the local `seg`) was counted as a level of the
// walk that proves the pointer carries integers only, and the limit was
// reached before the integers: the parameter defaulted to enzyme_dup
// ("too few arguments: enzyme_dup parameter 2 ... needs a shadow pointer";
// Enzyme's metarwr.c failed so at -O0 only). The callee also stores a
// pointer through it (a null into data[1]). Reverse and forward mode,
// against the analytic gradient and central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

double __enzyme_fwddiff(void *, ...);

/* sum over [seg[0], seg[1]) of a[i]^2 seg[2], then forgets data[1] */
static double span(const double *a, long **data) {
  long *seg = data[0];
  long lo = seg[0];
  long hi = seg[1];
  double s = 0;
  for (long i = lo; i < hi; i++)
    s += a[i] * a[i] * (double)seg[2];
  data[1] = 0;
  return s;
}

double f(const double *a, long **meta) { return span(a, meta) + sin(a[0]); }

enum { N = 6 };
static long g_seg[3] = {1, 5, 3};
static long *g_meta[2] = {g_seg, g_seg};

static double fd_f(const double *a) { return f(a, g_meta); }

int main(void) {
  const double a0[N] = {0.3, -1.25, 2.5, 0.75, -0.5, 4.0};
  double a[N], da[N] = {0};
  lt_fill(a, a0, N);
  long **meta = g_meta;
  __enzyme_autodiff((void *)f, a, da, meta);
  for (int j = 0; j < N; j++) {
    double an = (j >= g_seg[0] && j < g_seg[1] ? 2 * a[j] * g_seg[2] : 0) +
                (j == 0 ? cos(a[0]) : 0);
    lt_grad("long ** through a callee: da", a[j], da[j], an,
            lt_fd_arr(fd_f, a, N, j), 1e-13, 1e-6);
  }
  lt_check("the callee's store ran", g_meta[1] == 0, 1, 0, 0);

  g_meta[1] = g_seg;
  double t[N] = {0, 0, 1, 0, 0, 0};
  double tf = __enzyme_fwddiff((void *)f, a, t, meta);
  lt_check("forward along e_2", tf, 2 * a[2] * g_seg[2], 1e-13, 0);
  return lt_done();
}
