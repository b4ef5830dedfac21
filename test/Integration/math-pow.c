// Reverse-mode derivatives of pow (both partials), pow with a constant
// exponent at negative bases, llvm.powi (constant and runtime exponents,
// via __builtin_powi) and the runtime helper __powidf2.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include <leantape.h>
#include <math.h>

#include "check.h"

#define RA 1e-12
#define RF 1e-6

typedef struct {
  double a, b;
} G2;
G2 __enzyme_autodiff2(void *, ...);
double __powidf2(double, int); /* compiler runtime (libgcc/compiler-rt) */

__attribute__((noinline)) static double f_pow(double x, double e) {
  return pow(x, e);
}
static double d_pow_x(double x, double e) {
  return e == 0 ? 0 : e * pow(x, e - 1);
}
/* The rule's convention at x == 0: the log term counts as 0, not 0*-inf. */
static double d_pow_e(double x, double e) {
  return x == 0 ? 0 : pow(x, e) * log(x);
}

__attribute__((noinline)) static double f_cube(double x) {
  return pow(x, 3.0) * 0.5;
}
static double d_cube(double x) { return 1.5 * x * x; }

__attribute__((noinline)) static double f_powi3(double x) {
  return __builtin_powi(x, 3);
}
static double d_powi3(double x) { return 3 * x * x; }

__attribute__((noinline)) static double f_powim2(double x) {
  return __builtin_powi(x, -2) + x;
}
static double d_powim2(double x) { return -2 / (x * x * x) + 1; }

__attribute__((noinline)) static double f_powidf2(double x) {
  return __powidf2(x, 5);
}
static double d_powidf2(double x) { return 5 * x * x * x * x; }

__attribute__((noinline)) static double f_powin(double x, int n) {
  return __builtin_powi(x, n);
}
static double d_powin(double x, int n) {
  return n == 0 ? 0 : n * __builtin_powi(x, n - 1);
}
static int cur_n; /* for the finite difference of f_powin */
static double f_powin_cur(double x) { return f_powin(x, cur_n); }

#define GRAD(f, x)                                                             \
  lt_grad(#f, x, __enzyme_autodiff((void *)f_##f, x), d_##f(x),                \
          lt_fd(f_##f, x), RA, RF)

/* (x, e) with x >= 0; (0, 2) exercises the x == 0 guard of d/de. */
static volatile double xe[][2] = {{0.5, 1.7},  {2.0, -0.5}, {3.3, 2.5},
                                  {0.9, -2.2}, {1.0, 3.0},  {0.0, 2.0}};
static volatile double any[] = {-2.1, -0.8, -0.3, 0.45, 1.25, 3.0};
static volatile int ns[] = {0, 1, 2, 5, -1, -3};

int main(void) {
  for (unsigned i = 0; i < sizeof xe / sizeof xe[0]; i++) {
    double x = xe[i][0], e = xe[i][1];
    G2 g = __enzyme_autodiff2((void *)f_pow, x, e);
    if (x == 0) /* one-sided domain: no central difference */
      lt_check("pow d/dx at 0", g.a, d_pow_x(x, e), RA, 0);
    else
      lt_grad("pow d/dx", x, g.a, d_pow_x(x, e), lt_fd2(f_pow, x, e, 0), RA,
              RF);
    lt_grad("pow d/de", e, g.b, d_pow_e(x, e), lt_fd2(f_pow, x, e, 1), RA, RF);
    g = __enzyme_autodiff2((void *)f_pow, enzyme_out, x, enzyme_out, e);
    lt_check("pow d/dx (enzyme_out)", g.a, d_pow_x(x, e), RA, 0);
    lt_check("pow d/de (enzyme_out)", g.b, d_pow_e(x, e), RA, 0);
    double dx =
        __enzyme_autodiff((void *)f_pow, enzyme_out, x, enzyme_const, e);
    lt_check("pow d/dx (exponent enzyme_const)", dx, d_pow_x(x, e), RA, 0);
  }
  for (unsigned i = 0; i < sizeof any / sizeof any[0]; i++) {
    double x = any[i];
    GRAD(cube, x);
    GRAD(powi3, x);
    GRAD(powim2, x);
    GRAD(powidf2, x);
    for (unsigned j = 0; j < sizeof ns / sizeof ns[0]; j++) {
      int n = ns[j];
      cur_n = n;
      double d =
          __enzyme_autodiff((void *)f_powin, enzyme_out, x, enzyme_const, n);
      lt_grad("powi(x, n)", x, d, d_powin(x, n), lt_fd(f_powin_cur, x), RA, RF);
    }
  }
  return lt_done();
}
