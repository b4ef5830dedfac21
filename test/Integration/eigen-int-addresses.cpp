// Eigen moving addresses through integers. At -O1 the quadratic form
// v^T (a b^T) v builds a Product object whose first slot holds the
// address of the local vector v as an i64 (ptrtoint) that Eigen later
// loads as a pointer: the slot's shadow stayed zero and the gradient
// segfaulted (--eigen seed 3). Under -mavx2 a VectorXd's storage comes
// from handmade_aligned_malloc, which rounds the address up to 32 bytes
// through an integer: it was rejected ("its shadow cannot be formed").
// Reverse and forward mode against central differences.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 %eigenflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O1 -mavx2 %eigenflags %s -o %t.O1v && %t.O1v
// RUN: %ltclangxx -O3 -mavx2 %eigenflags %s -o %t.O3v && %t.O3v
// RUN: %ltclangxx -O1 -ffast-math -fno-vectorize -fno-slp-vectorize -fno-unroll-loops %eigenflags %s -o %t.O1f && %t.O1f

#include <Eigen/Core>
#include <string.h>

#include "check.h"
#include <leantape.h>

extern "C" double __enzyme_fwddiff(void *, ...);

using namespace Eigen;

static double quadform(double *x) {
  Vector4d v = Map<const Vector4d>(x + 3).array().tanh().matrix();
  return 0.1 * tanh((v.transpose() * (Map<const Vector4d>(x) * Map<const Vector4d>(x + 1).transpose()) * v).value());
}

static double dynamic(double *x) {
  VectorXd v = Map<const VectorXd>(x, 8).array().sin().matrix();
  MatrixXd M = v * v.transpose();
  return v.squaredNorm() + M.array().cos().sum();
}

template <double (*f)(double *)> static void check(const char *what) {
  double x[8], dx[8] = {0}, tx[8], dir = 0;
  for (int i = 0; i < 8; i++) {
    x[i] = 0.1 * i - 0.3;
    tx[i] = 1.0 - 0.1 * i;
  }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double fwd = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx);
  char name[64];
  for (int i = 0; i < 8; i++) {
    double xp[8], xm[8];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    volatile double a = x[i] + 1e-6, b = x[i] - 1e-6;
    xp[i] = a;
    xm[i] = b;
    double fd = (f(xp) - f(xm)) / (a - b);
    snprintf(name, sizeof name, "%s dx[%d]", what, i);
    lt_check(name, dx[i], fd, 1e-6, 1e-8);
    dir += fd * tx[i];
  }
  snprintf(name, sizeof name, "%s forward", what);
  lt_check(name, fwd, dir, 1e-6, 1e-8);
}

int main() {
  check<quadform>("quadform");
  check<dynamic>("dynamic");
  return lt_done();
}
