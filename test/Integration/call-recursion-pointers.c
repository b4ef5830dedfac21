// Recursive callees (kept as calls, with their own augmented forward and
// reverse and a heap tape per activation) that work through pointers:
//  - a recursion over halves of an array with pointer arithmetic that
//    writes every node's partial result into an output array (the caller
//    reads the output array back: adjoints flow through the recursion's
//    stores into a dup scratch buffer);
//  - a product over halves, tree(left) * sin(tree(right)), whose reverse
//    needs sin of a recursive call's result on one path only (the base
//    case never computes it; run under valgrind by hand: no uninitialised
//    tape value may reach a libm call);
//  - a recursive argmax returning a pointer into the active array; the
//    caller reads through it and writes through it;
//  - recursive callees called inside loops: a recursive power x^k over a
//    loop of polynomial terms, and a recursive dot product over the rows
//    of a matrix (pointer arithmetic per row).
// Every derivative is checked against the analytic formula and a central
// finite difference.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

/* ---- tree over halves, writing partial results ----------------------
 * A node over x[0..n) uses out[0 .. 2n-1): out[0] is its value, the left
 * subtree (m = n/2 elements) is at out + 1, the right one at out + 2m.
 * leaf: v = x^2; inner: v = l*r + sin(l). */
double tree_rec(const double *x, int n, double *out) {
  if (n == 1) {
    out[0] = x[0] * x[0];
    return out[0];
  }
  int m = n / 2;
  double l = tree_rec(x, m, out + 1);
  double r = tree_rec(x + m, n - m, out + 2 * m);
  out[0] = l * r + sin(l);
  return out[0];
}
enum { TN = 5, TS = 2 * TN - 1 };
/* objective: a weighted sum of every node's stored value */
double tree_obj(const double *x, double *scratch) {
  tree_rec(x, TN, scratch);
  double s = 0;
  for (int i = 0; i < TS; i++)
    s += scratch[i] * (1.0 + 0.1 * i);
  return s;
}

/* ---- product over halves ---------------------------------------------- */
double prodsin(const double *x, int n) {
  if (n == 1)
    return x[0] * x[0];
  int m = n / 2;
  return prodsin(x, m) * sin(prodsin(x + m, n - m));
}
/* hand-written reverse: adds w * d prodsin / dx into g */
static void prodsin_bwd(const double *x, int n, double w, double *g) {
  if (n == 1) {
    g[0] += w * 2 * x[0];
    return;
  }
  int m = n / 2;
  double a = prodsin(x, m), b = prodsin(x + m, n - m);
  prodsin_bwd(x, m, w * sin(b), g);
  prodsin_bwd(x + m, n - m, w * a * cos(b), g + m);
}

/* ---- recursive argmax returning a pointer into the array ------------ */
double *pick(double *a, int n) {
  if (n == 1)
    return a;
  double *l = pick(a, n / 2);
  double *r = pick(a + n / 2, n - n / 2);
  return *l >= *r ? l : r;
}
/* read through the picked pointer */
double pick_read(double *a, int n) {
  double *p = pick(a, n);
  double v = *p;
  return v * v * v + a[0] * v;
}
/* write through it, then read the whole array */
double pick_write(double *a, int n) {
  double *p = pick(a, n);
  *p = sin(*p) * 2.0;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a[i] * (i + 1);
  return s;
}

/* ---- recursive callees inside loops ---------------------------------- */
double rpow(double x, int k) {
  if (k == 0)
    return 1.0;
  return x * rpow(x, k - 1);
}
double poly(const double *c, double x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += c[i] * rpow(x, i);
  return s;
}
double rdot(const double *a, const double *b, int n) {
  if (n == 0)
    return 0.0;
  return a[0] * b[0] + rdot(a + 1, b + 1, n - 1);
}
enum { MR = 3, MC = 4 };
double rows_sin(const double *A, const double *v) {
  double s = 0;
  for (int r = 0; r < MR; r++)
    s += sin(rdot(A + r * MC, v, MC));
  return s;
}

/* ---- finite-difference wrappers --------------------------------------- */
static double fd_prodsin(const double *x) { return prodsin(x, TN); }
static double fd_tree(const double *x) {
  double sc[TS];
  return tree_obj(x, sc);
}
enum { PN = 6 };
static double fd_pick_read(const double *a) {
  double t[PN];
  memcpy(t, a, sizeof t);
  return pick_read(t, PN);
}
static double fd_pick_write(const double *a) {
  double t[PN];
  memcpy(t, a, sizeof t);
  return pick_write(t, PN);
}
enum { PC = 5 };
static double g_c[PC], g_x;
static double fd_poly_x(double x) { return poly(g_c, x, PC); }
static double fd_poly_c(const double *c) { return poly(c, g_x, PC); }
static double g_A[MR * MC], g_v[MC];
static double fd_rows_A(const double *A) { return rows_sin(A, g_v); }
static double fd_rows_v(const double *v) { return rows_sin(g_A, v); }

/* analytic gradient of the tree by a hand-written reverse sweep */
static double tree_fwd(const double *x, int n, double *val) {
  if (n == 1)
    return val[0] = x[0] * x[0];
  int m = n / 2;
  double l = tree_fwd(x, m, val + 1), r = tree_fwd(x + m, n - m, val + 2 * m);
  return val[0] = l * r + sin(l);
}
/* dv: adjoint of each node's value (already holds the direct weights) */
static void tree_bwd(const double *x, int n, const double *val, double *dv,
                     double *dx) {
  if (n == 1) {
    dx[0] += dv[0] * 2 * x[0];
    return;
  }
  int m = n / 2;
  double l = val[1], r = val[2 * m];
  dv[1] += dv[0] * (r + cos(l));
  dv[2 * m] += dv[0] * l;
  tree_bwd(x, m, val + 1, dv + 1, dx);
  tree_bwd(x + m, n - m, val + 2 * m, dv + 2 * m, dx + m);
}

int main(void) {
  /* tree over halves */
  {
    const double x0[TN] = {0.4, -0.7, 1.1, 0.25, -0.35};
    double x[TN], dx[TN] = {0}, sc[TS], dsc[TS] = {0};
    lt_fill(x, x0, TN);
    __enzyme_autodiff((void *)tree_obj, enzyme_dup, x, dx, enzyme_dup, sc, dsc);
    double val[TS], dv[TS], an[TN] = {0};
    tree_fwd(x, TN, val);
    for (int i = 0; i < TS; i++) {
      dv[i] = 1.0 + 0.1 * i;
      lt_check("tree: scratch holds the node values", sc[i], val[i], 1e-14, 0);
    }
    tree_bwd(x, TN, val, dv, an);
    for (int i = 0; i < TN; i++)
      lt_grad("tree over halves: dx", x[i], dx[i], an[i],
              lt_fd_arr(fd_tree, x, TN, i), 1e-12, 1e-6);
    /* the scratch buffer is overwritten before it is read: its incoming
     * value has no influence, so its shadow is zeroed by the reverse */
    for (int i = 0; i < TS; i++)
      lt_check("tree: scratch shadow consumed", dsc[i], 0, 0, 0);
  }
  /* product over halves, combined and split mode */
  {
    const double x0[TN] = {0.9, -1.3, 1.1, 0.75, -1.35};
    double x[TN], dx[TN] = {0}, an[TN] = {0}, ds[TN] = {0};
    lt_fill(x, x0, TN);
    __enzyme_autodiff((void *)prodsin, enzyme_dup, x, dx, enzyme_const,
                      lt_vi(TN));
    prodsin_bwd(x, TN, 1.0, an);
    for (int i = 0; i < TN; i++)
      lt_grad("product over halves: dx", x[i], dx[i], an[i],
              lt_fd_arr(fd_prodsin, x, TN, i), 1e-12, 1e-6);
    void *t = __enzyme_augmentfwd((void *)prodsin, enzyme_dup, x, ds,
                                  enzyme_const, lt_vi(TN));
    __enzyme_reverse((void *)prodsin, enzyme_dup, x, ds, enzyme_const,
                     lt_vi(TN), lt_vd(-0.5), t);
    for (int i = 0; i < TN; i++)
      lt_check("product over halves, split: dx", ds[i], -0.5 * an[i], 1e-12,
               1e-14);
  }
  /* pointer-returning recursion */
  {
    const double a0[PN] = {0.3, -1.2, 0.9, 1.4, 0.2, -0.5};
    int k = 3; /* argmax */
    double a[PN], da[PN] = {0};
    lt_fill(a, a0, PN);
    __enzyme_autodiff((void *)pick_read, enzyme_dup, a, da, enzyme_const,
                      lt_vi(PN));
    for (int i = 0; i < PN; i++) {
      double v = a[k];
      double an = (i == k ? 3 * v * v + a[0] : 0) + (i == 0 ? v : 0);
      lt_grad("pick, read through the result: da", a[i], da[i], an,
              lt_fd_arr(fd_pick_read, a, PN, i), 1e-12, 1e-6);
    }
    double b[PN], db[PN] = {0};
    lt_fill(b, a0, PN);
    __enzyme_autodiff((void *)pick_write, enzyme_dup, b, db, enzyme_const,
                      lt_vi(PN));
    lt_check("pick, write through the result: primal", b[k],
             2 * sin(a0[k]), 1e-14, 0);
    for (int i = 0; i < PN; i++) {
      double an = i == k ? (i + 1) * 2 * cos(a0[k]) : (i + 1);
      lt_grad("pick, write through the result: da", a0[i], db[i], an,
              lt_fd_arr(fd_pick_write, a0, PN, i), 1e-12, 1e-6);
    }
  }
  /* recursive power in a loop */
  {
    const double c0[PC] = {0.5, -1.0, 2.0, 0.75, -0.3};
    double c[PC], dc[PC] = {0}, x = lt_vd(0.85);
    lt_fill(c, c0, PC);
    lt_fill(g_c, c0, PC);
    g_x = x;
    double dx = __enzyme_autodiff((void *)poly, enzyme_dup, c, dc, enzyme_out,
                                  x, enzyme_const, lt_vi(PC));
    double an = 0;
    for (int i = 1; i < PC; i++)
      an += c[i] * i * pow(x, i - 1);
    lt_grad("rpow in a loop: dx", x, dx, an, lt_fd(fd_poly_x, x), 1e-12, 1e-6);
    for (int i = 0; i < PC; i++)
      lt_grad("rpow in a loop: dc", c[i], dc[i], pow(x, i),
              lt_fd_arr(fd_poly_c, c, PC, i), 1e-12, 1e-6);
  }
  /* recursive dot over rows in a loop */
  {
    double A[MR * MC], v[MC], dA[MR * MC] = {0}, dv[MC] = {0};
    for (int i = 0; i < MR * MC; i++)
      A[i] = lt_vd(0.1 * (i % 5) - 0.2 + 0.05 * i);
    for (int j = 0; j < MC; j++)
      v[j] = lt_vd(0.3 - 0.25 * j);
    memcpy(g_A, A, sizeof A);
    memcpy(g_v, v, sizeof v);
    __enzyme_autodiff((void *)rows_sin, enzyme_dup, A, dA, enzyme_dup, v, dv);
    double anv[MC] = {0};
    for (int r = 0; r < MR; r++) {
      double d = 0;
      for (int j = 0; j < MC; j++)
        d += A[r * MC + j] * v[j];
      for (int j = 0; j < MC; j++) {
        lt_grad("rdot over rows: dA", A[r * MC + j], dA[r * MC + j],
                cos(d) * v[j], lt_fd_arr(fd_rows_A, A, MR * MC, r * MC + j),
                1e-12, 1e-6);
        anv[j] += cos(d) * A[r * MC + j];
      }
    }
    for (int j = 0; j < MC; j++)
      lt_grad("rdot over rows: dv", v[j], dv[j], anv[j],
              lt_fd_arr(fd_rows_v, v, MC, j), 1e-12, 1e-6);
  }
  return lt_done();
}
