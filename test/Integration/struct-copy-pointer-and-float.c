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

/* SROA splits su[0].p off su and copies su[0].w .. su[1].k (40 bytes,
 * from inside st[0]) into a [40 x i8] slice, then st[1] from the slice:
 * a char slice says nothing about its contents (fuzz seed 5009 of
 * --pointers lost the adjoint of st[1].w at -O0). */
double g(double *x, const double *c, int n) {
  struct S *st = malloc(2 * sizeof *st);
  st[0].p = x;
  st[0].w = x[0];
  st[0].k = 0;
  st[1].p = c;
  st[1].w = x[1] * x[1];
  st[1].k = 1;
  struct S su[2];
  memcpy(su, st, 2 * sizeof *su);
  su[0].p = x + 2;
  st[1] = su[1];
  double acc = 0;
  for (int i = 0; i < n; i++)
    acc += sin(st[(i + 1) % 2].w);
  free(st);
  return acc;
}

/* Local arrays of S copied element by element: -O2 addresses the
 * elements as `gep i8, ptr %st, 48` and memcpyopt drops !tbaa.struct from
 * st[2] = su[1] (fuzz seed 5061: rejected as layout unknown). */
double h(double *x, const double *c, int n) {
  struct S st[3] = {{x, x[0] * x[1], 0}, {c, cos(x[1]), 1}, {x + 1, x[2], 0}};
  struct S su[3];
  su[0] = st[2];
  su[1] = st[1];
  su[2] = st[0];
  st[2] = su[1];
  double acc = 0;
  for (int i = 0; i < n; i++) /* variable indices keep both arrays */
    acc += st[(i + n) % 3].w * su[i % 3].w +
           st[(i + 1) % 3].p[st[i % 3].k] * su[(i + 2) % 3].p[0];
  return acc;
}

static double hx(const double *x) {
  static const double c[2] = {0.5, -1.5};
  return h((double *)x, c, 3);
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
  double y[3] = {0.3, 0.7, 0.2}, dy[3] = {0}, cc[2] = {1, 2};
  __enzyme_autodiff((void *)g, enzyme_dup, y, dy, enzyme_const, cc,
                    enzyme_const, lt_vi(3));
  lt_check("dg/dy[0]", dy[0], cos(y[0]), 1e-12, 1e-12);
  lt_check("dg/dy[1]", dy[1], 2 * 2 * y[1] * cos(y[1] * y[1]), 1e-12, 1e-12);
  lt_check("dg/dy[2]", dy[2], 0, 0, 0);
  static const double hc[2] = {0.5, -1.5};
  double z[3] = {0.4, -0.8, 1.1}, dz[3] = {0};
  __enzyme_autodiff((void *)h, enzyme_dup, z, dz, enzyme_const, hc,
                    enzyme_const, lt_vi(3));
  for (int i = 0; i < 3; i++) {
    char what[32];
    snprintf(what, sizeof what, "dh/dz[%d]", i);
    lt_check(what, dz[i], lt_fd_arr(hx, z, 3, i), 1e-6, 1e-9);
  }
  return lt_done();
}
