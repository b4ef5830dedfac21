// REQUIRES: clang-plugin
// Globals declared enzyme_inactive that the differentiated function writes
// active values into and reads back: a static data member whose attribute
// is on the declaration in the class (the definition outside has none), a
// static member of a class template, and a variable template. Their data
// carries no derivative by the user's word (Enzyme's convention), so
// reading them back is no lost derivative to report: it was the error
// "reads back an active value that was stored to memory that has no
// shadow" (Enzyme's inactiveglob.cpp and inactive_template.cpp).
//  - f only keeps statistics in them (what it reads back goes back into
//    them, or into a comparison): its gradient is the derivative of its
//    result, checked against the analytic one and central differences;
//  - g reads one into its result before it stores x there: the value read
//    is a constant to the derivative (d/dx s x = s, the old value);
//  - select picks the global or an active local by a flag and updates it
//    in place (x op= y), read back later (Enzyme's inactiveglob.cpp at -O2).
// The primal writes still happen under the derivative. A value stored
// there that the result then reads back stays an error (whether the
// optimiser forwards the store would change the gradient): the RUN line
// with -DREADBACK.
// RUN: %fpluginclangxx -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %fpluginclangxx -O2 %s -o %t.O2 -lm && %t.O2
// RUN: not %fpluginclangxx -O0 -g -DREADBACK -c %s -o /dev/null 2>&1 | FileCheck %s

#include "check.h"
#include "testutil.h"
#include <cmath>
#include <leantape.h>

struct Stats {
  __attribute__((enzyme_inactive)) static double last;
  __attribute__((enzyme_inactive)) static double scale;
};
double Stats::last = 0;
double Stats::scale = 0;

template <class T> struct Tally {
  __attribute__((enzyme_inactive)) static T sum;
};
template <class T> T Tally<T>::sum = 0;

template <class T> __attribute__((enzyme_inactive)) T peak = 0;

__attribute__((noinline)) static void note(double v) {
  Tally<double>::sum += v;
  if (v > peak<double>)
    peak<double> = v;
}

double f(double x) {
  double y = std::sin(x) * x;
  Stats::last = y;
  Stats::last *= 2;
  note(y);
  note(x * x);
  return y * std::exp(x);
}

double g(double x) {
  double s = Stats::scale;
  Stats::scale = x;
  return s * x;
}

__attribute__((noinline)) static void scale_in(bool to_global, double a, double *c) {
  if (to_global)
    Stats::scale *= a;
  else
    *c *= a;
}

double h(double x, bool to_global) {
  double d = x;
  scale_in(to_global, x, &d);
  return d;
}

#ifdef READBACK
double bad(double x) {
  for (int i = 0; i < 3; i++)
    Stats::scale += x;
  return Stats::scale * x; // CHECK: inactive-global-readback.cpp:[[@LINE]]:{{[0-9]+}}: error: leantape: this reads back an active value
}
#endif

static double fd_f(const double *x) { return f(x[0]); }

int main() {
  double x = lt_vd(0.7);
  double d = __enzyme_autodiff((void *)f, x);
  double an = (std::cos(x) * x + std::sin(x)) * std::exp(x) +
              std::sin(x) * x * std::exp(x);
  lt_check("last written by the primal", Stats::last, 2 * std::sin(x) * x, 1e-15, 0);
  lt_check("peak written by the primal", peak<double>,
           std::fmax(std::sin(x) * x, x * x), 1e-15, 0);
  lt_grad("statistics in inactive globals: df/dx", x, d, an,
          lt_fd_arr(fd_f, &x, 1, 0), 1e-13, 1e-6);
  double sum0 = Tally<double>::sum;
  (void)__enzyme_autodiff((void *)f, x);
  lt_check("tally once per call", Tally<double>::sum - sum0,
           std::sin(x) * x + x * x, 1e-14, 0);

  Stats::scale = 2.5;
  double dg = __enzyme_autodiff((void *)g, x);
  lt_check("read from an inactive global before the store: a constant", dg, 2.5, 0, 0);
  lt_check("scale written by the primal", Stats::scale, x, 0, 0);

  lt_check("in place through a select, the local: d/dx x^2",
           __enzyme_autodiff((void *)h, x, false), 2 * x, 1e-15, 0);
  Stats::scale = 3.0;
  lt_check("in place through a select, the global: d/dx x",
           __enzyme_autodiff((void *)h, x, true), 1, 0, 0);
  lt_check("the global updated by the primal", Stats::scale, 3.0 * x, 1e-15, 0);
#ifdef READBACK
  (void)__enzyme_autodiff((void *)bad, x);
#endif
  return lt_done();
}
