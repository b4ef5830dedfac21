// trace(B^T B) of a dynamic block B of a fixed matrix, in a noinline
// template, as the --eigen random tester wrote it (seed 40004 at -O0, a
// segfault in the gradient). Eigen evaluates the diagonal of the product
// lazily; at -O0 the plugin's SROA gathers the lazy product's operands
// into an i8 slice with two copies (the left Block's tail from 24 bytes
// into the typed Product, the right Block's head) and copies the slice on
// whole. Two rules were wrong:
//  - the slice took the product evaluator's element type, from a copy
//    into 24 bytes inside an evaluator (memelem.c, copied_type: copies
//    from or into the middle of an element say nothing of the type): the
//    shadow pointers went to offsets 0 and 24 instead of 0 and 32;
//  - nothing else gave the slice a layout but the two copies that filled
//    it (memlayout.c, copied_fields): taken for doubles, the right Block's
//    data pointer kept a null shadow.
// Gradient against the analytic one and central differences, -O0..-O3.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O0 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O0n && %t.O0n
// RUN: %ltclangxx -O1 %eigenflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 %eigenflags %s -o %t.O3 && %t.O3

#include "check.h"
#include "testutil.h"
#include <Eigen/Dense>

extern int enzyme_dup;
template <typename R, typename... T> R __enzyme_autodiff(T...);

template <typename D> __attribute__((noinline)) double gram_trace(const Eigen::MatrixBase<D> &a) {
  return (a.transpose() * a).trace();
}

/* E = [x2 x3 x4 x5; x6 x7 x0 x1]; B = E[:, 0:2] = [x2 x3; x6 x7] (a
 * dynamic block); also a 2 x 3 block of E + 0.5 E^2 entrywise:
 * f = |B|_F^2 + sum of squares of G[:, 1:4] with G = E + 0.5 E.^2 */
static double f(const double *x) {
  Eigen::Matrix<double, 2, 4> E;
  E << x[2], x[3], x[4], x[5], x[6], x[7], x[0], x[1];
  Eigen::Matrix<double, 2, 4> G = E + 0.5 * E.cwiseProduct(E);
  return gram_trace(E.block(0, 0, 2, 2)) + gram_trace(G.block(0, 1, 2, 3));
}

static double grad(const double *x, int k) {
  /* E's columns 0, 1 are x2 x6 / x3 x7; G's columns 1..3 are those of
   * E's x3 x7 / x4 x0 / x5 x1 */
  int in_b = k == 2 || k == 3 || k == 6 || k == 7;
  int in_g = k != 2 && k != 6;
  double g = 0;
  if (in_b)
    g += 2 * x[k];
  if (in_g) {
    double v = x[k] + 0.5 * x[k] * x[k];
    g += 2 * v * (1 + x[k]);
  }
  return g;
}

int main() {
  const double x0[8] = {0.3, -0.2, 0.5, 0.7, -0.4, 0.1, 0.9, -0.6};
  double x[8], dx[8] = {0};
  lt_fill(x, x0, 8);
  __enzyme_autodiff<void>((void *)f, enzyme_dup, x, dx);
  for (int k = 0; k < 8; k++)
    lt_grad("d/dx", x[k], dx[k], grad(x, k), lt_fd_arr(f, x, 8, k), 1e-12, 1e-6);
  return lt_done();
}
