// A 3-deep nest with loads that are invariant in the inner loops (x[i],
// a[i*m+j], x[j] do not depend on k; -O2 hoists them):
//   f = sum_{i<n} sum_{j<m} sum_{k<p} a_ij x_i sin(x_j) x_k = S Q
// with S = sum_{k<p} x_k, Q = sum_{i<n,j<m} a_ij x_i sin(x_j):
//   df/da_ij = S x_i sin(x_j)
//   df/dx_t  = [t<p] Q + S (sum_{j<m} [t<n] a_tj sin(x_j)
//                            + sum_{i<n} [t<m] a_it x_i cos(x_t)).
// The three trip counts n, m, p are distinct runtime values.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

double nest3(const double *x, const double *a, int n, int m, int p) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < m; j++)
      for (int k = 0; k < p; k++)
        s += a[i * m + j] * x[i] * sin(x[j]) * x[k];
  return s;
}

typedef struct {
  int n, m, p, len;
} ctx_t;
/* z = [x (len), a (n*m)] */
static double obj(double *z, void *c) {
  ctx_t *t = c;
  return nest3(z, z + t->len, t->n, t->m, t->p);
}

int main(void) {
  int cs[2][3] = {{lt_vi(5), lt_vi(3), lt_vi(4)}, {lt_vi(9), lt_vi(12), lt_vi(7)}};
  for (int t = 0; t < 2; t++) {
    int n = cs[t][0], m = cs[t][1], p = cs[t][2];
    int len = n > m ? n : m;
    len = len > p ? len : p;
    double z[12 + 108], dz[12 + 108] = {0}, an[12 + 108], fd[12 + 108];
    double *x = z, *a = z + len;
    lt_data(z, len + n * m, -1.0, 1.5, 23);
    __enzyme_autodiff((void *)nest3, enzyme_dup, x, dz, enzyme_dup, a,
                      dz + len, enzyme_const, n, enzyme_const, m, enzyme_const,
                      p);
    double S = 0, Q = 0;
    for (int k = 0; k < p; k++)
      S += x[k];
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        Q += a[i * m + j] * x[i] * sin(x[j]);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < m; j++)
        an[len + i * m + j] = S * x[i] * sin(x[j]);
    for (int q = 0; q < len; q++) {
      double g = q < p ? Q : 0.0, h = 0;
      if (q < n)
        for (int j = 0; j < m; j++)
          h += a[q * m + j] * sin(x[j]);
      if (q < m)
        for (int i = 0; i < n; i++)
          h += a[i * m + q] * x[i] * cos(x[q]);
      an[q] = g + S * h;
    }
    ctx_t c = {n, m, p, len};
    lt_fd_grad(obj, z, len + n * m, &c, fd);
    printf("-- n = %d, m = %d, p = %d\n", n, m, p);
    lt_gradv("nest3 d[x,a]", len + n * m, dz, an, fd, 1e-10, 1e-6);
  }
  return lt_done();
}
