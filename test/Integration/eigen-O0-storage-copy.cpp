// Copies of dynamic Eigen matrices and vectors at -O0: DenseStorage's copy
// constructor copies the doubles with smart_copy, a memcpy of
// `(begin + rows * cols) - begin` bytes and nothing else to type it, while
// points-to (blind to fields) lets the storage's data pointer address the
// Eigen objects that hold pointers (the product's and the Map's). The copy
// was refused: "this copies memory that may hold both pointers to active
// data and floating-point values" (fuzz --eigen seeds 65014, 65015, 71011
// at -O0). memlayout.c from_range: a copy of [p, gep T, p, k) moves T.
// Gradients against central differences.
// RUN: %ltclangxx -O0 %eigenflags -fno-exceptions %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 %eigenflags -fno-exceptions %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %eigenflags -fno-exceptions %s -o %t.O2 && %t.O2
// REQUIRES: eigen

#include <Eigen/Dense>

#include "check.h"
#include <leantape.h>

#define N 8

__attribute__((noinline)) static void mtv(const Eigen::MatrixXd *M, const Eigen::VectorXd *v,
                                          Eigen::VectorXd *out) {
  *out = (*M).transpose() * (*v);
}

static double obj(const double *xc) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = xc[i];
  Eigen::Map<Eigen::VectorXd> E0(x + 4, 2);
  Eigen::MatrixXd E1(2, 2);
  for (int q = 0; q < E1.size(); q++)
    E1(q) = tanh(x[(q + 1) % N] + 0.5);
  Eigen::MatrixXd E2(2, 3);
  for (int q = 0; q < E2.size(); q++)
    E2(q) = sin(x[(q + 3) % N]);
  double s = 0;
  {
    Eigen::VectorXd ev = E0;
    s += ev.sum();
  }
  {
    Eigen::MatrixXd em = E1;
    Eigen::VectorXd ev = Eigen::Map<const Eigen::VectorXd>(x + 5, 2);
    Eigen::VectorXd eo;
    mtv(&em, &ev, &eo);
    s += eo.squaredNorm();
  }
  for (int i = 0; i < 7; i++)
    E0 += 0.06 * (0.6 * E2.block(0, i % 2, 2, 2).cwiseProduct(E1) * E2.col(2)).array().sin().matrix();
  return s + E0.squaredNorm() + x[3];
}

int main() {
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = 0.2 + 0.13 * i;
  __enzyme_autodiff((void *)obj, enzyme_dup, x, dx);
  char what[32];
  for (int k = 0; k < N; k++) {
    snprintf(what, sizeof what, "d/dx[%d]", k);
    lt_check(what, dx[k], lt_fd_at(obj, x, k), 1e-6, 1e-8);
  }
  return lt_done();
}
