// The determinant of a dynamic matrix through Eigen's PartialPivLU at -O0:
// the pivot search calls pmax through a function pointer (a direct call
// only after the canonicalising pipeline: "no derivative rule for
// pmax<double>") and takes |a| with an SSE2 sign mask ("reinterpreted as
// bits"); both found by the --eigen random tester. d det(A)/dA = det(A)
// A^{-T}, for 2 x 2 up to 5 x 5.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O2 %eigenflags %s -o %t.O2 && %t.O2

#include <Eigen/Dense>

#include "check.h"
#include <leantape.h>

using Eigen::Map;
using Eigen::MatrixXd;

static int N;

static double det(const double *a) { return Map<const MatrixXd>(a, N, N).determinant(); }

int main() {
  for (int n = 2; n <= 5; n++) {
    N = n;
    MatrixXd A(n, n), dA = MatrixXd::Zero(n, n);
    for (int i = 0; i < n * n; i++)
      A(i) = sin(1.7 * i + 0.4) + (i % (n + 1) == 0 ? 2.0 : 0.0);
    __enzyme_autodiff((void *)det, enzyme_dup, A.data(), dA.data());
    MatrixXd want = A.determinant() * A.inverse().transpose();
    char what[64];
    snprintf(what, sizeof what, "%dx%d: max |d det - det A^-T|", n, n);
    lt_check(what, (dA - want).cwiseAbs().maxCoeff(), 0, 0, 1e-10 * want.cwiseAbs().maxCoeff());
  }
  return lt_done();
}
