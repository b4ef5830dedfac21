// A loop that passes a Map to a noinline function taking `const
// Eigen::VectorXd &` (a temporary VectorXd is made from the Map each
// iteration) and returning a VectorXd, dotted with another temporary, as
// the --eigen random tester wrote it (seed 1122025, -O3 -mavx2 -mfma
// -DNDEBUG -fno-exceptions). Inlined into the loop, the function's copy
// of its argument lives in an alloca that a ptrtoint keeps in memory; the
// argument's doubles are stored as one <4 x double> and read back through
// the data pointer loaded from that alloca, and the only typed access of
// Eigen's aligned blocks was the load of malloc's pointer kept 8 bytes
// before the data (to free it). The copy between the two blocks was taken
// for a copy of pointers and the adjoints through it dropped, silently
// (dx 0 for the mapped entries; analysis/memlayout.c). Gradient against
// central differences, -O0..-O3, with and without vectorisation.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 %eigenflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 -mavx2 -mfma %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 -DNDEBUG -mavx2 -mfma -fno-exceptions %eigenflags %s -o %t.O3 && %t.O3
// RUN: %ltclangxx -O3 -DNDEBUG %eigenflags %s -o %t.O3s && %t.O3s
// RUN: %ltclangxx -O2 %enzymecxxflags %eigenflags %s -o %t.O2e && %t.O2e

#include "check.h"
#include "testutil.h"
#include <Eigen/Core>

extern int enzyme_dup;
template <typename R, typename... T> R __enzyme_autodiff(T...);

__attribute__((noinline)) static Eigen::VectorXd tanh_of(const Eigen::VectorXd &a) {
  Eigen::VectorXd t = a;
  return t.array().tanh().matrix();
}

static volatile int n_runtime = 3;

/* x[0..3]: the vector dotted, x[3..6]: the argument (overlapping) */
static double f(const double *x) {
  double acc = 0.1;
  Eigen::Map<const Eigen::VectorXd> e(x + 3, 4);
  int n = n_runtime;
  for (int i = 0; i < 1; i++)
    for (int j = 0; j < n; j++) {
      Eigen::VectorXd o = Eigen::Map<const Eigen::Vector4d>(x);
      acc += 0.5 * tanh(o.dot(tanh_of(e)));
    }
  return acc;
}

int main() {
  const double x0[7] = {0.3, -0.7, 0.5, 0.8, -0.4, 0.6, 0.9};
  double x[7], dx[7] = {0};
  lt_fill(x, x0, 7);
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, dx);
  for (int k = 0; k < 7; k++)
    lt_check("d/dx", dx[k], lt_fd_arr(f, x, 7, k), 1e-6, 1e-8);
  return lt_done();
}
