// An Eigen product of a scaled dynamic matrix and a difference of Maps, as
// the --eigen random tester wrote it (seed 116 at -O3): the product
// evaluator copies 16 bytes of its scaled operand (scalar and pointer)
// into a local that nothing reads afterwards. The copy's layout was
// unknown and the memory may hold pointers, so it was an error ("this
// copies memory that may hold both pointers ... layout is unknown"); a
// copy into a local the function only writes moves nothing the derivative
// reads (gen/forward.c, write_only). Gradient against central
// differences, -O0..-O3, with and without vectorisation.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O2 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O3 && %t.O3
// RUN: %ltclangxx -O3 -DNDEBUG %enzymecxxflags %eigenflags %s -o %t.O3e && %t.O3e
#include "check.h"
#include "testutil.h"
#include <Eigen/Dense>

extern int enzyme_dup;
template <typename R, typename... T> R __enzyme_autodiff(T...);

__attribute__((noinline)) static Eigen::MatrixXd th(const Eigen::MatrixXd &a) {
  Eigen::MatrixXd t = a.array().tanh().matrix();
  return t;
}

static double f(const double *x) {
  Eigen::Map<const Eigen::MatrixXd> A(x, 2, 2), B(x + 2, 2, 2), C(x + 4, 2, 2);
  Eigen::MatrixXd H = A;
  return sin((0.91 * th(H) * (B - C)).mean());
}

int main() {
  const double x0[8] = {0.3, -0.2, 0.5, 0.7, -0.4, 0.1, 0.9, -0.6};
  double x[8], dx[8] = {0};
  lt_fill(x, x0, 8);
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, dx);
  for (int k = 0; k < 8; k++)
    lt_check("d/dx", dx[k], lt_fd_arr(f, x, 8, k), 1e-6, 1e-8);
  return lt_done();
}
