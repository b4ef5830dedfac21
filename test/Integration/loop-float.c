// The sum of squares, dot product and nonlinear recurrence loops in float.
// Analytic gradients are evaluated in double from the float inputs; finite
// differences run on a double twin of the same code (float differences
// would be too noisy), so tolerances are ~1e-4 (float rounding of the
// forward and reverse sweeps over up to 40 iterations).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

#ifdef NO_AD
float __enzyme_autodifff(void *fn, ...) {
  (void)fn;
  return 0;
}
#else
float __enzyme_autodifff(void *, ...);
#endif

#define DEFINE(T, SFX, SIN)                                                    \
  T sumsq##SFX(const T *x, int n) {                                            \
    T s = 0;                                                                   \
    for (int i = 0; i < n; i++)                                                \
      s += x[i] * x[i];                                                        \
    return s;                                                                  \
  }                                                                            \
  T dot##SFX(const T *x, const T *y, int n) {                                  \
    T s = 0;                                                                   \
    for (int i = 0; i < n; i++)                                                \
      s += x[i] * y[i];                                                        \
    return s;                                                                  \
  }                                                                            \
  T rec##SFX(T s, const T *x, int n) {                                         \
    for (int i = 0; i < n; i++)                                                \
      s = SIN(s) * x[i] + s * s * (T)0.1;                                      \
    return s;                                                                  \
  }
DEFINE(float, f, sinf)
DEFINE(double, d, sin)

static int which_;
/* z = [x, y] (dot) or [x, s] (rec); double twin */
static double obj(double *z, void *c) {
  int n = *(int *)c;
  return which_ == 0 ? sumsqd(z, n) : which_ == 1 ? dotd(z, z + n, n)
                                                  : recd(z[n], z, n);
}

int main(void) {
  enum { NMAX = 40 };
  int ns[2] = {lt_vi(7), lt_vi(40)};
  for (int t = 0; t < 2; t++) {
    int n = ns[t];
    float x[NMAX], y[NMAX], dx[NMAX] = {0}, dy[NMAX] = {0};
    double z[2 * NMAX], an[2 * NMAX], fd[2 * NMAX], ad[2 * NMAX];
    for (int i = 0; i < n; i++) {
      x[i] = lt_vf((float)(1.1 * sin(0.9 * i + 0.3)));
      y[i] = lt_vf((float)(0.8 * cos(1.3 * i)));
    }
    printf("-- n = %d\n", n);

    /* sum of squares */
    __enzyme_autodiff((void *)sumsqf, enzyme_dup, x, dx, enzyme_const, n);
    for (int i = 0; i < n; i++) {
      z[i] = x[i];
      an[i] = 2.0 * x[i];
      ad[i] = dx[i];
    }
    which_ = 0;
    lt_fd_grad(obj, z, n, &n, fd);
    lt_gradv("sumsqf", n, ad, an, fd, 1e-5, 1e-4);

    /* dot */
    for (int i = 0; i < n; i++)
      dx[i] = 0;
    __enzyme_autodiff((void *)dotf, enzyme_dup, x, dx, enzyme_dup, y, dy,
                      enzyme_const, n);
    for (int i = 0; i < n; i++) {
      z[i] = x[i];
      z[n + i] = y[i];
      an[i] = y[i];
      an[n + i] = x[i];
      ad[i] = dx[i];
      ad[n + i] = dy[i];
    }
    which_ = 1;
    lt_fd_grad(obj, z, 2 * n, &n, fd);
    lt_gradv("dotf", 2 * n, ad, an, fd, 1e-5, 1e-4);

    /* recurrence, float enzyme_out for s */
    float s0 = lt_vf(0.7f);
    for (int i = 0; i < n; i++)
      dx[i] = 0;
    float ds = __enzyme_autodifff((void *)recf, enzyme_out, s0, enzyme_dup, x,
                                  dx, enzyme_const, n);
    double st[NMAX + 1], a = 1;
    st[0] = s0;
    for (int i = 0; i < n; i++)
      st[i + 1] = sin(st[i]) * x[i] + 0.1 * st[i] * st[i];
    for (int i = n - 1; i >= 0; i--) {
      an[i] = a * sin(st[i]);
      a *= cos(st[i]) * x[i] + 0.2 * st[i];
    }
    an[n] = a;
    for (int i = 0; i < n; i++) {
      z[i] = x[i];
      ad[i] = dx[i];
    }
    z[n] = s0;
    ad[n] = ds;
    which_ = 2;
    lt_fd_grad(obj, z, n + 1, &n, fd);
    lt_gradv("recf d[x,s]", n + 1, ad, an, fd, 1e-4, 1e-4);
  }
  return lt_done();
}
