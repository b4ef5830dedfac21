// Loop-carried nonlinear recurrences.
// (1) scalar: s_0 = s (enzyme_out), s_{i+1} = sin(s_i) x_i + 0.1 s_i^2,
//     f = s_n. Hand-written adjoint: a = 1; for i = n-1..0:
//     dx_i = a sin(s_i); a *= cos(s_i) x_i + 0.2 s_i; df/ds = a.
// (2) through memory: y_0 = x_0, y_i = sin(y_{i-1}) x_i + 0.1 y_{i-1}^2
//     written to an output array with seeds dy = w (dy consumed):
//     ybar_i = w_i + ybar_{i+1} (cos(y_i) x_{i+1} + 0.2 y_i),
//     dx_i = ybar_i sin(y_{i-1}) (i >= 1), dx_0 = ybar_0.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

double rec(double s, const double *x, int n) {
  for (int i = 0; i < n; i++)
    s = sin(s) * x[i] + s * s * 0.1;
  return s;
}

void rec_mem(double *y, const double *x, int n) {
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = sin(y[i - 1]) * x[i] + 0.1 * y[i - 1] * y[i - 1];
}

typedef struct {
  int n;
  const double *w;
} ctx_t;
/* z = [x, s] */
static double o_rec(double *z, void *c) {
  int n = ((ctx_t *)c)->n;
  return rec(z[n], z, n);
}
static double o_mem(double *x, void *c) {
  ctx_t *t = c;
  double y[64], f = 0;
  rec_mem(y, x, t->n);
  for (int i = 0; i < t->n; i++)
    f += t->w[i] * y[i];
  return f;
}

int main(void) {
  enum { NMAX = 50 };
  int ns[3] = {lt_vi(5), lt_vi(23), lt_vi(50)};
  for (int t = 0; t < 3; t++) {
    int n = ns[t];
    double z[NMAX + 1], dx[NMAX] = {0}, an[NMAX + 1], fd[NMAX + 1],
                        ad[NMAX + 1], st[NMAX + 1];
    lt_data(z, n, -1.2, 1.2, 21);
    double s0 = lt_vd(0.7);
    z[n] = s0;
    double *x = z;
    double ds = __enzyme_autodiff((void *)rec, enzyme_out, s0, enzyme_dup, x,
                                  dx, enzyme_const, n);
    st[0] = s0;
    for (int i = 0; i < n; i++)
      st[i + 1] = sin(st[i]) * x[i] + 0.1 * st[i] * st[i];
    double a = 1;
    for (int i = n - 1; i >= 0; i--) {
      an[i] = a * sin(st[i]);
      a *= cos(st[i]) * x[i] + 0.2 * st[i];
    }
    an[n] = a;
    for (int i = 0; i < n; i++)
      ad[i] = dx[i];
    ad[n] = ds;
    ctx_t c = {n, NULL};
    lt_fd_grad(o_rec, z, n + 1, &c, fd);
    printf("-- rec n = %d, s_n = %g\n", n, st[n]);
    lt_gradv("rec d[x,s]", n + 1, ad, an, fd, 1e-10, 1e-6);

    /* through memory */
    double y[NMAX], dy[NMAX], w[NMAX], yb[NMAX], dx2[NMAX] = {0};
    lt_data(w, n, -1.0, 1.0, 22);
    for (int i = 0; i < n; i++)
      dy[i] = w[i];
    __enzyme_autodiff((void *)rec_mem, enzyme_dup, y, dy, enzyme_dup, x, dx2,
                      enzyme_const, n);
    double yy[NMAX];
    yy[0] = x[0];
    for (int i = 1; i < n; i++)
      yy[i] = sin(yy[i - 1]) * x[i] + 0.1 * yy[i - 1] * yy[i - 1];
    yb[n - 1] = w[n - 1];
    for (int i = n - 2; i >= 0; i--)
      yb[i] = w[i] + yb[i + 1] * (cos(yy[i]) * x[i + 1] + 0.2 * yy[i]);
    an[0] = yb[0];
    for (int i = 1; i < n; i++)
      an[i] = yb[i] * sin(yy[i - 1]);
    c.w = w;
    lt_fd_grad(o_mem, x, n, &c, fd);
    lt_gradv("rec_mem dx", n, dx2, an, fd, 1e-10, 1e-6);
    for (int i = 0; i < n; i++) {
      lt_check_ad("y", y[i], yy[i], 1e-14, 1e-15);
      lt_check_ad("dy consumed", dy[i], 0.0, 0, 0);
    }
  }
  return lt_done();
}
