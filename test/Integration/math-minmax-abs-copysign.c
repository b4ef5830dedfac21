// Reverse-mode derivatives of fmin/fmax (llvm.minnum/maxnum), fminimum,
// fmaximum_num, fabs and copysign. Points avoid the kinks for the finite
// differences; the conventions at the kinks are checked separately:
// min/max ties send the adjoint to the first argument, fabs'(+0) = +1 and
// fabs'(-0) = -1 (the sign of zero, as in Enzyme's fabs_signed_zero test).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#define _GNU_SOURCE /* fminimum, fmaximum_num (C23, glibc >= 2.35) */
#include <leantape.h>
#include <math.h>

#include "check.h"

#define RA 1e-12
#define RF 1e-6

typedef struct {
  double a, b;
} G2;
G2 __enzyme_autodiff2(void *, ...);

static double f_fmin(double a, double b) { return fmin(a, b) * a; }
static double d_fmin_a(double a, double b) {
  return (a < b ? a : 0) + fmin(a, b);
}
static double d_fmin_b(double a, double b) { return b < a ? a : 0; }

static double f_fmax(double a, double b) { return fmax(a, b) * b; }
static double d_fmax_a(double a, double b) { return a > b ? b : 0; }
static double d_fmax_b(double a, double b) {
  return (b > a ? b : 0) + fmax(a, b);
}

static double f_fminimum(double a, double b) { return fminimum(a, b) * 3; }
static double d_fminimum_a(double a, double b) { return a < b ? 3 : 0; }
static double d_fminimum_b(double a, double b) { return b < a ? 3 : 0; }

static double f_fmaxnum(double a, double b) { return fmaximum_num(a, b) * 2; }
static double d_fmaxnum_a(double a, double b) { return a > b ? 2 : 0; }
static double d_fmaxnum_b(double a, double b) { return b > a ? 2 : 0; }

/* copysign(a, b) = +-a; b has no derivative. */
static double f_copysign(double a, double b) { return copysign(a * a + a, b); }
static double d_copysign_a(double a, double b) {
  double s = signbit(a * a + a) == signbit(b) ? 1 : -1;
  return s * (2 * a + 1);
}
static double d_copysign_b(double a, double b) {
  (void)a, (void)b;
  return 0;
}

static double f_fabs(double x) { return fabs(x - 1) * x; }
static double d_fabs(double x) { return (x > 1 ? 1 : -1) * x + fabs(x - 1); }

static double f_fabs0(double x) { return fabs(x); }

#define GRAD2(f, a, b)                                                         \
  do {                                                                         \
    G2 g = __enzyme_autodiff2((void *)f_##f, a, b);                            \
    lt_grad(#f " d/da", a, g.a, d_##f##_a(a, b), lt_fd2(f_##f, a, b, 0), RA,   \
            RF);                                                               \
    lt_grad(#f " d/db", b, g.b, d_##f##_b(a, b), lt_fd2(f_##f, a, b, 1), RA,   \
            RF);                                                               \
  } while (0)

/* (a, b) pairs with a != b, both orders and signs. */
static volatile double ab[][2] = {{0.5, 1.5},   {1.5, 0.5},   {-2.0, 0.75},
                                  {0.75, -2.0}, {-1.1, -3.4}, {3.0, -0.2}};
static volatile double any[] = {-2.5, -0.4, 0.3, 0.8, 1.6, 4.2};
static volatile double ties[] = {-1.5, 0.0, 2.25};

int main(void) {
  for (unsigned i = 0; i < sizeof ab / sizeof ab[0]; i++) {
    double a = ab[i][0], b = ab[i][1];
    GRAD2(fmin, a, b);
    GRAD2(fmax, a, b);
    GRAD2(fminimum, a, b);
    GRAD2(fmaxnum, a, b);
    GRAD2(copysign, a, b);
  }
  for (unsigned i = 0; i < sizeof any / sizeof any[0]; i++) {
    double x = any[i];
    lt_grad("fabs", x, __enzyme_autodiff((void *)f_fabs, enzyme_out, x),
            d_fabs(x), lt_fd(f_fabs, x), RA, RF);
  }
  /* Conventions at the kinks (no finite difference exists there). */
  for (unsigned i = 0; i < sizeof ties / sizeof ties[0]; i++) {
    double t = ties[i];
    G2 g = __enzyme_autodiff2((void *)f_fmaxnum, t, t);
    lt_check("fmaximum_num tie: adjoint to the first", g.a, 2, 0, 0);
    lt_check("fmaximum_num tie: none to the second", g.b, 0, 0, 0);
    g = __enzyme_autodiff2((void *)f_fminimum, enzyme_out, t, enzyme_out, t);
    lt_check("fminimum tie: adjoint to the first", g.a, 3, 0, 0);
    lt_check("fminimum tie: none to the second", g.b, 0, 0, 0);
  }
  lt_check("fabs'(+0) = +1", __enzyme_autodiff((void *)f_fabs0, ties[1]), 1, 0,
           0);
  lt_check("fabs'(-0) = -1", __enzyme_autodiff((void *)f_fabs0, -ties[1]), -1, 0,
           0);
  return lt_done();
}
