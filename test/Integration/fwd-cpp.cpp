// Forward mode from C++ with Enzyme's documented C++ declarations:
// template <typename R, typename... T> R __enzyme_fwddiff(void *, T...)
// and `int enzyme_dup;` etc. defined in this TU (the call is not variadic:
// arguments keep their types). Differentiated functions:
//  - a function template instantiated for double (poly<double>);
//  - a non-capturing lambda, through a constexpr function pointer, and a
//    static member function;
//  - a function with std::vector<double> temporaries (range construction,
//    push_back that reallocates, resize, copy, a vector returned by value);
//  - a member-like function taking a struct by pointer (dup with a shadow
//    struct holding a shadow std::vector's data pointer);
//  - the entry point called in a try block (compiled out without
//    exceptions) and next to a std::vector local (clang emits an invoke for
//    it when exceptions are on);
//  - enzyme_width 2 with a struct return and enzyme_primal_return.
// With -fexceptions and -fno-exceptions; tangents against the analytic
// derivative and central differences along the direction.
// RUN: %ltclangxx -O0 -fexceptions %s -o %t.e0 -lm && %t.e0
// RUN: %ltclangxx -O2 -fexceptions %s -o %t.e2 -lm && %t.e2
// RUN: %ltclangxx -O0 -fno-exceptions %s -o %t.n0 -lm && %t.n0
// RUN: %ltclangxx -O2 -fno-exceptions %s -o %t.n2 -lm && %t.n2
// The test really exercises an invoke of the entry point (IR before any pass):
// RUN: %clang -x c++ -std=c++17 -fexceptions -O0 -S -emit-llvm -Xclang -disable-llvm-passes %s -o - | FileCheck %s --check-prefix=IR
// IR: invoke {{.*}}__enzyme_fwddiff
// And no entry point call survives the plugin:
// RUN: %ltclangxx -O2 -fexceptions -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOCALL
// RUN: %ltclangxx -O0 -fexceptions -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOCALL
// NOCALL-NOT: {{(call|invoke) .*}}__enzyme_

#include "check.h"
#include "testutil.h"
#include <cmath>
#include <cstring>
#include <vector>

int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_width, enzyme_primal_return;
template <typename R, typename... T> R __enzyme_fwddiff(void *, T...);

struct D2 {
  double a, b;
};
struct PT {
  double p, t;
};

/* sum_i c_i x_i^(i+1) with c_i = 1/(i+1) */
template <typename T> T poly(const T *x, int n) {
  T s = 0;
  for (int i = 0; i < n; i++) {
    T p = x[i];
    for (int k = 0; k < i; k++)
      p *= x[i];
    s += p / T(i + 1);
  }
  return s;
}

static constexpr double (*lam)(double, double) = [](double a, double b) {
  return a * std::exp(b) + std::sin(a * b);
};

struct Model {
  double k;
  std::vector<double> w;
  static double energy(const double *x, int n) {
    double e = 0;
    for (int i = 0; i + 1 < n; i++) {
      double d = x[i + 1] - x[i];
      e += 0.5 * d * d + std::cos(x[i]);
    }
    return e;
  }
};

static std::vector<double> squares(const std::vector<double> &v) {
  std::vector<double> r;
  for (double e : v)
    r.push_back(e * e);
  return r;
}
/* vector temporaries: t = x; t += {x0 x1}; u = squares(t) resized to n + 3 */
double vec_obj(const double *x, int n) {
  std::vector<double> t(x, x + n);
  t.push_back(x[0] * x[1]); /* reallocates */
  std::vector<double> u = squares(t);
  u.resize(n + 3, 0.5);
  std::vector<double> c = u;
  double s = 0;
  for (double e : c)
    s += std::sin(e);
  return s;
}
static double vec_obj_t(const double *x, const double *v, int n) {
  double d = 0;
  for (int i = 0; i < n; i++)
    d += std::cos(x[i] * x[i]) * 2 * x[i] * v[i];
  double p = x[0] * x[1], dp = v[0] * x[1] + x[0] * v[1];
  d += std::cos(p * p) * 2 * p * dp;
  return d;
}

/* a struct with a vector member, by pointer: w_i k x_i^2 */
double model_obj(const Model *m, const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += m->w[i] * m->k * x[i] * x[i];
  return s;
}

static double fd_dir(double (*f)(const double *, int), const double *x, const double *v,
                     int n) {
  double xp[16], xm[16], h = 1e-6;
  for (int i = 0; i < n; i++)
    xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  return (f(xp, n) - f(xm, n)) / (2 * h);
}
static double vec_local_call(const double *x, const double *v, int n) {
  std::vector<double> keep(x, x + n); /* a local with a destructor */
  double r = __enzyme_fwddiff<double>((void *)vec_obj, enzyme_dup, keep.data(), v,
                                      enzyme_const, n);
  return r + keep[0] * 0;
}

int main() {
  const int N = 5;
  double x[N], v[N];
  for (int i = 0; i < N; i++) {
    x[i] = lt_vd(0.4 + 0.15 * i);
    v[i] = 1.0 - 0.4 * i;
  }
  /* template */
  {
    double an = 0;
    for (int i = 0; i < N; i++)
      an += std::pow(x[i], i) * v[i];
    double (*pf)(const double *, int) = poly<double>;
    lt_grad("template poly<double>", x[0],
            __enzyme_fwddiff<double>((void *)poly<double>, enzyme_dup, x, v, enzyme_const, N), an,
            fd_dir(pf, x, v, N), 1e-12, 1e-6);
  }
  /* lambda: d/da = e^b + b cos(ab), d/db = a e^b + a cos(ab) */
  {
    double a = lt_vd(0.7), b = lt_vd(-0.3), ta = 0.6, tb = 1.5, h = 1e-6;
    double an = ta * (std::exp(b) + b * std::cos(a * b)) + tb * (a * std::exp(b) + a * std::cos(a * b));
    double fd = (lam(a + h * ta, b + h * tb) - lam(a - h * ta, b - h * tb)) / (2 * h);
    lt_grad("lambda", a, __enzyme_fwddiff<double>((void *)lam, a, ta, b, tb), an, fd, 1e-12,
            1e-6);
    lt_grad("lambda (enzyme_dup, b enzyme_const)", a,
            __enzyme_fwddiff<double>((void *)lam, enzyme_dup, a, 1.0, enzyme_const, b),
            std::exp(b) + b * std::cos(a * b), (lam(a + h, b) - lam(a - h, b)) / (2 * h), 1e-12,
            1e-6);
    D2 r = __enzyme_fwddiff<D2>((void *)lam, enzyme_width, 2, a, 1.0, 0.0, b, 0.0, 1.0);
    lt_check("lambda width 2 lane 0", r.a, std::exp(b) + b * std::cos(a * b), 1e-12, 0);
    lt_check("lambda width 2 lane 1", r.b, a * std::exp(b) + a * std::cos(a * b), 1e-12, 0);
    PT p = __enzyme_fwddiff<PT>((void *)lam, enzyme_primal_return, a, ta, b, tb);
    lt_check("lambda enzyme_primal_return: primal", p.p, lam(a, b), 1e-15, 0);
    lt_check("lambda enzyme_primal_return: tangent", p.t, an, 1e-12, 0);
  }
  /* static member */
  {
    double an = 0;
    for (int i = 0; i + 1 < N; i++)
      an += (x[i + 1] - x[i]) * (v[i + 1] - v[i]) - std::sin(x[i]) * v[i];
    lt_grad("static member function", x[0],
            __enzyme_fwddiff<double>((void *)Model::energy, x, v, N), an,
            fd_dir(Model::energy, x, v, N), 1e-12, 1e-6);
  }
  /* vector temporaries */
  {
    double an = vec_obj_t(x, v, N);
    lt_grad("std::vector temporaries", x[0],
            __enzyme_fwddiff<double>((void *)vec_obj, enzyme_dup, x, v, enzyme_const, N), an,
            fd_dir(vec_obj, x, v, N), 1e-12, 1e-6);
    lt_check("next to a std::vector local", vec_local_call(x, v, N), an, 1e-12, 0);
    double r = 0;
#if __cpp_exceptions
    try {
      r = __enzyme_fwddiff<double>((void *)vec_obj, x, v, N);
    } catch (...) {
      r = -1;
    }
#else
    r = __enzyme_fwddiff<double>((void *)vec_obj, x, v, N);
#endif
    lt_check("in a try block (with exceptions)", r, an, 1e-12, 0);
  }
  /* struct with a vector member, with a shadow struct */
  {
    Model m{lt_vd(1.7), std::vector<double>(N)}, dm{0.25, std::vector<double>(N)};
    for (int i = 0; i < N; i++)
      m.w[i] = 0.5 + i, dm.w[i] = 0.1 * i - 0.2;
    double an = 0;
    for (int i = 0; i < N; i++)
      an += dm.w[i] * m.k * x[i] * x[i] + m.w[i] * dm.k * x[i] * x[i] +
            m.w[i] * m.k * 2 * x[i] * v[i];
    double h = 1e-6, xp[N], xm[N];
    Model mp = m, mm = m;
    mp.k += h * dm.k, mm.k -= h * dm.k;
    for (int i = 0; i < N; i++) {
      mp.w[i] += h * dm.w[i], mm.w[i] -= h * dm.w[i];
      xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
    }
    double fd = (model_obj(&mp, xp, N) - model_obj(&mm, xm, N)) / (2 * h);
    lt_grad("struct with a std::vector member (shadow struct)", x[0],
            __enzyme_fwddiff<double>((void *)model_obj, enzyme_dup, &m, &dm, enzyme_dup, x, v,
                                     enzyme_const, N),
            an, fd, 1e-12, 1e-6);
  }
  return lt_done();
}
