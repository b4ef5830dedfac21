// A scaled transpose times a block, as the --eigen random tester wrote it
// (seed 336): Eigen keeps `0.75 * E.transpose()` as {0.75, &E} in one
// <2 x double> at -O2, so E's address crosses a float lane (ptrtoint,
// bitcast, insertelement; extractelement, inttoptr) and came back as a
// pointer without a shadow: every entry of the gradient read through it
// was 0, silently (prep/lanes.c now takes the pointer itself). Gradient
// against central differences, -O0..-O3, with and without vectorisation.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O2 %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 %eigenflags %s -o %t.O3 && %t.O3
// RUN: %ltclangxx -O2 %enzymecxxflags %eigenflags %s -o %t.O2e && %t.O2e

#include "check.h"
#include "testutil.h"
#include <Eigen/Dense>

extern int enzyme_dup;
template <typename R, typename... T> R __enzyme_autodiff(T...);

/* sum(0.75 E^T E(:, 2)) + tanh of a matrix-vector product with it */
static double f(const double *x) {
  Eigen::MatrixXd E(2, 3);
  for (int q = 0; q < 6; q++)
    E(q) = x[q];
  Eigen::VectorXd ev = 0.75 * E.transpose() * E.block<2, 1>(0, 2);
  Eigen::VectorXd eo = (E * ev).array().tanh().matrix();
  return ev.sum() + eo.dot(E.col(1));
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
