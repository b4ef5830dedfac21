// A scaled product of two small dynamic Maps, as the --eigen random
// tester wrote it (seed 990021 at -O0): Eigen evaluates s * (X * Y) as a
// coefficient-based (lazy) product with the scalar factored out. At -O0
// the product's eval_dynamic_impl, kept as a call, copies its right
// operand (a Map held by a parameter) into an i8 buffer, and the buffer
// into a member of a typed CwiseBinaryOp temporary; nothing in that
// function reads the member (the callee does). The first copy's layout
// was guessed as doubles, so the shadow Map's data pointer stayed null
// and the gradient segfaulted. The typed object another copy of the same
// bytes reaches now gives the layout (analysis/memlayout.c). Gradients
// against the closed form d<1, s X Y>/dX = s 1 Y^T, d/dY = s X^T 1.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O0 %eigenflags %s -o %t.O0a && %t.O0a
// RUN: %ltclangxx -O2 -DNDEBUG -fno-exceptions %eigenflags %s -o %t.O2 && %t.O2

#include "check.h"
#include <Eigen/Core>
#include <leantape.h>

static double f(double *x, double *y, int m, int k, int n) {
  Eigen::MatrixXd E = 0.51 * Eigen::Map<const Eigen::MatrixXd>(x, m, k) *
                      Eigen::Map<const Eigen::MatrixXd>(y, k, n);
  return E.sum();
}

static void run(int m, int k, int n) {
  double x[64], y[64], dx[64] = {0}, dy[64] = {0};
  for (int i = 0; i < m * k; i++)
    x[i] = 0.1 * (i + 1);
  for (int i = 0; i < k * n; i++)
    y[i] = 0.2 * (i - 3);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, m,
                    enzyme_const, k, enzyme_const, n);
  char what[64];
  for (int r = 0; r < m; r++)
    for (int c = 0; c < k; c++) {
      double e = 0;
      for (int j = 0; j < n; j++)
        e += 0.51 * y[c + k * j];
      snprintf(what, sizeof what, "%dx%dx%d dX(%d,%d)", m, k, n, r, c);
      lt_check(what, dx[r + m * c], e, 1e-12, 1e-12);
    }
  for (int c = 0; c < k; c++)
    for (int j = 0; j < n; j++) {
      double e = 0;
      for (int r = 0; r < m; r++)
        e += 0.51 * x[r + m * c];
      snprintf(what, sizeof what, "%dx%dx%d dY(%d,%d)", m, k, n, c, j);
      lt_check(what, dy[c + k * j], e, 1e-12, 1e-12);
    }
}

int main() {
  run(3, 2, 4);
  run(2, 3, 2);
  run(5, 4, 3);
  return lt_done();
}
