// REQUIRES: clang-plugin
// The attributes in C++ through the clang plugin, with Enzyme's C++11
// spellings: [[enzyme::inactive]] on a free function, a static and a
// non-static member function and a function declared here and defined in
// another file (mangled names, in a namespace), __attribute__((enzyme_inactive))
// on a function template (each instantiation), [[enzyme_inactive]],
// [[enzyme::function_like("log1p")]], and [[enzyme::shadow(dg)]] on a
// namespace-scope global. Derivatives against the analytic ones and central
// differences of the functions without their inactive parts.
// RUN: %fpluginclangxx -O0 %s %S/../Inputs/clang-plugin/defs.cpp -o %t.O0 -lm && %t.O0
// RUN: %fpluginclangxx -O2 %s %S/../Inputs/clang-plugin/defs.cpp -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <cmath>
#include <leantape.h>

static int n_calls;

[[enzyme::inactive]] double note(double v) {
  n_calls++;
  return 2.0 * v;
}

struct Model {
  double k;
  [[enzyme::inactive]] static double stat(double v) {
    n_calls++;
    return v * v * v;
  }
  [[enzyme_inactive]] double member(double v) const {
    n_calls++;
    return k * v * v;
  }
};

template <class T> __attribute__((enzyme_inactive)) T twice(T v) {
  n_calls++;
  return v + v;
}

namespace ext {
extern int calls;
[[enzyme::inactive]] double scale(double v);
} // namespace ext

namespace mathx {
[[enzyme::function_like("log1p")]] double mylog1p(double a) { return 2.0 * a; }
} // namespace mathx

namespace state {
double dg;
double g [[enzyme::shadow(dg)]] = 1.25;
} // namespace state

double f(double x) {
  Model m{3.0};
  return x * x * state::g + note(x) + Model::stat(x) * x + m.member(x) + twice(x) +
         twice<float>((float)x) + ext::scale(x) + mathx::mylog1p(x);
}
double ref(double x) { return x * x * state::g + std::log1p(x); }

int main() {
  double x = lt_vd(0.6);
  n_calls = 0;
  ext::calls = 0;
  state::dg = 0;
  double dx = __enzyme_autodiff((void *)f, enzyme_out, x);
  /* Model::stat(x) * x: the inactive result still scales x */
  double an = 2 * x * state::g + x * x * x + 1.0 / (1.0 + x);
  lt_grad("df/dx", x, dx, an, lt_fd(ref, x) + x * x * x, 1e-14, 1e-7);
  lt_check("inactive functions ran once each", n_calls, 5, 0, 0);
  lt_check("ext::scale ran once", ext::calls, 1, 0, 0);
  lt_check("df/dg in the user's shadow", state::dg, x * x, 1e-15, 0);
  return lt_done();
}
