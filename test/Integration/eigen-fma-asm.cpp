// Eigen with FMA (-mavx2 -mfma, as -march=native gives on most machines):
// Eigen 3.4's AVX pmadd is inline assembly, `vfmadd231pd %[a], %[b],
// %[c]`, which stopped every such program at "inline assembly on an
// active value". The canonical clone now computes it as llvm.fma (the
// same single rounding). Products, a dynamic matrix-vector product and
// a float (Packet8f) expression, reverse mode, against central
// differences.
// REQUIRES: eigen, avx2-fma
// RUN: %ltclangxx -O0 -mavx2 -mfma %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 -mavx2 -mfma %eigenflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 -mavx2 -mfma %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O2 -mavx2 -mfma %eigenflags %s -emit-llvm -S -o - | FileCheck %s
// The gradient of `fixed` computes the products with llvm.fma, not the asm:
// CHECK-LABEL: define internal {{.*}}@{{.*}}fixed{{.*}}.lt.grad(
// CHECK-NOT: vfmadd231
// CHECK: llvm.fma.v4f64
// CHECK-NOT: vfmadd231
// CHECK: {{^}$}}

#include <Eigen/Core>
#include <string.h>

#include "check.h"
#include <leantape.h>

using namespace Eigen;

static double fixed(double *x) {
  Map<const Matrix4d> A(x);
  Map<const Vector4d> v(x + 16);
  return (A * v).array().sin().sum() + (A * A).trace();
}

static double dynamic(double *x) {
  Map<const MatrixXd> A(x, 5, 4);
  Map<const VectorXd> v(x + 16, 4);
  VectorXd w = A * v;
  return w.squaredNorm();
}

static double single(double *x) {
  Matrix<float, 8, 1> a, b;
  for (int i = 0; i < 8; i++) {
    a(i) = (float)x[i];
    b(i) = (float)x[i + 8];
  }
  Matrix<float, 8, 1> c = (a.array() * b.array() + a.array()).matrix();
  return (double)c.sum();
}

template <double (*f)(double *)> static void check(const char *what, double tol) {
  double x[20], dx[20] = {0};
  for (int i = 0; i < 20; i++)
    x[i] = 0.1 * i - 0.7;
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  char name[64];
  for (int i = 0; i < 20; i++) {
    double xp[20], xm[20], h = tol > 1e-4 ? 1e-3 : 1e-6;
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    volatile double a = x[i] + h, b = x[i] - h;
    xp[i] = a;
    xm[i] = b;
    double fd = (f(xp) - f(xm)) / (a - b);
    snprintf(name, sizeof name, "%s dx[%d]", what, i);
    lt_check(name, dx[i], fd, tol, tol * 1e-2);
  }
}

int main() {
  check<fixed>("fixed", 1e-6);
  check<dynamic>("dynamic", 1e-6);
  check<single>("single", 1e-3);
  return lt_done();
}
