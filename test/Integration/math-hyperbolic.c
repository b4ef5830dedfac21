// Reverse-mode derivatives of sinh, cosh and tanh (tanh's rule reuses the
// primal result: 1 - tanh^2).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include <leantape.h>
#include <math.h>

#include "check.h"

#define RA 1e-12
#define RF 1e-6

static double f_sinh(double x) { return sinh(x) * x; }
static double d_sinh(double x) { return cosh(x) * x + sinh(x); }

static double f_cosh(double x) { return cosh(x) + x * x; }
static double d_cosh(double x) { return sinh(x) + 2 * x; }

static double f_tanh(double x) { return tanh(2 * x); }
static double d_tanh(double x) {
  double c = cosh(2 * x);
  return 2 / (c * c);
}

static double f_tanhx(double x) { return tanh(x) * x; }
static double d_tanhx(double x) {
  double c = cosh(x);
  return tanh(x) + x / (c * c);
}

#define GRAD(f, x)                                                             \
  lt_grad(#f, x, __enzyme_autodiff((void *)f_##f, x), d_##f(x),                \
          lt_fd(f_##f, x), RA, RF)
#define GRAD_OUT(f, x)                                                         \
  lt_grad(#f " (enzyme_out)", x,                                               \
          __enzyme_autodiff((void *)f_##f, enzyme_out, x), d_##f(x),           \
          lt_fd(f_##f, x), RA, RF)

static volatile double pts[] = {-3.1, -1.4, -0.2, 0.35, 1.0, 2.6};
/* tanh(2x): |2x| <= 3 keeps 1 - tanh^2 free of cancellation at rtol RA */
static volatile double tpts[] = {-1.4, -0.55, -0.1, 0.3, 0.8, 1.5};

int main(void) {
  for (unsigned i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    double x = pts[i];
    GRAD(sinh, x);
    GRAD_OUT(cosh, x);
    GRAD_OUT(tanhx, x);
  }
  for (unsigned i = 0; i < sizeof tpts / sizeof tpts[0]; i++)
    GRAD(tanh, tpts[i]);
  return lt_done();
}
