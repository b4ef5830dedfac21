// Eigen's general matrix product under the default x86-64 flags (SSE2):
// its kernel broadcasts the right operand's entries with an integer
// shuffle of doubles (pshufd), which -O1 and above load as <4 x i32>. The
// gradient with respect to the right operand came back 0, silently (found
// by the --eigen random tester). A * B and B * A with dynamic 8 x 8 and
// 9 x 7 matrices, big enough for the blocked product, against the closed
// form d<W, A B>/dA = W B^T, d/dB = A^T W.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 %eigenflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 %eigenflags -DNDEBUG %s -o %t.O3 && %t.O3

#include <Eigen/Dense>

#include "check.h"
#include <leantape.h>

using Eigen::Map;
using Eigen::MatrixXd;

static int M, K, N; /* A is M x K, B is K x N */

/* <W, A B> with W_ij = cos(i + 2 j) */
static double loss(const double *a, const double *b) {
  Map<const MatrixXd> A(a, M, K), B(b, K, N);
  MatrixXd C = A * B;
  double s = 0;
  for (int j = 0; j < N; j++)
    for (int i = 0; i < M; i++)
      s += cos(i + 2.0 * j) * C(i, j);
  return s;
}

static void run(int m, int k, int n) {
  M = m, K = k, N = n;
  MatrixXd A(m, k), B(k, n), W(m, n), dA = MatrixXd::Zero(m, k), dB = MatrixXd::Zero(k, n);
  for (int i = 0; i < m * k; i++)
    A(i) = sin(0.3 * i + 0.1);
  for (int i = 0; i < k * n; i++)
    B(i) = cos(0.7 * i - 0.2);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++)
      W(i, j) = cos(i + 2.0 * j);
  __enzyme_autodiff((void *)loss, enzyme_dup, A.data(), dA.data(), enzyme_dup, B.data(),
                    dB.data());
  MatrixXd wa = W * B.transpose(), wb = A.transpose() * W;
  char what[64];
  snprintf(what, sizeof what, "%dx%dx%d: max |dA - W B^T|", m, k, n);
  lt_check(what, (dA - wa).cwiseAbs().maxCoeff(), 0, 0, 1e-12);
  snprintf(what, sizeof what, "%dx%dx%d: max |dB - A^T W|", m, k, n);
  lt_check(what, (dB - wb).cwiseAbs().maxCoeff(), 0, 0, 1e-12);
}

int main() {
  run(8, 8, 8);
  run(9, 7, 8);
  run(7, 9, 11);
  return lt_done();
}
