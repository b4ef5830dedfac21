// C++ entry points that name the function indirectly, as real C++ does:
//  - a member function reached through a static wrapper, on a struct holding
//    a std::vector<double> (dup with a shadow struct and shadow vector);
//  - a function template instantiated for double and for float, with a
//    std::array temporary passed by reference;
//  - a non-capturing lambda converted to a function pointer held in a local
//    (at -O0 the pointer is stored to a stack slot, and the conversion is a
//    call to the lambda's operator that returns the invoker function);
//  - a function pointer copied through two locals.
// Gradients against the analytic value and central differences.
// RUN: %ltclangxx -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclangxx -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclangxx -O0 -fno-exceptions %s -o %t.n0 -lm && %t.n0

#include "check.h"
#include <array>
#include <cmath>
#include <leantape.h>
#include <vector>

struct Model {
  std::vector<double> w;
  double scale;
  double predict(const double *x) const {
    double s = 0;
    for (size_t i = 0; i < w.size(); i++)
      s += w[i] * x[i];
    return std::tanh(scale * s);
  }
  double loss(const double *x, double y) const {
    double e = predict(x) - y;
    return e * e;
  }
};

static double model_loss(const Model *m, const double *x, double y) {
  return m->loss(x, y);
}

template <class T> T norm2(const std::array<T, 3> &a) {
  return std::sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
}
template <class T> T tmpl(const T *x) {
  std::array<T, 3> a = {x[0], x[1] * x[2], std::sin(x[0])};
  return norm2(a) * x[1];
}

static double cube_sum(const double *v) { return v[0] * v[0] * v[0] + v[1]; }

int main() {
  /* the member function */
  Model m{{0.5, -0.3, 0.8}, 1.2}, dm{{0, 0, 0}, 0};
  double x[3] = {0.2, 0.7, -0.4};
  __enzyme_autodiff((void *)model_loss, enzyme_dup, &m, &dm, enzyme_const, x,
                    enzyme_const, 0.3);
  double h = 1e-6;
  for (int k = 0; k < 3; k++) {
    Model p = m, q = m;
    p.w[k] += h;
    q.w[k] -= h;
    double fd = (model_loss(&p, x, 0.3) - model_loss(&q, x, 0.3)) / (2 * h);
    lt_check("member dw", dm.w[k], fd, 1e-6, 1e-8);
  }
  {
    Model p = m, q = m;
    p.scale += h;
    q.scale -= h;
    double fd = (model_loss(&p, x, 0.3) - model_loss(&q, x, 0.3)) / (2 * h);
    lt_check("member dscale", dm.scale, fd, 1e-6, 1e-8);
  }

  /* the template, for double and for float */
  double xd[3] = {0.2, 0.7, -0.4}, dxd[3] = {0};
  __enzyme_autodiff((void *)tmpl<double>, enzyme_dup, xd, dxd);
  float xf[3] = {0.2f, 0.7f, -0.4f}, dxf[3] = {0};
  __enzyme_autodiff((void *)tmpl<float>, enzyme_dup, xf, dxf);
  for (int k = 0; k < 3; k++) {
    double p[3] = {xd[0], xd[1], xd[2]}, q[3] = {xd[0], xd[1], xd[2]};
    p[k] += h;
    q[k] -= h;
    double fd = (tmpl<double>(p) - tmpl<double>(q)) / (2 * h);
    lt_check("template<double>", dxd[k], fd, 1e-6, 1e-8);
    lt_check("template<float>", dxf[k], fd, 1e-4, 1e-5);
  }

  /* a lambda through a function pointer held in a local */
  auto lam = [](const double *v) { return v[0] * std::exp(v[1]); };
  double (*lp)(const double *) = lam;
  double lv[2] = {1.5, 0.2}, dlv[2] = {0};
  __enzyme_autodiff((void *)lp, enzyme_dup, lv, dlv);
  lt_check("lambda d0", dlv[0], std::exp(0.2), 1e-12, 0);
  lt_check("lambda d1", dlv[1], 1.5 * std::exp(0.2), 1e-12, 0);

  /* a function pointer copied through two locals */
  double (*f1)(const double *) = cube_sum;
  double (*f2)(const double *) = f1;
  double cv[2] = {0.7, 2.0}, dcv[2] = {0};
  __enzyme_autodiff((void *)f2, enzyme_dup, cv, dcv);
  lt_check("copied pointer d0", dcv[0], 3 * 0.7 * 0.7, 1e-12, 0);
  lt_check("copied pointer d1", dcv[1], 1.0, 1e-12, 0);
  return lt_done();
}
