// Return from inside a loop: accumulate S = sum_{i<=k} x_i^2 and return
// S * x_k at the first k where S > thr; otherwise fall out of the loop and
// return -S. thr is chosen away from every partial sum.
//   early return at K: df/dx_i = 2 x_i x_K (i < K), 2 x_K^2 + S_K (i = K),
//                      0 (i > K, never read)
//   no early return:   df/dx_i = -2 x_i
// A second function returns from inside a nested loop (first pair i < j
// with x_i x_j > thr returns sin(x_i) x_j; else 0).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

double first_over(const double *x, int n, double thr) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    if (s > thr)
      return s * x[i];
  }
  return -s;
}

double first_pair(const double *x, int n, double thr) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (x[i] * x[j] > thr)
        return sin(x[i]) * x[j];
  return 0.0;
}

typedef struct {
  int n;
  double thr;
} ctx_t;
static double o_first(double *x, void *c) {
  ctx_t *t = c;
  return first_over(x, t->n, t->thr);
}
static double o_pair(double *x, void *c) {
  ctx_t *t = c;
  return first_pair(x, t->n, t->thr);
}

int main(void) {
  enum { NMAX = 30 };
  int ns[2] = {lt_vi(8), lt_vi(30)};
  for (int t = 0; t < 2; t++) {
    int n = ns[t];
    double x[NMAX], an[NMAX], fd[NMAX], S[NMAX];
    lt_data(x, n, -1.5, 1.5, 29);
    S[0] = x[0] * x[0];
    for (int i = 1; i < n; i++)
      S[i] = S[i - 1] + x[i] * x[i];
    /* thresholds: midway into term n/2 (early return at n/2), and above
     * the total (no early return) */
    int Kw = n / 2;
    double thrs[2] = {lt_vd(S[Kw - 1] + 0.5 * x[Kw] * x[Kw]),
                      lt_vd(S[n - 1] + 1.0)};
    for (int q = 0; q < 2; q++) {
      double thr = thrs[q], dx[NMAX] = {0};
      int K = -1;
      for (int i = 0; i < n && K < 0; i++)
        if (S[i] > thr)
          K = i;
      for (int i = 0; i < n; i++)
        an[i] = K < 0    ? -2 * x[i]
                : i < K  ? 2 * x[i] * x[K]
                : i == K ? 2 * x[K] * x[K] + S[K]
                         : 0.0;
      __enzyme_autodiff((void *)first_over, enzyme_dup, x, dx, enzyme_const, n,
                        enzyme_const, thr);
      ctx_t c = {n, thr};
      lt_fd_grad(o_first, x, n, &c, fd);
      printf("-- first_over n = %d, return at %d\n", n, K);
      lt_gradv("first_over", n, dx, an, fd, 1e-10, 1e-6);
      for (int i = K + 1; K >= 0 && i < n; i++)
        lt_check_ad("unread after return", dx[i], 0.0, 0, 0);
    }
    /* nested early return */
    double thr = lt_vd(0.9);
    int I = -1, J = -1;
    for (int i = 0; i < n && I < 0; i++)
      for (int j = i + 1; j < n; j++)
        if (x[i] * x[j] > thr) {
          I = i;
          J = j;
          break;
        }
    double dx[NMAX] = {0};
    for (int i = 0; i < n; i++)
      an[i] = 0;
    if (I >= 0) {
      an[I] = cos(x[I]) * x[J];
      an[J] = sin(x[I]);
    }
    __enzyme_autodiff((void *)first_pair, enzyme_dup, x, dx, enzyme_const, n,
                      enzyme_const, thr);
    ctx_t c = {n, thr};
    lt_fd_grad(o_pair, x, n, &c, fd);
    printf("-- first_pair n = %d, return at (%d, %d), product %g\n", n, I, J,
           I >= 0 ? x[I] * x[J] : 0.0);
    lt_check("pair found", I >= 0, 1, 0, 0);
    lt_gradv("first_pair", n, dx, an, fd, 1e-10, 1e-6);
  }
  return lt_done();
}
