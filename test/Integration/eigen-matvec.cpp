// Eigen dense products through pointers, as Enzyme's C++ tests write them:
// *out = (*M) * (*v) into a preallocated output, and a loss through a
// temporary (squaredNorm of M v), for dynamic and fixed sizes, with and
// without __restrict. With -ffast-math at -O1..-O3 the product's loop
// keeps a <2 x double> and a double per iteration: 24-byte records, so the
// vector was 16-aligned only in every other one and the tape's aligned
// vector store faulted (tape-align.ll). Gradients against the closed form
// (d<u, M v>/dM = u v^T, /dv = M^T u; d|Mv|^2 = 2 (Mv) v^T, 2 M^T M v).
// REQUIRES: eigen
// RUN: %ltclangxx -O0 %enzymecxxflags %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 %enzymecxxflags %eigenflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %enzymecxxflags %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 %enzymecxxflags %eigenflags %s -o %t.O3 && %t.O3
// RUN: %ltclangxx -O2 %eigenflags %s -o %t.O2v && %t.O2v

#include <Eigen/Dense>

#include "check.h"
#include <leantape.h>

using Eigen::MatrixXd;
using Eigen::VectorXd;
typedef Eigen::Matrix<double, 3, 5> Mat35;
typedef Eigen::Matrix<double, 5, 1> Vec5;
typedef Eigen::Matrix<double, 3, 1> Vec3;

__attribute__((noinline)) static void matvec(const MatrixXd *M, const VectorXd *v,
                                             VectorXd *out) {
  *out = (*M) * (*v);
}

__attribute__((noinline)) static void matvec_r(const MatrixXd *__restrict M,
                                               const VectorXd *__restrict v,
                                               VectorXd *__restrict out) {
  *out = (*M) * (*v);
}

__attribute__((noinline)) static double sqnorm(const MatrixXd *M, const VectorXd *v) {
  VectorXd o = (*M) * (*v);
  return o.squaredNorm();
}

__attribute__((noinline)) static void matvec_fixed(const Mat35 *M, const Vec5 *v, Vec3 *out) {
  *out = (*M) * (*v);
}

static const int R = 3, C = 5;

static double entry(int i, int j) { return 0.5 + 0.25 * i - 0.125 * j * j; }

template <class Fn> static void check_product(const char *name, Fn f) {
  MatrixXd M(R, C), dM = MatrixXd::Zero(R, C);
  VectorXd v(C), dv = VectorXd::Zero(C), o = VectorXd::Zero(R), u(R);
  for (int i = 0; i < R; i++) {
    u(i) = 1.0 + i;
    for (int j = 0; j < C; j++)
      M(i, j) = entry(i, j);
  }
  for (int j = 0; j < C; j++)
    v(j) = 0.3 * j - 0.4;
  VectorXd du = u;
  f(&M, &dM, &v, &dv, &o, &du);
  VectorXd want_o = M * v, want_dv = M.transpose() * u;
  char what[96];
  for (int i = 0; i < R; i++) {
    snprintf(what, sizeof what, "%s out(%d)", name, i);
    lt_check(what, o(i), want_o(i), 1e-14, 1e-14);
    snprintf(what, sizeof what, "%s dout(%d) consumed", name, i);
    lt_check(what, du(i), 0.0, 0, 0);
    for (int j = 0; j < C; j++) {
      snprintf(what, sizeof what, "%s dM(%d,%d)", name, i, j);
      lt_check(what, dM(i, j), u(i) * v(j), 1e-13, 1e-14);
    }
  }
  for (int j = 0; j < C; j++) {
    snprintf(what, sizeof what, "%s dv(%d)", name, j);
    lt_check(what, dv(j), want_dv(j), 1e-13, 1e-14);
  }
}

int main() {
  check_product("matvec", [](MatrixXd *M, MatrixXd *dM, VectorXd *v, VectorXd *dv,
                             VectorXd *o, VectorXd *du) {
    __enzyme_autodiff((void *)matvec, enzyme_dup, M, dM, enzyme_dup, v, dv,
                      enzyme_dup, o, du);
  });
  check_product("matvec_r", [](MatrixXd *M, MatrixXd *dM, VectorXd *v, VectorXd *dv,
                               VectorXd *o, VectorXd *du) {
    __enzyme_autodiff((void *)matvec_r, enzyme_dup, M, dM, enzyme_dup, v, dv,
                      enzyme_dup, o, du);
  });

  MatrixXd M(R, C), dM = MatrixXd::Zero(R, C);
  VectorXd v(C), dv = VectorXd::Zero(C);
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      M(i, j) = entry(i, j);
  for (int j = 0; j < C; j++)
    v(j) = 0.3 * j - 0.4;
  __enzyme_autodiff((void *)sqnorm, enzyme_dup, &M, &dM, enzyme_dup, &v, &dv);
  VectorXd Mv = M * v, want_dv = 2 * M.transpose() * Mv;
  char what[64];
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      snprintf(what, sizeof what, "sqnorm dM(%d,%d)", i, j);
      lt_check(what, dM(i, j), 2 * Mv(i) * v(j), 1e-13, 1e-14);
    }
  for (int j = 0; j < C; j++) {
    snprintf(what, sizeof what, "sqnorm dv(%d)", j);
    lt_check(what, dv(j), want_dv(j), 1e-13, 1e-14);
  }

  Mat35 F, dF = Mat35::Zero();
  Vec5 w, dw = Vec5::Zero();
  Vec3 fo = Vec3::Zero(), dfo(1.0, -2.0, 0.5), dfo0 = dfo;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++)
      F(i, j) = entry(i, j);
  for (int j = 0; j < C; j++)
    w(j) = 0.3 * j - 0.4;
  __enzyme_autodiff((void *)matvec_fixed, enzyme_dup, &F, &dF, enzyme_dup, &w, &dw,
                    enzyme_dup, &fo, &dfo);
  Vec5 want_dw = F.transpose() * dfo0;
  for (int i = 0; i < R; i++)
    for (int j = 0; j < C; j++) {
      snprintf(what, sizeof what, "fixed dM(%d,%d)", i, j);
      lt_check(what, dF(i, j), dfo0(i) * w(j), 1e-13, 1e-14);
    }
  for (int j = 0; j < C; j++) {
    snprintf(what, sizeof what, "fixed dv(%d)", j);
    lt_check(what, dw(j), want_dw(j), 1e-13, 1e-14);
  }
  return lt_done();
}
