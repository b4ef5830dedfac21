// Forward mode of functions that return a struct of doubles. A small one
// ({double, double}) comes back in registers, and its tangent too: a struct
// of the members' tangents (width 1), or one such struct per direction
// (enzyme_width 2). A larger one (three doubles) is returned through a
// hidden sret pointer; Enzyme's convention is that the caller does not pass
// that pointer: __enzyme_fwddiff((void *)f, x, dx) declared to return the
// struct gets the struct of tangents through its own sret (Enzyme's
// ForwardModeVector tests differentiate a std::array<double, 3> result
// this way), at width 1 and (one struct per direction) width 2; with
// enzyme_primal_return the result comes first, then the tangent.
// Tangents against the analytic derivative and central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <math.h>

extern int enzyme_width, enzyme_primal_return;
typedef struct {
  double a, b;
} S2;
typedef struct {
  double a, b, c;
} S3;
typedef struct {
  S2 v[2];
} S2x2;
typedef struct {
  S3 v[2];
} S3x2;
S2 __enzyme_fwddiff_s2(void *, ...);
S2x2 __enzyme_fwddiff_s2x2(void *, ...);
S3 __enzyme_fwddiff_s3(void *, ...);
S3x2 __enzyme_fwddiff_s3x2(void *, ...);

S2 two(double x, double y) {
  S2 r = {x * y, sin(x) + y * y};
  return r;
}
S3 three(double x, double y) {
  S3 r = {x * x * y, sin(x * y), exp(y) - x};
  return r;
}
static double X = 0.6, Y = -1.1;
static double two_a(double t) { return two(X + t, Y + 2 * t).a; }
static double two_b(double t) { return two(X + t, Y + 2 * t).b; }
static double three_a(double t) { return three(X + t, Y + 2 * t).a; }
static double three_b(double t) { return three(X + t, Y + 2 * t).b; }
static double three_c(double t) { return three(X + t, Y + 2 * t).c; }

int main(void) {
  double x = lt_vd(X), y = lt_vd(Y);
  /* direction (1, 2) */
  S2 t2 = __enzyme_fwddiff_s2((void *)two, x, 1.0, y, 2.0);
  lt_grad("two.a along (1, 2)", x, t2.a, y + 2 * x, lt_fd(two_a, 0), 1e-12, 1e-6);
  lt_grad("two.b along (1, 2)", x, t2.b, cos(x) + 4 * y, lt_fd(two_b, 0), 1e-12, 1e-6);
  S2x2 w2 = __enzyme_fwddiff_s2x2((void *)two, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
  lt_check("two width 2: d.a/dx", w2.v[0].a, y, 1e-12, 0);
  lt_check("two width 2: d.b/dx", w2.v[0].b, cos(x), 1e-12, 0);
  lt_check("two width 2: d.a/dy", w2.v[1].a, x, 1e-12, 0);
  lt_check("two width 2: d.b/dy", w2.v[1].b, 2 * y, 1e-12, 0);

  S3 t3 = __enzyme_fwddiff_s3((void *)three, x, 1.0, y, 2.0);
  lt_grad("three.a along (1, 2) (sret)", x, t3.a, 2 * x * y + 2 * x * x, lt_fd(three_a, 0),
          1e-12, 1e-6);
  lt_grad("three.b along (1, 2) (sret)", x, t3.b, cos(x * y) * (y + 2 * x), lt_fd(three_b, 0),
          1e-12, 1e-6);
  lt_grad("three.c along (1, 2) (sret)", x, t3.c, 2 * exp(y) - 1, lt_fd(three_c, 0), 1e-12,
          1e-6);
  S3x2 w3 = __enzyme_fwddiff_s3x2((void *)three, enzyme_width, 2, x, 1.0, 0.0, y, 0.0, 1.0);
  lt_check("three width 2: d.a/dx", w3.v[0].a, 2 * x * y, 1e-12, 0);
  lt_check("three width 2: d.b/dx", w3.v[0].b, cos(x * y) * y, 1e-12, 0);
  lt_check("three width 2: d.c/dx", w3.v[0].c, -1, 1e-12, 0);
  lt_check("three width 2: d.a/dy", w3.v[1].a, x * x, 1e-12, 0);
  lt_check("three width 2: d.b/dy", w3.v[1].b, cos(x * y) * x, 1e-12, 0);
  lt_check("three width 2: d.c/dy", w3.v[1].c, exp(y), 1e-12, 0);
  S3x2 p3 = __enzyme_fwddiff_s3x2((void *)three, enzyme_primal_return, x, 1.0, y, 0.0);
  lt_check("three primal_return: result.a", p3.v[0].a, x * x * y, 1e-14, 0);
  lt_check("three primal_return: result.b", p3.v[0].b, sin(x * y), 1e-14, 0);
  lt_check("three primal_return: result.c", p3.v[0].c, exp(y) - x, 1e-14, 0);
  lt_check("three primal_return: d.a/dx", p3.v[1].a, 2 * x * y, 1e-12, 0);
  lt_check("three primal_return: d.b/dx", p3.v[1].b, cos(x * y) * y, 1e-12, 0);
  lt_check("three primal_return: d.c/dx", p3.v[1].c, -1, 1e-12, 0);
  return lt_done();
}
