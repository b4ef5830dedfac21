// A scaled outer product of Maps, as the --eigen random tester wrote it
// (seed 310 at -O0; -E seeds 154, 155): at -O0 Eigen's product evaluator
// copies the Transpose<Map> operand into an i8 buffer and the buffer into
// its member, and only the member is read as a pointer. The first copy's
// layout came out as floats, so it moved no shadow pointer, and the
// reverse pass read through a null shadow (segfault). A copy's layout now
// also looks at the places other copies move the same bytes to
// (analysis/memlayout.c, copy_places). Gradient against central
// differences, -O0..-O3, with and without vectorisation (the -O0 segfault
// needs -DNDEBUG -fno-exceptions).
// REQUIRES: eigen
// RUN: %ltclangxx -O0 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O0 %eigenflags %s -o %t.O0a && %t.O0a
// RUN: %ltclangxx -O2 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 %eigenflags %s -o %t.O3 && %t.O3
// RUN: %ltclangxx -O0 -DNDEBUG %enzymecxxflags %eigenflags %s -o %t.O0e && %t.O0e

#include "check.h"
#include "testutil.h"
#include <Eigen/Dense>

extern int enzyme_dup;
template <typename R, typename... T> R __enzyme_autodiff(T...);

typedef Eigen::Map<const Eigen::Vector4d> M4;

/* sum(0.25 a b^T) and (0.25 a b^T) (c d^T) with a d of size 1 */
static double f(const double *x) {
  Eigen::Matrix4d m = 0.25 * (M4(x) * M4(x + 4).transpose());
  Eigen::Vector4d ev = (0.5 * (M4(x) * M4(x + 4).transpose())) *
                       (M4(x + 2) * Eigen::Map<const Eigen::Matrix<double, 1, 1>>(x + 7).transpose());
  return m.sum() + ev.squaredNorm();
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
