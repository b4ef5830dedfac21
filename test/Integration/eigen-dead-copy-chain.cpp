// A scaled Eigen product times a Map, summed, as the --eigen random tester
// wrote it (seed 101 at -O1 and -O3): the product evaluator's kept
// assignment loop copies 16 bytes of its scaled operand (scalar and
// pointer) into a local, that local into a second and the second into a
// third, and nothing reads the last. The first copy's layout was unknown
// and the memory may hold pointers, so it was an error ("this copies
// memory that may hold both pointers ... layout is unknown"): a local
// only copied on into locals that are only written is write-only too
// (gen/forward.c, write_only). Gradient against central differences,
// -O0..-O3, with and without vectorisation.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O3 && %t.O3
// RUN: %ltclangxx -O3 -DNDEBUG %enzymecxxflags %eigenflags %s -o %t.O3e && %t.O3e
#include "check.h"
#include "testutil.h"
#include <Eigen/Dense>

extern int enzyme_dup;
template <typename R, typename... T> R __enzyme_autodiff(T...);

static double f(const double *x) {
  Eigen::Map<const Eigen::MatrixXd> E(x, 3, 2);
  return tanh((0.333 * (0.91 * E * E.transpose()) * E).sum() / 6.0);
}

int main() {
  const double x0[6] = {0.3, -0.2, 0.5, 0.7, -0.4, 0.1};
  double x[6], dx[6] = {0};
  lt_fill(x, x0, 6);
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, dx);
  for (int k = 0; k < 6; k++)
    lt_check("d/dx", dx[k], lt_fd_arr(f, x, 6, k), 1e-6, 1e-8);
  return lt_done();
}
