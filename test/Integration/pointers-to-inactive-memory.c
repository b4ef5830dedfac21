// Pointers into inactive (enzyme_const) memory stored in memory and read
// back, and their relatives:
//  - the issue-7 miscompile: a malloc'ed array of row pointers into an
//    enzyme_const array, then read (w dup, out dupnoneed);
//  - the same function with the rows array pointing into dup memory;
//  - a mixed array: even rows point into dup memory, odd rows into const;
//  - a local array of structs whose pointer members point into dup and
//    const memory;
//  - a struct passed as enzyme_dup with a mirrored shadow struct (shadow
//    data pointer, shadow coefficient pointer, same int, shadow bias);
//  - p = k ? x_dup : c_const;
//  - heap buffers of pointers into dup memory, const memory, a heap
//    temporary holding active values, a heap buffer of inactive values and
//    a const global table;
//  - a kept (recursive) callee that reads through a local struct array
//    whose pointer members point into dup and const memory, in reverse
//    and forward mode (the callee's derivative must guard the shadows it
//    loads: they are null for the const rows; it crashed before).
// Every gradient is checked against central finite differences (and the
// formula); const inputs must come back unchanged.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stdlib.h>

double __enzyme_fwddiff(void *, ...);

/* ---- the miscompile from the issue ---------------------------------- */
void rows_f(int n, const double *w, const double *seq, double *out) {
  const double **rows = malloc(n * sizeof *rows);
  for (int i = 0; i < n; i++)
    rows[i] = &seq[2 * i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * rows[i][0] * rows[i][1];
  free(rows);
  *out = s;
}

/* ---- mixed rows: even rows into x (dup), odd rows into c (const) ---- */
void rows_mixed(int n, const double *w, const double *x, const double *c,
                double *out) {
  const double **rows = malloc(n * sizeof *rows);
  for (int i = 0; i < n; i++)
    rows[i] = (i & 1) ? &c[2 * i] : &x[2 * i];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += w[i] * rows[i][0] * sin(rows[i][1]);
  free(rows);
  *out = s + x[1];
}

/* ---- local structs with pointer members ----------------------------- */
struct PP {
  const double *a, *b;
  double k;
};
double struct_local(const double *x, const double *c, double k) {
  struct PP p[2] = {{x, c, k}, {c + 2, x + 2, 2 * k}};
  double s = 0;
  for (int i = 0; i < 2; i++)
    s += p[i].k * p[i].a[0] * p[i].b[1] + sin(p[i].a[1]);
  return s;
}

/* ---- a kept callee reading pointers into const memory --------------- */
struct PK {
  const double *p;
  int k;
};
__attribute__((noinline)) double kept_walk(const struct PK *s, const double *x,
                                           int n, int d) {
  double acc = 0;
  if (d > 0) { /* recursive: the call stays a call */
    struct PK loc[2] = {{x, 0}, {x + 2, 1}};
    acc = kept_walk(loc, x, 2, d - 1);
  }
  for (int i = 0; i < n; i++)
    acc += sin(s[i % 3].p[(s[i % 3].k + i) % 2] * x[i]);
  return acc;
}
double kept_caller(const double *x, const double *c, int n) {
  struct PK s[3] = {{x + 5, 0}, {c + 2, 1}, {x + 1, 0}};
  return kept_walk(s, x, n, 1);
}
/* its gradient by hand: each term sin(a b) with a read through a row */
static void kept_an(const double *x, const double *c, int n, double *g) {
  struct {
    const double *p;
    int k, dup;
  } s[3] = {{x + 5, 0, 1}, {c + 2, 1, 0}, {x + 1, 0, 1}}, loc[2] = {{x, 0, 1}, {x + 2, 1, 1}};
  for (int i = 0; i < 2; i++) { /* the inner call: rows loc[i % 3] */
    int r = i % 3, j = (loc[r].k + i) % 2;
    double a = loc[r].p[j], w = cos(a * x[i]);
    g[(loc[r].p - x) + j] += w * x[i];
    g[i] += w * a;
  }
  for (int i = 0; i < n; i++) {
    int r = i % 3, j = (s[r].k + i) % 2;
    double a = s[r].p[j], w = cos(a * x[i]);
    if (s[r].dup)
      g[(s[r].p - x) + j] += w * x[i];
    g[i] += w * a;
  }
}

/* ---- struct passed as dup with a mirrored shadow -------------------- */
struct Model {
  double *data;
  const double *coef;
  int n;
  double bias;
};
double model(struct Model *m) {
  double s = m->bias;
  for (int i = 0; i < m->n; i++)
    s += m->coef[i] * m->data[i] * m->data[i];
  return s;
}

/* ---- select between a dup and a const pointer ----------------------- */
double sel(const double *x, const double *c, int k) {
  const double *p = k ? x : c;
  return p[0] * p[1] + x[0] * c[0];
}

/* ---- heap buffers of pointers --------------------------------------- */
static const double tbl[4] = {1.5, -0.5, 2.0, 0.25};
double heap_ptrs(const double *x, const double *c, int n) {
  const double **px = malloc(n * sizeof *px);
  const double **pc = malloc(n * sizeof *pc);
  double *t = malloc(n * sizeof *t);
  double **pt = malloc(n * sizeof *pt);
  double *k = malloc(n * sizeof *k);
  const double **pk = malloc(n * sizeof *pk);
  const double **pg = malloc(n * sizeof *pg);
  for (int i = 0; i < n; i++) {
    px[i] = &x[i];
    pc[i] = &c[n - 1 - i];
    k[i] = i + 0.5;
    pk[i] = &k[i];
    pg[i] = &tbl[i % 4];
  }
  for (int i = 0; i < n; i++) {
    t[i] = *px[i] * *pc[i];
    pt[i] = &t[i];
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    s += *pt[i] * *pk[i] * *pg[i] * *px[(i + 1) % n];
  free(px);
  free(pc);
  free(t);
  free(pt);
  free(k);
  free(pk);
  free(pg);
  return s;
}

/* ---- finite-difference wrappers ------------------------------------- */
enum { NR = 4 };
static double g_w[NR], g_seq[2 * NR], g_x[2 * NR], g_c[2 * NR];
static double fd_rows_w(const double *w) {
  double o;
  rows_f(NR, w, g_seq, &o);
  return o;
}
static double fd_rows_seq(const double *s) {
  double o;
  rows_f(NR, g_w, s, &o);
  return o;
}
static double fd_mixed_w(const double *w) {
  double o;
  rows_mixed(NR, w, g_x, g_c, &o);
  return o;
}
static double fd_mixed_x(const double *x) {
  double o;
  rows_mixed(NR, g_w, x, g_c, &o);
  return o;
}
static double g_k;
static double fd_local_x(const double *x) { return struct_local(x, g_c, g_k); }
static double fd_local_k(double k) { return struct_local(g_x, g_c, k); }
static int g_sel;
static double fd_sel_x(const double *x) { return sel(x, g_c, g_sel); }
static double fd_heap_x(const double *x) { return heap_ptrs(x, g_c, NR); }
static double fd_kept_x(const double *x) { return kept_caller(x, g_c, 6); }

static void check_unchanged(const char *what, const double *a,
                            const double *b, int n) {
  for (int i = 0; i < n; i++)
    lt_check(what, a[i], b[i], 0, 0);
}

int main(void) {
  const double w0[NR] = {0.5, -1.25, 2.0, 0.75};
  const double s0[2 * NR] = {1.1, -0.7, 0.3, 2.2, -1.4, 0.9, 0.6, -0.2};
  const double x0[2 * NR] = {0.8, -0.3, 1.6, 0.45, -0.9, 1.2, 0.35, -1.1};
  const double c0[2 * NR] = {-0.6, 1.3, 0.2, -1.7, 0.95, 0.4, -0.25, 1.8};
  lt_fill(g_w, w0, NR);
  lt_fill(g_seq, s0, 2 * NR);
  lt_fill(g_x, x0, 2 * NR);
  lt_fill(g_c, c0, 2 * NR);

  /* the call: seq const, out dupnoneed, seed 2.5 */
  {
    double w[NR], seq[2 * NR], dw[NR] = {0}, out = 0, dout = lt_vd(2.5);
    lt_fill(w, w0, NR);
    lt_fill(seq, s0, 2 * NR);
    __enzyme_autodiff((void *)rows_f, enzyme_const, lt_vi(NR), enzyme_dup, w,
                      dw, enzyme_const, seq, enzyme_dupnoneed, &out, &dout);
    for (int i = 0; i < NR; i++)
      lt_grad("rows into const: dw", w[i], dw[i],
              2.5 * seq[2 * i] * seq[2 * i + 1],
              2.5 * lt_fd_arr(fd_rows_w, w, NR, i), 1e-12, 1e-6);
    check_unchanged("rows into const: seq unchanged", seq, g_seq, 2 * NR);
    lt_check("rows into const: dout consumed", dout, 0, 0, 0);
  }
  /* same function, seq dup */
  {
    double w[NR], seq[2 * NR], dw[NR] = {0}, ds[2 * NR] = {0}, out = 0,
                                              dout = lt_vd(1.0);
    lt_fill(w, w0, NR);
    lt_fill(seq, s0, 2 * NR);
    __enzyme_autodiff((void *)rows_f, enzyme_const, lt_vi(NR), enzyme_dup, w,
                      dw, enzyme_dup, seq, ds, enzyme_dup, &out, &dout);
    lt_check("rows into dup: primal out", out, fd_rows_w(w), 1e-14, 0);
    for (int i = 0; i < NR; i++) {
      lt_grad("rows into dup: dw", w[i], dw[i], seq[2 * i] * seq[2 * i + 1],
              lt_fd_arr(fd_rows_w, w, NR, i), 1e-12, 1e-6);
      lt_grad("rows into dup: dseq even", seq[2 * i], ds[2 * i],
              w[i] * seq[2 * i + 1], lt_fd_arr(fd_rows_seq, seq, 2 * NR, 2 * i),
              1e-12, 1e-6);
      lt_grad("rows into dup: dseq odd", seq[2 * i + 1], ds[2 * i + 1],
              w[i] * seq[2 * i],
              lt_fd_arr(fd_rows_seq, seq, 2 * NR, 2 * i + 1), 1e-12, 1e-6);
    }
  }
  /* mixed rows */
  {
    double w[NR], x[2 * NR], c[2 * NR], dw[NR] = {0}, dx[2 * NR] = {0};
    double out = 0, dout = lt_vd(1.0);
    lt_fill(w, w0, NR);
    lt_fill(x, x0, 2 * NR);
    lt_fill(c, c0, 2 * NR);
    __enzyme_autodiff((void *)rows_mixed, enzyme_const, lt_vi(NR), enzyme_dup,
                      w, dw, enzyme_dup, x, dx, enzyme_const, c,
                      enzyme_dupnoneed, &out, &dout);
    for (int i = 0; i < NR; i++) {
      const double *r = (i & 1) ? &c[2 * i] : &x[2 * i];
      lt_grad("mixed rows: dw", w[i], dw[i], r[0] * sin(r[1]),
              lt_fd_arr(fd_mixed_w, w, NR, i), 1e-12, 1e-6);
    }
    for (int j = 0; j < 2 * NR; j++) {
      int i = j / 2;
      double an = (j == 1);
      if (!(i & 1))
        an += (j & 1) ? w[i] * x[2 * i] * cos(x[j]) : w[i] * sin(x[j + 1]);
      lt_grad("mixed rows: dx", x[j], dx[j], an,
              lt_fd_arr(fd_mixed_x, x, 2 * NR, j), 1e-12, 1e-6);
    }
    check_unchanged("mixed rows: c unchanged", c, g_c, 2 * NR);
  }
  /* local structs with pointer members */
  {
    double x[2 * NR], c[2 * NR], dx[2 * NR] = {0}, k = lt_vd(-1.5);
    lt_fill(x, x0, 2 * NR);
    lt_fill(c, c0, 2 * NR);
    g_k = k;
    double dk = __enzyme_autodiff((void *)struct_local, enzyme_dup, x, dx,
                                  enzyme_const, c, enzyme_out, k);
    /* s = k x0 c1 + sin x1 + 2k c2 x3 + sin c3 */
    double an[4] = {k * c[1], cos(x[1]), 0, 2 * k * c[2]};
    for (int j = 0; j < 4; j++)
      lt_grad("struct members: dx", x[j], dx[j], an[j],
              lt_fd_arr(fd_local_x, x, 2 * NR, j), 1e-12, 1e-6);
    lt_grad("struct members: dk", k, dk, x[0] * c[1] + 2 * c[2] * x[3],
            lt_fd(fd_local_k, k), 1e-12, 1e-6);
    check_unchanged("struct members: c unchanged", c, g_c, 2 * NR);
  }
  /* dup struct with a mirrored shadow struct */
  {
    double data[NR], coef[NR], ddata[NR] = {0}, dcoef[NR] = {0};
    lt_fill(data, x0, NR);
    lt_fill(coef, c0, NR);
    struct Model m = {data, coef, lt_vi(NR), lt_vd(0.3)};
    struct Model dm = {ddata, dcoef, NR, 0.0};
    __enzyme_autodiff((void *)model, enzyme_dup, &m, &dm);
    for (int i = 0; i < NR; i++) {
      lt_check("dup struct: ddata", ddata[i], 2 * coef[i] * data[i], 1e-12,
               1e-14);
      lt_check("dup struct: dcoef", dcoef[i], data[i] * data[i], 1e-12, 1e-14);
    }
    lt_check("dup struct: dbias", dm.bias, 1.0, 0, 0);
    lt_check("dup struct: shadow n untouched", dm.n, NR, 0, 0);
  }
  /* select */
  for (int k = 0; k < 2; k++) {
    double x[2 * NR], c[2 * NR], dx[2 * NR] = {0};
    lt_fill(x, x0, 2 * NR);
    lt_fill(c, c0, 2 * NR);
    g_sel = k;
    __enzyme_autodiff((void *)sel, enzyme_dup, x, dx, enzyme_const, c,
                      enzyme_const, lt_vi(k));
    double an0 = c[0] + (k ? x[1] : 0), an1 = k ? x[0] : 0;
    lt_grad(k ? "select x: dx0" : "select c: dx0", x[0], dx[0], an0,
            lt_fd_arr(fd_sel_x, x, 2 * NR, 0), 1e-12, 1e-6);
    lt_grad(k ? "select x: dx1" : "select c: dx1", x[1], dx[1], an1,
            lt_fd_arr(fd_sel_x, x, 2 * NR, 1), 1e-12, 1e-6);
    check_unchanged("select: c unchanged", c, g_c, 2 * NR);
  }
  /* heap buffers of pointers:
   * s = sum_i x_i c_{n-1-i} (i + 1/2) tbl[i%4] x_{(i+1)%n} */
  {
    double x[2 * NR], c[2 * NR], dx[2 * NR] = {0};
    lt_fill(x, x0, 2 * NR);
    lt_fill(c, c0, 2 * NR);
    __enzyme_autodiff((void *)heap_ptrs, enzyme_dup, x, dx, enzyme_const, c,
                      enzyme_const, lt_vi(NR));
    for (int j = 0; j < NR; j++) {
      int p = (j + NR - 1) % NR, q = (j + 1) % NR;
      double an = c[NR - 1 - j] * (j + 0.5) * tbl[j % 4] * x[q] +
                  x[p] * c[NR - 1 - p] * (p + 0.5) * tbl[p % 4];
      lt_grad("heap pointer buffers: dx", x[j], dx[j], an,
              lt_fd_arr(fd_heap_x, x, 2 * NR, j), 1e-12, 1e-6);
    }
    check_unchanged("heap pointer buffers: c unchanged", c, g_c, 2 * NR);
  }
  /* a kept callee reading pointers into const memory, reverse and forward */
  {
    double x[2 * NR], c[2 * NR], dx[2 * NR] = {0}, an[2 * NR] = {0};
    lt_fill(x, x0, 2 * NR);
    lt_fill(c, c0, 2 * NR);
    kept_an(x, c, 6, an);
    __enzyme_autodiff((void *)kept_caller, enzyme_dup, x, dx, enzyme_const, c,
                      enzyme_const, lt_vi(6));
    for (int j = 0; j < 2 * NR; j++) {
      lt_grad("kept callee, const rows: dx", x[j], dx[j], an[j],
              lt_fd_arr(fd_kept_x, x, 2 * NR, j), 1e-12, 1e-6);
      double e[2 * NR] = {0};
      e[j] = 1;
      double t = __enzyme_fwddiff((void *)kept_caller, enzyme_dup, x, e,
                                  enzyme_const, c, enzyme_const, lt_vi(6));
      lt_check("kept callee, const rows: tangent", t, an[j], 1e-12, 1e-14);
    }
    check_unchanged("kept callee: c unchanged", c, g_c, 2 * NR);
  }
  return lt_done();
}
