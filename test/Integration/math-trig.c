// Reverse-mode derivatives of sin, cos and tan (alone, in products and
// composed), against the analytic derivative and a finite difference.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include <leantape.h>
#include <math.h>

#include "check.h"

#define RA 1e-12
#define RF 1e-6

static double f_sin(double x) { return sin(x) * x; }
static double d_sin(double x) { return cos(x) * x + sin(x); }

static double f_cos(double x) { return cos(2 * x) + x; }
static double d_cos(double x) { return 1 - 2 * sin(2 * x); }

static double f_tan(double x) { return tan(x) * x; }
static double d_tan(double x) {
  double c = cos(x);
  return x / (c * c) + tan(x);
}

static double f_sincos(double x) { return sin(cos(x)); }
static double d_sincos(double x) { return -cos(cos(x)) * sin(x); }

static double f_tan2(double x) { return tan(x) * tan(x); }
static double d_tan2(double x) {
  double c = cos(x);
  return 2 * tan(x) / (c * c);
}

#define GRAD(f, x)                                                             \
  lt_grad(#f, x, __enzyme_autodiff((void *)f_##f, x), d_##f(x),                \
          lt_fd(f_##f, x), RA, RF)
#define GRAD_OUT(f, x)                                                         \
  lt_grad(#f " (enzyme_out)", x,                                               \
          __enzyme_autodiff((void *)f_##f, enzyme_out, x), d_##f(x),           \
          lt_fd(f_##f, x), RA, RF)

static volatile double pts[] = {-2.8, -1.1, -0.4, 0.25, 0.9, 2.2, 4.0};
/* tan: inside (-pi/2, pi/2) and away from the poles */
static volatile double tpts[] = {-1.3, -0.6, -0.15, 0.35, 1.0, 1.4};

int main(void) {
  for (unsigned i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    double x = pts[i];
    GRAD(sin, x);
    GRAD_OUT(cos, x);
    GRAD(sincos, x);
  }
  for (unsigned i = 0; i < sizeof tpts / sizeof tpts[0]; i++) {
    double x = tpts[i];
    GRAD(tan, x);
    GRAD_OUT(tan2, x);
  }
  return lt_done();
}
