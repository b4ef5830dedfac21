// Pointers deep inside nested types. Eigen's product evaluator holds the
// lhs Map's data pointer 11 struct types down (evaluator > unary_evaluator
// > evaluator_wrapper_base > ... > product_evaluator > Map > MapBase); the
// memcpy that fills it at -O0 was given an empty layout because the type
// walk stopped at depth 8, the shadow pointer was never copied, and the
// lhs's adjoint went into a null shadow: dy = 0 for M = (u v^T).array()
// .matrix(), silently (found by the --eigen random tester, seed 35), and a
// segfault in c * cos(A.block()) * B (seeds 6, 12, 14). A plain C struct
// nested 12 deep, copied by assignment, takes the same path.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 %eigenflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %eigenflags %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O2 -ffast-math -fno-vectorize -fno-slp-vectorize %eigenflags %s -o %t.O2f && %t.O2f

#include <Eigen/Core>
#include <string.h>

#include "check.h"
#include <leantape.h>

using namespace Eigen;

// M = (y[2..3] y[5..7]^T).array().matrix(): a lazy outer product whose
// evaluator copies the Maps
static double outer(double *y) {
  MatrixXd M = (Map<const Vector2d>(y + 2) * Map<const Vector3d>(y + 5).transpose())
                   .array()
                   .matrix();
  return (M.array() * M.array()).sum();
}

// the same through a coefficient-wise product with an overlapping Map
static double outer_mixed(double *y) {
  MatrixXd M = (Map<const Matrix<double, 2, 3>>(y + 1).array() *
                (Map<const Vector2d>(y + 2) * Map<const Vector3d>(y + 5).transpose()).array())
                   .matrix();
  return M.sum();
}

// c * cos(block) * B: a Matrix<4,3> assigned from a scaled expression
static double scaled(double *y) {
  Matrix4d A;
  for (int q = 0; q < 16; q++)
    A(q) = tanh(y[q % 8] * y[(q + 3) % 8]);
  Matrix<double, 3, 4> B = Map<const Vector3d>(y) * Map<const Vector4d>(y + 4).transpose();
  return (0.333 * A.block<4, 3>(0, 1).array().cos().matrix() * B).sum();
}

// twelve nested structs around a pointer and some padding bytes
struct L0 { double *p; char pad[2]; };
struct L1 { L0 a; };
struct L2 { L1 a; };
struct L3 { L2 a; };
struct L4 { L3 a; };
struct L5 { L4 a; };
struct L6 { L5 a; };
struct L7 { L6 a; };
struct L8 { L7 a; };
struct L9 { L8 a; };
struct L10 { L9 a; };
struct L11 { L10 a; char tag; };

__attribute__((noinline)) static double use(const L11 *s, int n) {
  double t = 0;
  for (int i = 0; i < n; i++)
    t += sin(s->a.a.a.a.a.a.a.a.a.a.a.p[i]) * (i + 1);
  return t;
}

static double nested(double *y) {
  L0 leaf;
  leaf.p = y + 1;
  L11 s, t;
  memcpy(&s.a.a.a.a.a.a.a.a.a.a.a, &leaf, 10); // 10 bytes: the pointer and the padding
  s.tag = 1;
  t = s; // a copy of the whole at -O0
  return use(&t, 6) * y[0];
}

template <double (*f)(double *)> static void check(const char *what) {
  double y[8], dy[8] = {0};
  for (int i = 0; i < 8; i++)
    y[i] = 0.7 - 0.13 * i;
  __enzyme_autodiff((void *)f, enzyme_dup, y, dy);
  for (int i = 0; i < 8; i++) {
    double yp[8], ym[8];
    memcpy(yp, y, sizeof yp);
    memcpy(ym, y, sizeof ym);
    double h = 1e-6;
    volatile double a = y[i] + h, b = y[i] - h;
    yp[i] = a;
    ym[i] = b;
    double fd = (f(yp) - f(ym)) / (a - b);
    char name[64];
    snprintf(name, sizeof name, "%s dy[%d]", what, i);
    lt_check(name, dy[i], fd, 1e-6, 1e-8);
  }
}

int main() {
  check<outer>("outer");
  check<outer_mixed>("outer_mixed");
  check<scaled>("scaled");
  check<nested>("nested");
  return lt_done();
}
