// q^T (a b^T) q with q = y .* y and a a dynamic Map, as the --eigen random
// tester wrote it (seed 1060124, -O0): Eigen evaluates the nested outer
// product into a temporary and the inner product through a redux
// evaluator, and at -O0 the plugin's own SROA leaves a copy of the
// expression object's second pointer (to q's operand) as an i64 load from
// a parameter and an i64 store through an i8 GEP into a typed local.
// Nothing said the word was a pointer, so it was taken for a double: the
// member's shadow stayed null and the reverse skipped the adjoint through
// it, silently (dy about half its value); after mem2reg the same program
// segfaulted in generated code. The declared type of a local at a
// constant offset now counts through i8 GEPs (analysis/bits.c). Gradient
// against central differences, -O0..-O3, with and without assertions and
// vectorisation.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O0 -mavx2 -mfma -fexceptions %eigenflags %s -o %t.O0v && %t.O0v
// RUN: %ltclangxx -O1 %eigenflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 -mavx2 -mfma %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 -DNDEBUG %eigenflags %s -o %t.O3 && %t.O3
// RUN: %ltclangxx -O0 %enzymecxxflags %eigenflags %s -o %t.O0e && %t.O0e

#include "check.h"
#include "testutil.h"
#include <Eigen/Dense>

extern int enzyme_dup;
template <typename R, typename... T> R __enzyme_autodiff(T...);

/* x[0..3] = y, x[4..7] = a, x[2..5] = b (overlapping, as the fuzzer's) */
static double f(const double *x) {
  Eigen::Vector4d e = Eigen::Map<const Eigen::Vector4d>(x);
  return (e.cwiseProduct(e).transpose() *
          (Eigen::Map<const Eigen::VectorXd>(x + 4, 4) *
           Eigen::Map<const Eigen::Matrix<double, 1, 4>>(x + 2)) *
          e.cwiseProduct(e))
      .value();
}

int main() {
  const double x0[8] = {0.3, -0.7, 0.5, 0.8, -0.4, 0.6, 0.9, -0.2};
  double x[8], dx[8] = {0};
  lt_fill(x, x0, 8);
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, dx);
  for (int k = 0; k < 8; k++)
    lt_check("d/dx", dx[k], lt_fd_arr(f, x, 8, k), 1e-6, 1e-8);
  return lt_done();
}
