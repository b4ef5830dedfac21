// An inner loop with two exits (a data-dependent `break` when x[i] < 0 and
// the counted exit), nested in an outer loop; the running sum s of the
// inner loop is used only after it exits (the C version of @nested in the
// seed test loopexitcache.ll). With K = first i with x[i] < 0 (else n):
//   s_j = x_j + sum_{i<K} x_i^2,   out_j = x_j sqrt(s_j).
// Seeds dout = w; L = sum_j w_j out_j:
//   dL/dx_k = w_k (sqrt(s_k) + x_k / (2 sqrt(s_k)))
//           + [k < K] 2 x_k sum_j w_j x_j / (2 sqrt(s_j)).
// Cases: break in the middle, no break (counted exit only), break at i = 1.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

void nested(double *out, const double *x, int n) {
  for (int j = 0; j < n; j++) {
    double xj = x[j];
    double s = xj;
    for (int i = 0; i < n; i++) {
      if (x[i] < 0)
        break;
      s += x[i] * x[i];
    }
    out[j] = xj * sqrt(s);
  }
}

typedef struct {
  int n;
  const double *w;
} ctx_t;

static double obj(double *x, void *c) {
  ctx_t *k = c;
  double out[64];
  nested(out, x, k->n);
  double L = 0;
  for (int j = 0; j < k->n; j++)
    L += k->w[j] * out[j];
  return L;
}

int main(void) {
  enum { NMAX = 30 };
  int ns[3] = {lt_vi(12), lt_vi(30), lt_vi(7)};
  int brk[3] = {lt_vi(5), lt_vi(-1), lt_vi(1)}; /* -1: no break */
  for (int t = 0; t < 3; t++) {
    int n = ns[t], K = brk[t] < 0 ? n : brk[t];
    double x[NMAX], w[NMAX], s[NMAX], an[NMAX], fd[NMAX];
    double out[NMAX], dout[NMAX], dx[NMAX];
    lt_data(x, n, 0.3, 1.5, 9);
    lt_data(w, n, -1.0, 2.0, 10);
    if (K < n)
      x[K] = lt_vd(-0.05);
    if (K + 2 < n)
      x[K + 2] = lt_vd(-0.02); /* after the break: never read by the sum */
    double S = 0;
    for (int i = 0; i < K; i++)
      S += x[i] * x[i];
    double acc = 0;
    for (int j = 0; j < n; j++) {
      s[j] = x[j] + S;
      acc += w[j] * x[j] / (2 * sqrt(s[j]));
    }
    for (int k = 0; k < n; k++)
      an[k] = w[k] * (sqrt(s[k]) + x[k] / (2 * sqrt(s[k]))) +
              (k < K ? 2 * x[k] * acc : 0.0);
    for (int j = 0; j < n; j++) {
      out[j] = 0;
      dout[j] = w[j];
      dx[j] = 0;
    }
    printf("-- n = %d, break at %d\n", n, K);
    __enzyme_autodiff((void *)nested, enzyme_dup, out, dout, enzyme_dup, x, dx,
                      enzyme_const, n);
    ctx_t c = {n, w};
    lt_fd_grad(obj, x, n, &c, fd);
    lt_gradv("nested", n, dx, an, fd, 1e-10, 1e-6);
    for (int j = 0; j < n; j++) {
      lt_check_ad("out", out[j], x[j] * sqrt(s[j]), 1e-13, 0);
      lt_check_ad("dout consumed", dout[j], 0.0, 0, 0);
    }
  }
  return lt_done();
}
