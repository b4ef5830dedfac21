// Reverse-mode derivatives of fma (three gradients, returned through sret
// on x86-64), llvm.fmuladd (from a contracted a*b + c), hypot, cbrt, erf
// and erfc.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include <leantape.h>
#include <math.h>

#include "check.h"

#define RA 1e-12
#define RF 1e-6
#define TWO_SQRTPI 1.12837916709551257390 /* 2/sqrt(pi) */

typedef struct {
  double a, b;
} G2;
typedef struct {
  double a, b, c;
} G3;
G2 __enzyme_autodiff2(void *, ...);
G3 __enzyme_autodiff3(void *, ...);

__attribute__((noinline)) static double f_fma(double a, double b, double c) {
  return fma(a, b, c) * c;
}
/* clang contracts this into llvm.fmuladd(a, b, c * c) (-ffp-contract=on) */
__attribute__((noinline)) static double f_fmuladd(double a, double b,
                                                  double c) {
  return a * b + c * c;
}

__attribute__((noinline)) static double f_hypot(double a, double b) {
  return hypot(a, b);
}

__attribute__((noinline)) static double f_cbrt(double x) { return cbrt(x) * x; }
static double d_cbrt(double x) { return 4.0 / 3.0 * cbrt(x); }

__attribute__((noinline)) static double f_erf(double x) { return erf(x); }
static double d_erf(double x) { return TWO_SQRTPI * exp(-x * x); }

__attribute__((noinline)) static double f_erfc(double x) { return erfc(x) * x; }
static double d_erfc(double x) {
  return erfc(x) - x * TWO_SQRTPI * exp(-x * x);
}

#define GRAD(f, x)                                                             \
  lt_grad(#f, x, __enzyme_autodiff((void *)f_##f, x), d_##f(x),                \
          lt_fd(f_##f, x), RA, RF)

static volatile double abc[][3] = {
    {0.5, -1.25, 2.0}, {-3.0, 0.4, -0.7}, {1.5, 2.5, 0.3}, {-0.2, -0.9, -1.6}};
static volatile double ab[][2] = {
    {3.0, 4.0}, {-1.2, 0.5}, {0.01, -2.0}, {-7.5, -7.5}, {1e-3, 2e-3}};
static volatile double any[] = {-8.0, -1.3, -0.2, 0.05, 0.9, 2.7};
static volatile double erfpts[] = {-2.2, -0.6, 0.0, 0.35, 1.1, 2.5};

int main(void) {
  for (unsigned i = 0; i < sizeof abc / sizeof abc[0]; i++) {
    double a = abc[i][0], b = abc[i][1], c = abc[i][2];
    G3 g = __enzyme_autodiff3((void *)f_fma, a, b, c);
    lt_grad("fma d/da", a, g.a, b * c, lt_fd3(f_fma, a, b, c, 0), RA, RF);
    lt_grad("fma d/db", b, g.b, a * c, lt_fd3(f_fma, a, b, c, 1), RA, RF);
    lt_grad("fma d/dc", c, g.c, fma(a, b, c) + c, lt_fd3(f_fma, a, b, c, 2), RA,
            RF);
    g = __enzyme_autodiff3((void *)f_fmuladd, enzyme_out, a, enzyme_out, b,
                           enzyme_out, c);
    lt_grad("fmuladd d/da", a, g.a, b, lt_fd3(f_fmuladd, a, b, c, 0), RA, RF);
    lt_grad("fmuladd d/db", b, g.b, a, lt_fd3(f_fmuladd, a, b, c, 1), RA, RF);
    lt_grad("fmuladd d/dc", c, g.c, 2 * c, lt_fd3(f_fmuladd, a, b, c, 2), RA,
            RF);
  }
  for (unsigned i = 0; i < sizeof ab / sizeof ab[0]; i++) {
    double a = ab[i][0], b = ab[i][1], h = hypot(a, b);
    G2 g = __enzyme_autodiff2((void *)f_hypot, a, b);
    lt_grad("hypot d/da", a, g.a, a / h, lt_fd2(f_hypot, a, b, 0), RA, RF);
    lt_grad("hypot d/db", b, g.b, b / h, lt_fd2(f_hypot, a, b, 1), RA, RF);
  }
  for (unsigned i = 0; i < sizeof any / sizeof any[0]; i++)
    GRAD(cbrt, any[i]);
  for (unsigned i = 0; i < sizeof erfpts / sizeof erfpts[0]; i++) {
    double x = erfpts[i];
    GRAD(erf, x);
    lt_grad("erfc (enzyme_out)", x,
            __enzyme_autodiff((void *)f_erfc, enzyme_out, x), d_erfc(x),
            lt_fd(f_erfc, x), RA, RF);
  }
  return lt_done();
}
