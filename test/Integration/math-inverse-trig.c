// Reverse-mode derivatives of asin, acos, atan and the two-argument
// atan2 (both partials in one call, in all four quadrants).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include <leantape.h>
#include <math.h>

#include "check.h"

#define RA 1e-12
#define RF 1e-6

typedef struct {
  double a, b;
} G2;
G2 __enzyme_autodiff2(void *, ...);

__attribute__((noinline)) static double f_asin(double x) { return asin(x); }
static double d_asin(double x) { return 1 / sqrt(1 - x * x); }

__attribute__((noinline)) static double f_acos(double x) {
  return acos(0.5 * x) * x;
}
static double d_acos(double x) {
  return acos(0.5 * x) - 0.5 * x / sqrt(1 - 0.25 * x * x);
}

__attribute__((noinline)) static double f_atan(double x) { return atan(x) * x; }
static double d_atan(double x) { return atan(x) + x / (1 + x * x); }

__attribute__((noinline)) static double f_atan2(double y, double x) {
  return atan2(y, x);
}
static double d_atan2_y(double y, double x) { return x / (x * x + y * y); }
static double d_atan2_x(double y, double x) { return -y / (x * x + y * y); }

__attribute__((noinline)) static double f_atan2sq(double y, double x) {
  return atan2(y * y, x) * x;
}
static double d_atan2sq_y(double y, double x) {
  return 2 * y * x * x / (x * x + y * y * y * y);
}
static double d_atan2sq_x(double y, double x) {
  return atan2(y * y, x) - x * y * y / (x * x + y * y * y * y);
}

#define GRAD(f, x)                                                             \
  lt_grad(#f, x, __enzyme_autodiff((void *)f_##f, x), d_##f(x),                \
          lt_fd(f_##f, x), RA, RF)

static volatile double unit[] = {-0.93, -0.5, -0.1, 0.2, 0.65, 0.97};
static volatile double two[] = {-1.8, -0.9, 0.3, 1.1, 1.9};
static volatile double any[] = {-7.5, -1.2, -0.3, 0.4, 2.0, 15.0};
/* (y, x) in every quadrant, away from the branch cut y = 0, x < 0 */
static volatile double yx[][2] = {
    {0.5, 1.5}, {2.0, -0.7}, {-1.3, -2.2}, {-0.4, 0.9}, {3.0, 0.1}};

int main(void) {
  for (unsigned i = 0; i < sizeof unit / sizeof unit[0]; i++)
    GRAD(asin, unit[i]);
  for (unsigned i = 0; i < sizeof two / sizeof two[0]; i++)
    GRAD(acos, two[i]);
  for (unsigned i = 0; i < sizeof any / sizeof any[0]; i++)
    GRAD(atan, any[i]);
  for (unsigned i = 0; i < sizeof yx / sizeof yx[0]; i++) {
    double y = yx[i][0], x = yx[i][1];
    G2 g = __enzyme_autodiff2((void *)f_atan2, y, x);
    lt_grad("atan2 d/dy", y, g.a, d_atan2_y(y, x), lt_fd2(f_atan2, y, x, 0), RA,
            RF);
    lt_grad("atan2 d/dx", x, g.b, d_atan2_x(y, x), lt_fd2(f_atan2, y, x, 1), RA,
            RF);
    g = __enzyme_autodiff2((void *)f_atan2sq, enzyme_out, y, enzyme_out, x);
    lt_grad("atan2(y*y,x)*x d/dy", y, g.a, d_atan2sq_y(y, x),
            lt_fd2(f_atan2sq, y, x, 0), RA, RF);
    lt_grad("atan2(y*y,x)*x d/dx", x, g.b, d_atan2sq_x(y, x),
            lt_fd2(f_atan2sq, y, x, 1), RA, RF);
  }
  return lt_done();
}
