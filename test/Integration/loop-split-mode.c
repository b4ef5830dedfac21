// Split mode (__enzyme_augmentfwd, then __enzyme_reverse with dret = 1.5)
// on loop functions.
// (1) prefix: x[i] = x[i] * x[i-1] for i = 1..n-1 overwrites the input in
//     place (x becomes the prefix products P_i), then returns sum_i x[i].
//     The reverse pass needs the OLD x[i], so the tape must keep them.
//     Seeds s_i in dx (adjoint of the new x_i); the gradient with respect
//     to the old x is that of L = dret * f + sum_i s_i P_i:
//       dx_k = sum_{i>=k} (dret + s_i) P_i / x_k.
// (2) capped: a while loop that exits when the running sum reaches a cap:
//     i = 0; s = 0; while (i < n && s < cap) { s += x_i^2; i++; } f = sqrt(s)
//     with K the trip count: df/dx_i = [i < K] x_i / sqrt(s).
// A second tape is taken before the first is consumed, to check tapes are
// independent.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

double prefix(double *x, int n) {
  for (int i = 1; i < n; i++)
    x[i] = x[i] * x[i - 1];
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

double capped(const double *x, int n, double cap) {
  int i = 0;
  double s = 0;
  while (i < n && s < cap) {
    s += x[i] * x[i];
    i++;
  }
  return sqrt(s);
}

typedef struct {
  int n;
  double dret, cap;
  const double *seed;
} ctx_t;
static double o_prefix(double *x, void *c) {
  ctx_t *t = c;
  double L = t->dret * prefix(x, t->n);
  for (int i = 0; i < t->n; i++)
    L += t->seed[i] * x[i];
  return L;
}
static double o_capped(double *x, void *c) {
  ctx_t *t = c;
  return t->dret * capped(x, t->n, t->cap);
}

int main(void) {
  enum { NMAX = 25 };
  double dret = lt_vd(1.5);
  int ns[2] = {lt_vi(5), lt_vi(25)};
  for (int t = 0; t < 2; t++) {
    int n = ns[t];
    double x0[NMAX], seed[NMAX], P[NMAX], an[NMAX], fd[NMAX];
    lt_data(x0, n, 0.8, 1.2, 26); /* prefix products stay O(1) */
    lt_data(seed, n, -1.0, 1.0, 27);
    P[0] = x0[0];
    for (int i = 1; i < n; i++)
      P[i] = P[i - 1] * x0[i];
    for (int k = 0; k < n; k++) {
      an[k] = 0;
      for (int i = k; i < n; i++)
        an[k] += (dret + seed[i]) * P[i];
      an[k] /= x0[k];
    }
    /* two tapes alive at once: run A and B forward, reverse B then A */
    double xa[NMAX], xb[NMAX], dxa[NMAX], dxb[NMAX];
    for (int i = 0; i < n; i++) {
      xa[i] = xb[i] = x0[i];
      dxa[i] = dxb[i] = seed[i];
    }
    void *ta = __enzyme_augmentfwd((void *)prefix, enzyme_dup, xa, dxa,
                                   enzyme_const, n);
    void *tb = __enzyme_augmentfwd((void *)prefix, enzyme_dup, xb, dxb,
                                   enzyme_const, n);
    for (int i = 0; i < n; i++)
      lt_check_ad("forward wrote prefix products", xa[i], P[i], 1e-14, 0);
    __enzyme_reverse((void *)prefix, enzyme_dup, xb, dxb, enzyme_const, n,
                     dret, tb);
    __enzyme_reverse((void *)prefix, enzyme_dup, xa, dxa, enzyme_const, n,
                     dret, ta);
    ctx_t c = {n, dret, 0, seed};
    lt_fd_grad(o_prefix, x0, n, &c, fd);
    printf("-- prefix n = %d\n", n);
    lt_gradv("prefix tape A", n, dxa, an, fd, 1e-10, 1e-6);
    lt_gradv("prefix tape B", n, dxb, an, NULL, 1e-10, 1e-6);

    /* while exit in split mode: cap hit after K terms, and never hit */
    double x[NMAX];
    lt_data(x, n, -1.0, 1.0, 28);
    double part = 0, caps[2];
    int Kmid = n / 2;
    for (int i = 0; i < n; i++) {
      part += x[i] * x[i];
      if (i == Kmid - 1)
        caps[0] = lt_vd(part - 0.5 * x[i] * x[i]); /* reached at i = Kmid-1 */
    }
    caps[1] = lt_vd(part + 1.0); /* never reached: counted exit */
    for (int q = 0; q < 2; q++) {
      double cap = caps[q], dx[NMAX] = {0}, s = 0;
      int K = 0;
      while (K < n && s < cap) {
        s += x[K] * x[K];
        K++;
      }
      for (int i = 0; i < n; i++)
        an[i] = i < K ? dret * x[i] / sqrt(s) : 0.0;
      void *tp = __enzyme_augmentfwd((void *)capped, enzyme_dup, x, dx,
                                     enzyme_const, n, enzyme_const, cap);
      __enzyme_reverse((void *)capped, enzyme_dup, x, dx, enzyme_const, n,
                       enzyme_const, cap, dret, tp);
      ctx_t cc = {n, dret, cap, NULL};
      lt_fd_grad(o_capped, x, n, &cc, fd);
      printf("-- capped n = %d, trip count %d\n", n, K);
      lt_gradv("capped", n, dx, an, fd, 1e-10, 1e-6);
    }
  }
  return lt_done();
}
