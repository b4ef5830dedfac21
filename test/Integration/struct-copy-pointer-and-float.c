// Struct copies of a struct holding a pointer to active data and an active
// double, into and between heap memory, which has no declared type: at -O0
// clang emits `st[0] = *sp` as a memcpy to `gep %struct.S, ptr %st, 0`
// with no !tbaa.struct, and the canonicalising pipeline folds that GEP
// away, so the layout must be recorded before it runs (fuzz seed 4056 of
// --pointers was rejected as "layout unknown"). Shapes: heap element =
// *param, local array = memcpy of the heap array, heap element = heap
// element through variable indices and through a temporary (which -O2's
// memcpyopt makes a heap-to-heap copy with no type at all: the layout
// comes from the stores that filled the source), and a struct returned
// by value.
// Gradients against central finite differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

struct S { const double *p; double w; int k; };

static struct S pick(const struct S *a, int i) { return a[i]; }

double f(double *x, const struct S *sp, int j) {
  struct S *st = malloc(4 * sizeof *st);
  st[0] = *sp;                        /* heap element = *param */
  st[1].p = x + 2;
  st[1].w = x[0] * x[1];
  st[1].k = 1;
  st[2] = st[j];                      /* variable indices */
  struct S t = st[1];
  st[3] = t; /* -O2: memcpy(st + 3, st + 1) without !tbaa.struct */
  struct S loc[4];
  memcpy(loc, st, 4 * sizeof *loc);   /* local array = heap array */
  double s = 0;
  for (int i = 0; i < 4; i++) {
    struct S e = pick(loc, i);
    s += e.w * sin(e.p[0]) + e.p[e.k] * e.p[e.k];
  }
  free(st);
  return s;
}

static double fx(const double *x) {
  struct S s = {x + 1, x[3] * x[3], 0};
  return f((double *)x, &s, 1);
}

int main(void) {
  static const double v[5] = {0.7, -0.4, 1.3, 0.9, -1.1};
  double x[5], dx[5] = {0};
  lt_fill(x, v, 5);
  struct S s = {x + 1, x[3] * x[3], 0};
  struct S ds = {dx + 1, 0.0, 0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, &s, &ds,
                    enzyme_const, 1);
  /* s.w = x[3]^2 is outside f: chain its adjoint by hand */
  dx[3] += ds.w * 2 * x[3];
  for (int i = 0; i < 5; i++) {
    char what[32];
    snprintf(what, sizeof what, "df/dx[%d]", i);
    lt_check(what, dx[i], lt_fd_arr(fx, x, 5, i), 1e-6, 1e-9);
  }
  return lt_done();
}
