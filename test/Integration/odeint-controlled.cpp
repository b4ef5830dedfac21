// boost odeint with an adaptive (controlled) Dormand-Prince stepper over a
// boost::array state, as a user writes it, with the flags Enzyme's C++
// tests use. At -O1/-O2 the new state leaves the stepper object as an i64
// copy (the object starts with flag bytes) and is used as a double only
// afterwards; the gradient came back 0, silently, for two reasons: the
// reverse of a run of loads skipped the bitcast between them, and the
// integer copy's declared type outvoted its use (bits-moves.ll).
// y' = -a y^2, y(0) = y0: y(T) = y0 / (1 + a y0 T). Derivatives with
// respect to y0, T (the step is T/100) and a, against the closed form and
// against central differences of the same program.
// At -O0 the stepper calls resize_m_dxdt_impl through a pointer to member
// bound with std::bind: the call becomes direct only after the
// canonicalising pipeline, and is inlined in another round.
// REQUIRES: boost
// RUN: %ltclangxx -O0 %enzymecxxflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 %enzymecxxflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %enzymecxxflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 %enzymecxxflags %s -o %t.O3 && %t.O3
// RUN: %ltclangxx -O2 %s -o %t.O2d && %t.O2d

#define BOOST_NO_EXCEPTIONS
#include <boost/array.hpp>
#include <boost/numeric/odeint.hpp>
#include <boost/throw_exception.hpp>
#include <boost/version.hpp>

#include "check.h"
#include <leantape.h>

void boost::throw_exception(std::exception const &) { __builtin_trap(); }
#if BOOST_VERSION >= 107300
void boost::throw_exception(std::exception const &, boost::source_location const &) {
  __builtin_trap();
}
#endif

namespace ode = boost::numeric::odeint;
typedef boost::array<double, 1> state;

struct Decay {
  double a;
  void operator()(const state &y, state &dy, double) const { dy[0] = -a * y[0] * y[0]; }
};

typedef ode::runge_kutta_dopri5<state, double, state, double> dopri5;

/* y(T) by integrate_const with a controlled stepper (observation step T/100) */
static double y_const(double y0, double T, double a) {
  state y = {{y0}};
  ode::integrate_const(ode::make_controlled<dopri5>(1e-12, 1e-12), Decay{a}, y,
                       0.0, T, T / 100);
  return y[0];
}

/* y(T) by integrate_adaptive (the stepper picks every step) */
static double y_adaptive(double y0, double T, double a) {
  state y = {{y0}};
  ode::integrate_adaptive(ode::make_controlled<dopri5>(1e-12, 1e-12), Decay{a}, y,
                          0.0, T, T / 100);
  return y[0];
}

template <double (*f)(double, double, double)> static void check(const char *name) {
  const double pts[][3] = {{1.0, 1.0, 1.2}, {2.0, 0.5, 0.7}, {0.5, 3.0, 2.0}};
  for (auto &p : pts) {
    double y0 = p[0], T = p[1], a = p[2], q = 1 + a * y0 * T;
    double g[3];
    g[0] = __enzyme_autodiff((void *)f, enzyme_out, y0, enzyme_const, T,
                             enzyme_const, a);
    g[1] = __enzyme_autodiff((void *)f, enzyme_const, y0, enzyme_out, T,
                             enzyme_const, a);
    g[2] = __enzyme_autodiff((void *)f, enzyme_const, y0, enzyme_const, T,
                             enzyme_out, a);
    double an[3] = {1 / (q * q), -a * y0 * y0 / (q * q), -y0 * y0 * T / (q * q)};
    for (int k = 0; k < 3; k++) {
      char what[64];
      snprintf(what, sizeof what, "%s d/d%s (y0=%g T=%g a=%g)", name,
               k == 0 ? "y0" : k == 1 ? "T" : "a", y0, T, a);
      /* the scheme's error is ~1e-12; the step control makes y(T) piecewise
       * smooth, so the difference quotient is a looser check */
      lt_grad(what, p[k], g[k], an[k], lt_fd3(f, y0, T, a, k), 1e-7, 1e-5);
    }
  }
}

int main() {
  check<y_const>("integrate_const");
  check<y_adaptive>("integrate_adaptive");
  return lt_done();
}
