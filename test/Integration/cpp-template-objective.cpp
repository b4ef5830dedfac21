// A templated objective `template <typename T> T f(const T *x, int n)`
// instantiated for double and for float (the instantiations are linkonce_odr
// functions with mangled names, e.g. _Z3objIdET_PKS0_i), differentiated
// through the extern "C" entry point of leantape.h, with a templated helper
// called from the template, and a member-function template of a struct
// (called through a static wrapper).
// RUN: %ltclangxx -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclangxx -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclangxx -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclangxx -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %ltclangxx -O2 -fno-exceptions %s -o %t.O2n -lm && %t.O2n

#include "check.h"
#include "testutil.h"
#include <cmath>
#include <leantape.h>

template <typename T> static T sq(T v) { return v * v; }

/* obj(x) = sum_i (x_i^2 + sin(x_i) x_{i+1 mod n}) */
template <typename T> T obj(const T *x, int n) {
  T s = 0;
  for (int i = 0; i < n; i++)
    s += sq(x[i]) + std::sin(x[i]) * x[(i + 1) % n];
  return s;
}

template <typename T> static void obj_grad(const T *x, int n, double *g) {
  for (int i = 0; i < n; i++) {
    int nx = (i + 1) % n, pv = (i + n - 1) % n;
    g[i] = 2.0 * x[i] + std::cos((double)x[i]) * x[nx] +
           std::sin((double)x[pv]);
  }
}

struct Scaled {
  double k;
  template <typename T> T eval(const T *x, int n) const {
    return (T)k * obj(x, n);
  }
};
double scaled_eval(const Scaled *s, const double *x, int n) {
  return s->eval(x, n);
}

static const int N = 4;
static double obj_d(const double *x) { return obj(x, N); }
static double obj_f_as_d(const double *xd) {
  float x[N];
  for (int i = 0; i < N; i++)
    x[i] = (float)xd[i];
  return obj(x, N);
}

int main() {
  const double x0[N] = {0.3, -1.1, 0.8, 2.0};
  double x[N], dx[N] = {0}, an[N];
  lt_fill(x, x0, N);
  __enzyme_autodiff((void *)obj<double>, enzyme_dup, (const double *)x, dx,
                    enzyme_const, lt_vi(N));
  obj_grad(x, N, an);
  for (int i = 0; i < N; i++)
    lt_grad("obj<double>", x[i], dx[i], an[i], lt_fd_arr(obj_d, x, N, i),
            1e-12, 1e-6);

  float xf[N], dxf[N] = {0};
  double xfd[N];
  for (int i = 0; i < N; i++) {
    xf[i] = lt_vf((float)x0[i]);
    xfd[i] = xf[i];
  }
  __enzyme_autodiff((void *)obj<float>, enzyme_dup, (const float *)xf, dxf,
                    enzyme_const, lt_vi(N));
  obj_grad(xf, N, an);
  for (int i = 0; i < N; i++) {
    double h = 1e-3, p = xfd[i];
    xfd[i] = p + h;
    double fp = obj_f_as_d(xfd);
    xfd[i] = p - h;
    double fm = obj_f_as_d(xfd);
    xfd[i] = p;
    lt_grad("obj<float>", xf[i], dxf[i], an[i], (fp - fm) / (2 * h), 1e-5,
            2e-3);
  }

  Scaled s = {lt_vd(-2.5)}, ds = {0};
  double dy[N] = {0};
  __enzyme_autodiff((void *)scaled_eval, enzyme_dup, &s, &ds, enzyme_dup,
                    (const double *)x, dy, enzyme_const, lt_vi(N));
  obj_grad(x, N, an);
  for (int i = 0; i < N; i++)
    lt_check("member template: dx", dy[i], -2.5 * an[i], 1e-12, 1e-14);
  lt_check("member template: dk", ds.k, obj(x, N), 1e-12, 1e-14);
  return lt_done();
}
