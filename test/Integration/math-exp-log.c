// Reverse-mode derivatives of exp, exp2, exp10, expm1, log, log2, log10,
// log1p and sqrt, checked against the analytic derivative and a central
// finite difference at several points.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#define _GNU_SOURCE /* exp10 */
#include <leantape.h>
#include <math.h>

#include "check.h"

#define RA 1e-12 /* AD vs analytic */
#define RF 1e-6  /* vs finite difference */
#define LN2 0.69314718055994530942
#define LN10 2.30258509299404568402

__attribute__((noinline)) static double f_exp(double x) { return exp(x) * x; }
static double d_exp(double x) { return exp(x) * (x + 1); }

__attribute__((noinline)) static double f_exp2(double x) {
  return exp2(0.5 * x);
}
static double d_exp2(double x) { return 0.5 * LN2 * exp2(0.5 * x); }

__attribute__((noinline)) static double f_exp10(double x) {
  return exp10(x) - x;
}
static double d_exp10(double x) { return LN10 * exp10(x) - 1; }

__attribute__((noinline)) static double f_expm1(double x) {
  return expm1(x) * x;
}
static double d_expm1(double x) { return exp(x) * x + expm1(x); }

__attribute__((noinline)) static double f_log(double x) { return log(x) * x; }
static double d_log(double x) { return log(x) + 1; }

__attribute__((noinline)) static double f_log2(double x) {
  return log2(x * x + 1);
}
static double d_log2(double x) { return 2 * x / ((x * x + 1) * LN2); }

__attribute__((noinline)) static double f_log10(double x) {
  return log10(x) * 3;
}
static double d_log10(double x) { return 3 / (x * LN10); }

__attribute__((noinline)) static double f_log1p(double x) {
  return log1p(x) * 2;
}
static double d_log1p(double x) { return 2 / (1 + x); }

__attribute__((noinline)) static double f_sqrt(double x) {
  return sqrt(x * x + 1);
}
static double d_sqrt(double x) { return x / sqrt(x * x + 1); }

__attribute__((noinline)) static double f_sqrt_pos(double x) {
  return sqrt(x) * x;
}
static double d_sqrt_pos(double x) { return 1.5 * sqrt(x); }

/* Default marker (a bare double is enzyme_out) and the explicit form. */
#define GRAD(f, x)                                                             \
  lt_grad(#f, x, __enzyme_autodiff((void *)f_##f, x), d_##f(x),                \
          lt_fd(f_##f, x), RA, RF)
#define GRAD_OUT(f, x)                                                         \
  lt_grad(#f " (enzyme_out)", x,                                               \
          __enzyme_autodiff((void *)f_##f, enzyme_out, x), d_##f(x),           \
          lt_fd(f_##f, x), RA, RF)

static volatile double any[] = {-2.5, -0.75, -0.1, 0.3, 1.2, 2.9};
static volatile double pos[] = {0.05, 0.4, 1.0, 2.7, 13.5};
static volatile double gt_m1[] = {-0.6, -0.05, 0.2, 1.5, 7.0};

int main(void) {
  for (unsigned i = 0; i < sizeof any / sizeof any[0]; i++) {
    double x = any[i];
    GRAD(exp, x);
    GRAD(exp2, x);
    GRAD_OUT(expm1, x);
    GRAD(log2, x);
    GRAD(sqrt, x);
    if (fabs(x) < 1.5)
      GRAD(exp10, x);
  }
  for (unsigned i = 0; i < sizeof pos / sizeof pos[0]; i++) {
    double x = pos[i];
    GRAD(log, x);
    GRAD_OUT(log10, x);
    GRAD(sqrt_pos, x);
  }
  for (unsigned i = 0; i < sizeof gt_m1 / sizeof gt_m1[0]; i++)
    GRAD(log1p, gt_m1[i]);
  return lt_done();
}
