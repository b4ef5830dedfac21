// A reduction called inside an O(n) loop: out[j] = x[j] / mag(x, n) with
// mag(x, n) = sqrt(sum x_i^2) recomputed for every j (the loop in mag is
// nested in the loop of normalize after inlining, or a call in a loop when
// mag is noinline). Seeds dout = w, so the gradient is that of
// L = sum_j w_j out_j = (w.x) / |x|:
//   dL/dx_k = w_k / |x| - (w.x) x_k / |x|^3.
// dout is consumed (out is only written).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

double mag(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}

__attribute__((noinline)) double mag_ni(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return sqrt(s);
}

void normalize(double *out, const double *x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag(x, n);
}

void normalize_ni(double *out, const double *x, int n) {
  for (int j = 0; j < n; j++)
    out[j] = x[j] / mag_ni(x, n);
}

typedef struct {
  int n, ni;
  const double *w;
} ctx_t;

static double obj(double *x, void *c) {
  ctx_t *k = c;
  double out[64];
  if (k->ni)
    normalize_ni(out, x, k->n);
  else
    normalize(out, x, k->n);
  double L = 0;
  for (int j = 0; j < k->n; j++)
    L += k->w[j] * out[j];
  return L;
}

int main(void) {
  enum { NMAX = 48 };
  int sizes[3] = {lt_vi(5), lt_vi(16), lt_vi(48)};
  for (int t = 0; t < 3; t++) {
    int n = sizes[t];
    double x[NMAX], w[NMAX], an[NMAX], fd[NMAX];
    lt_data(x, n, -1.0, 2.0, 7);
    lt_data(w, n, -1.5, 1.5, 8);
    double m2 = 0, wx = 0;
    for (int i = 0; i < n; i++) {
      m2 += x[i] * x[i];
      wx += w[i] * x[i];
    }
    double m = sqrt(m2);
    for (int k = 0; k < n; k++)
      an[k] = w[k] / m - wx * x[k] / (m * m2);
    printf("-- n = %d\n", n);
    /* both calls unconditional: under a branch on ni, -O2 merges the two
     * call sites into one call on a select of the two functions */
    double out[2][NMAX], dout[2][NMAX], dx[2][NMAX];
    for (int ni = 0; ni < 2; ni++)
      for (int j = 0; j < n; j++) {
        out[ni][j] = -7.0;
        dout[ni][j] = w[j];
        dx[ni][j] = 0.0;
      }
    __enzyme_autodiff((void *)normalize, enzyme_dup, out[0], dout[0],
                      enzyme_dup, x, dx[0], enzyme_const, n);
    __enzyme_autodiff((void *)normalize_ni, enzyme_dup, out[1], dout[1],
                      enzyme_dup, x, dx[1], enzyme_const, n);
    for (int ni = 0; ni < 2; ni++) {
      ctx_t c = {n, ni, w};
      lt_fd_grad(obj, x, n, &c, fd);
      lt_gradv(ni ? "normalize(noinline mag)" : "normalize", n, dx[ni], an, fd,
               1e-10, 1e-6);
      for (int j = 0; j < n; j++) {
        lt_check_ad("out", out[ni][j], x[j] / m, 1e-13, 0);
        lt_check_ad("dout consumed", dout[ni][j], 0.0, 0, 0);
      }
    }
  }
  return lt_done();
}
