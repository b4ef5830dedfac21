// boost odeint's fixed-step schemes as a user writes them: integrate_const
// with runge_kutta4 and integrate_times with euler over a std::vector of
// observation times, on y' = -a y^2 with a boost::array state, the system
// a struct passed by value (at -O0 to integrate_const, which stays a
// call: it used to be "a struct passed by value whose members are active"),
// reverse mode at -O0 and -O2, d/dy0 and d/da against central differences
// of the same program (and the closed form y0 / (1 + a y0 T), loosely: the
// schemes' own error).
// REQUIRES: boost
// RUN: %ltclangxx -O0 %enzymecxxflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O2 %enzymecxxflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O2 %s -o %t.O2d && %t.O2d

#define BOOST_NO_EXCEPTIONS
#include <boost/array.hpp>
#include <boost/numeric/odeint.hpp>
#include <boost/throw_exception.hpp>
#include <boost/version.hpp>
#include <vector>

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

/* y(T) by integrate_const with the classic Runge-Kutta scheme, 200 steps */
static double y_rk4(double y0, double T, double a) {
  state y = {{y0}};
  ode::integrate_const(ode::runge_kutta4<state>(), Decay{a}, y, 0.0, T, T / 200);
  return y[0];
}

/* y(T) by integrate_times with the explicit Euler scheme, observed at 50
 * times, 2000 steps */
static double y_euler(double y0, double T, double a) {
  state y = {{y0}};
  std::vector<double> times;
  for (int k = 0; k <= 50; k++)
    times.push_back(T * k / 50);
  ode::integrate_times(ode::euler<state>(), Decay{a}, y, times.begin(), times.end(),
                       T / 2000, ode::null_observer());
  return y[0];
}

template <double (*f)(double, double, double)>
static void check(const char *name, double scheme_tol) {
  const double pts[][3] = {{1.0, 1.0, 1.2}, {0.5, 2.0, 0.7}};
  for (auto &p : pts) {
    double y0 = p[0], T = p[1], a = p[2], q = 1 + a * y0 * T;
    double g[3];
    g[0] = __enzyme_autodiff((void *)f, enzyme_out, y0, enzyme_const, T, enzyme_const, a);
    g[1] = __enzyme_autodiff((void *)f, enzyme_const, y0, enzyme_out, T, enzyme_const, a);
    g[2] = __enzyme_autodiff((void *)f, enzyme_const, y0, enzyme_const, T, enzyme_out, a);
    double an[3] = {1 / (q * q), -a * y0 * y0 / (q * q), -y0 * y0 * T / (q * q)};
    for (int k = 0; k < 3; k++) {
      /* d/dT moves the fixed time grid, whose step count the rounding of
       * T / dt decides: a central difference across it is meaningless */
      if (k == 1)
        continue;
      char what[80];
      snprintf(what, sizeof what, "%s d/d%s (y0=%g T=%g a=%g)", name,
               k == 0 ? "y0" : k == 1 ? "T" : "a", y0, T, a);
      double fd = lt_fd3(f, y0, T, a, k);
      lt_check(what, g[k], fd, 1e-6, 1e-8);                /* the program's derivative */
      lt_check("  vs closed form", g[k], an[k], scheme_tol, scheme_tol); /* the scheme's */
    }
  }
}

int main() {
  check<y_rk4>("integrate_const rk4", 1e-6);
  check<y_euler>("integrate_times euler", 2e-2);
  return lt_done();
}
