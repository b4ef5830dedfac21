// A local array filled by one loop and read by the next loop of the same
// trip count recomputes its reads from the stored expression
// (prep/storefwd.c): GradBench's gmm, xc[d] = x[d] - means[d] read twice
// by Q xc, tapes no xc. The shapes around it must keep reading memory:
// a fill from memory written later (`x` zeroed after the copy), a fill
// under a condition, a read of the last iteration's fill, a reader from 1
// (not 0) or of a shorter loop, a local passed to a callee; and, with the
// fill the only store, a read of the last point's fill, a fill of fewer
// elements, a fill that skips some (each of the last three is forwarded
// wrongly when a check of storefwd.c is left out). Each against
// central differences at -O0 and -O2; at -O2 the Q xc loops cache nothing
// (aa0b6f7's plugin taped xc at each read).
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O2 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s
// (the xc loops: lines 38 and 41; the triangle's row index li is taped)
// CHECK: local-forward.c:38:28: remark: a read of a local array is recomputed from what its loop stored (line 36), not taped
// CHECK: local-forward.c:38:20: remark: loop (depth 2) in 'qxc': caches nothing per iteration
// CHECK: local-forward.c:41:22: remark: loop (depth 2) in 'qxc': caches 4 bytes per iteration: phi (i32);
//

#include "check.h"
#include <leantape.h>
#include <stdio.h>
#include <string.h>

#define NI __attribute__((noinline))
#define N 6
#define D 4

/* sum over points of |Q (x_p - m)|^2, Q = diag(exp(q)) + strictly lower l */
NI double qxc(const double *x, const double *m, const double *q, const double *l, int n, int d) {
  double xc[16], out[16], s = 0;
  for (int p = 0; p < n; p++) {
    for (int k = 0; k < d; k++)
      xc[k] = x[p * d + k] - m[k];
    for (int i = 0; i < d; i++)
      out[i] = exp(q[i]) * xc[i];
    int li = 0;
    for (int i = 0; i < d; i++)
      for (int j = i + 1; j < d; j++) {
        out[j] += l[li] * xc[i];
        li++;
      }
    for (int i = 0; i < d; i++)
      s += out[i] * out[i];
  }
  return s;
}

/* t copies x, then x is zeroed: t's reads are not x's */
NI double zeroed(double *x, const double *m, const double *q, const double *l, int n, int d) {
  double t[16], s = 0;
  for (int k = 0; k < d; k++)
    t[k] = x[k] * m[k];
  for (int k = 0; k < d; k++)
    x[k] = 0.5 * x[k];
  for (int k = 0; k < d; k++)
    s += t[k] * t[k] * q[k] + x[k] * l[k];
  return s + n;
}

/* a fill under a condition: the untouched elements keep the last fill */
NI double cond(const double *x, const double *m, const double *q, const double *l, int n, int d) {
  double t[16], s = 0;
  for (int k = 0; k < d; k++)
    t[k] = l[k];
  for (int p = 0; p < n; p++) {
    for (int k = 0; k < d; k++)
      if (x[p * d + k] > 0.5)
        t[k] = x[p * d + k] * m[k];
    for (int k = 0; k < d; k++)
      s += t[k] * t[k] * q[k];
  }
  return s;
}

/* the read before the fill sees the last point's values */
NI double lagged(const double *x, const double *m, const double *q, const double *l, int n,
                 int d) {
  double t[16], s = 0;
  for (int k = 0; k < d; k++)
    t[k] = l[k] * m[k];
  for (int p = 0; p < n; p++) {
    for (int k = 0; k < d; k++)
      s += t[k] * x[p * d + k] * q[k];
    for (int k = 0; k < d; k++)
      t[k] = x[p * d + k] * x[p * d + k] - m[k];
  }
  return s;
}

/* the read before the fill (from the second point on) sees the last
 * point's values: the only store is the fill */
NI double prev(const double *x, const double *m, const double *q, const double *l, int n,
               int d) {
  double t[16], s = 0;
  for (int p = 0; p < n; p++) {
    if (p > 0)
      for (int k = 0; k < d; k++)
        s += t[k] * x[p * d + k] * q[k];
    for (int k = 0; k < d; k++)
      t[k] = x[p * d + k] * x[p * d + k] - m[k] * l[k];
  }
  return s;
}

/* a fill of the first c elements (at least one: no guard), c by the
 * point: the rest keep an earlier point's values */
NI double partial(const double *x, const double *m, const double *q, const double *l, int n,
                  int d) {
  double t[16], s = 0;
  for (int p = 0; p < n; p++) {
    int c = p % 2 ? d - 1 : d, k = 0;
    do {
      t[k] = x[p * d + k] * m[k] + l[k];
      k++;
    } while (k < c);
    for (int k = 0; k < d; k++)
      s += t[k] * t[k] * q[k];
  }
  return s;
}

/* a fill that skips elements by the data (the first point fills all) */
NI double skips(const double *x, const double *m, const double *q, const double *l, int n,
                int d) {
  double t[16], s = 0;
  for (int p = 0; p < n; p++) {
    for (int k = 0; k < d; k++)
      if (p == 0 || x[p * d + k] > 0.5)
        t[k] = m[k] * l[k] * (p + 1);
    for (int k = 0; k < d; k++)
      s += t[k] * t[k] * q[k] * x[p * d + k];
  }
  return s;
}

/* readers from 1, and of a shorter loop */
NI double shifted(const double *x, const double *m, const double *q, const double *l, int n,
                  int d) {
  double t[16], s = 0;
  for (int p = 0; p < n; p++) {
    for (int k = 0; k < d; k++)
      t[k] = x[p * d + k] * m[k] + l[k];
    for (int k = 1; k < d; k++)
      s += t[k] * t[k - 1] * q[k];
    for (int k = 0; k < d - 1; k++)
      s += t[k] * x[p * d + k];
  }
  return s;
}

NI void bump(double *t, int d) {
  for (int k = 0; k < d; k += 2)
    t[k] = t[k] * 1.5 + 0.25;
}

/* a callee writes the local between the fill and the reads */
NI double callee(const double *x, const double *m, const double *q, const double *l, int n,
                 int d) {
  double t[16], s = 0;
  for (int p = 0; p < n; p++) {
    for (int k = 0; k < d; k++)
      t[k] = x[p * d + k] - m[k];
    bump(t, d);
    for (int k = 0; k < d; k++)
      s += t[k] * t[k] * q[k] * l[k];
  }
  return s;
}

typedef double (*Fn)(const double *, const double *, const double *, const double *, int, int);

/* d/dx, d/dm, d/dq, d/dl against central differences (x may be
 * written: copies) */
static void fd_check(const char *name, Fn f, const double *x0, const double *m0,
                     const double *q0, const double *l0, double *const g[4]) {
  static const int len[4] = {N * D, D, D, D * D};
  static const char *nm[4] = {"x", "m", "q", "l"};
  for (int w = 0; w < 4; w++)
    for (int k = 0; k < len[w]; k++) {
      double a[4][N * D], h = 1e-6, fp, fm;
      const double *src[4] = {x0, m0, q0, l0};
      for (int r = 0; r < 4; r++)
        memcpy(a[r], src[r], len[r] * sizeof(double));
      a[w][k] += h;
      fp = f(a[0], a[1], a[2], a[3], N, D);
      for (int r = 0; r < 4; r++)
        memcpy(a[r], src[r], len[r] * sizeof(double));
      a[w][k] -= h;
      fm = f(a[0], a[1], a[2], a[3], N, D);
      char what[48];
      snprintf(what, sizeof what, "%s d%s[%d]", name, nm[w], k);
      lt_check(what, g[w][k], (fp - fm) / (2 * h), 1e-6, 1e-9);
    }
}

#define GRAD(f)                                                                  \
  do {                                                                           \
    double x[N * D], dx[N * D] = {0}, dm[D] = {0}, dq[D] = {0}, dl[D * D] = {0}; \
    double *g[4] = {dx, dm, dq, dl};                                             \
    memcpy(x, x0, sizeof x);                                                     \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, m0, dm,          \
                      enzyme_dup, q, dq, enzyme_dup, l, dl, enzyme_const, N,     \
                      enzyme_const, D);                                          \
    fd_check(#f, (Fn)f, x0, m0, q, l, g);                                        \
  } while (0)

int main(void) {
  double x0[N * D], m0[D], q[D], l[D * D];
  for (int k = 0; k < N * D; k++)
    x0[k] = 0.1 + 0.07 * ((k * 7) % 13);
  for (int k = 0; k < D; k++) {
    m0[k] = 0.3 + 0.1 * k;
    q[k] = 0.2 - 0.05 * k;
  }
  for (int k = 0; k < D * D; k++)
    l[k] = 0.5 - 0.03 * k;
  GRAD(qxc);
  GRAD((Fn)zeroed);
  GRAD(cond);
  GRAD(lagged);
  GRAD(prev);
  GRAD(partial);
  GRAD(skips);
  GRAD(shifted);
  GRAD(callee);
  return lt_done();
}
