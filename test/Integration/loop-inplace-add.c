// In-place updates of an output array in a void function: y[i] += x[i],
// y[i] = y[i] + x[i]*x[i], and a pure overwrite of the first m entries.
// The shadow dy holds the seed w (the adjoint of the new y). Afterwards
// dx += J^T w and dy holds the adjoint of the OLD y: for y[i] += g(x_i)
// that is again w_i (the old value flows into the new one with derivative
// 1); for a pure overwrite it is 0; entries not written keep w_i.
// All of this equals the gradient of L(x, y) = sum_i w_i y_new_i with
// respect to (x, y_old), which the finite differences check.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

void add(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] += x[i];
}

void addsq(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] + x[i] * x[i];
}

/* y[i] = x[i]^2 + 1 for i < m: overwrites, does not read y */
void overwrite(double *y, const double *x, int n, int m) {
  for (int i = 0; i < m && i < n; i++)
    y[i] = x[i] * x[i] + 1.0;
}

typedef struct {
  int n, m, which;
  const double *w;
} ctx_t;

/* z = [x, y_old]; L = sum w_i y_new_i */
static double obj(double *z, void *c) {
  ctx_t *k = c;
  int n = k->n;
  double *x = z, *y = z + n;
  if (k->which == 0)
    add(y, x, n);
  else if (k->which == 1)
    addsq(y, x, n);
  else
    overwrite(y, x, n, k->m);
  double L = 0;
  for (int i = 0; i < n; i++)
    L += k->w[i] * y[i];
  return L;
}

int main(void) {
  enum { NMAX = 40 };
  int sizes[2] = {lt_vi(6), lt_vi(40)};
  for (int t = 0; t < 2; t++) {
    int n = sizes[t], m = lt_vi(n / 2 + 1);
    double x[NMAX], y0[NMAX], w[NMAX];
    lt_data(x, n, -1.2, 1.7, 4);
    lt_data(y0, n, -3.0, 3.0, 5);
    lt_data(w, n, 0.5, 2.5, 6);
    printf("-- n = %d\n", n);
    for (int which = 0; which < 3; which++) {
      static const char *names[3] = {"add", "addsq", "overwrite"};
      double y[NMAX], dx[NMAX], dy[NMAX], z[2 * NMAX];
      double an[2 * NMAX], fd[2 * NMAX], ad[2 * NMAX], want[NMAX];
      for (int i = 0; i < n; i++) {
        y[i] = y0[i];
        dx[i] = lt_vd(0.5); /* pre-filled: dx accumulates */
        dy[i] = w[i];
      }
      if (which == 0)
        __enzyme_autodiff((void *)add, enzyme_dup, y, dy, enzyme_dup, x, dx,
                          enzyme_const, n);
      else if (which == 1)
        __enzyme_autodiff((void *)addsq, enzyme_dup, y, dy, enzyme_dup, x, dx,
                          enzyme_const, n);
      else
        __enzyme_autodiff((void *)overwrite, enzyme_dup, y, dy, enzyme_dup, x,
                          dx, enzyme_const, n, enzyme_const, m);
      for (int i = 0; i < n; i++) {
        int written = which < 2 || i < m;
        double g = which == 0 ? 1.0 : 2 * x[i];
        an[i] = written ? w[i] * g : 0.0;          /* dL/dx_i */
        an[n + i] = which < 2 || i >= m ? w[i] : 0; /* dL/dy_old_i */
        want[i] = which == 0   ? y0[i] + x[i]
                  : which == 1 ? y0[i] + x[i] * x[i]
                  : i < m      ? x[i] * x[i] + 1.0
                               : y0[i];
        ad[i] = dx[i] - 0.5;
        ad[n + i] = dy[i];
        z[i] = x[i];
        z[n + i] = y0[i];
      }
      ctx_t c = {n, m, which, w};
      lt_fd_grad(obj, z, 2 * n, &c, fd);
      lt_gradv(names[which], 2 * n, ad, an, fd, 1e-10, 1e-6);
      for (int i = 0; i < n; i++)
        lt_check_ad("primal y", y[i], want[i], 1e-15, 0);
      /* an exact zero is required where the seed was consumed */
      for (int i = 0; i < n; i++)
        if (which == 2 && i < m)
          lt_check_ad("dy consumed", dy[i], 0.0, 0, 0);
    }
  }
  return lt_done();
}
