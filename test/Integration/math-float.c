// Reverse-mode derivatives of the float (f-suffixed) libm functions and
// the f32 intrinsics they become. The gradient entry points are declared
// with float prototypes (no variadic promotion to double); checks use
// float tolerances against analytic derivatives computed in double.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include <leantape.h>
#include <math.h>

#include "check.h"

#define RA 1e-4 /* float AD vs analytic in double */
#define RF 1e-3 /* float finite difference */
#define LN2 0.69314718055994530942
#define LN10 2.30258509299404568402
#define TWO_SQRTPI 1.12837916709551257390

float __enzyme_autodiff_f(void *, float);
float __enzyme_autodiff_fo(void *, int, float);
float __enzyme_autodiff_f2(void *, int, float, int, float);

#define F1(name, expr, dexpr)                                                  \
  __attribute__((noinline)) static float f_##name(float x) { return expr; }    \
  static double d_##name(double x) { return dexpr; }
F1(sin, sinf(x) * x, cos(x) * x + sin(x))
F1(cos, cosf(x), -sin(x))
F1(tan, tanf(x), 1 / (cos(x) * cos(x)))
F1(asin, asinf(0.5f * x), 0.5 / sqrt(1 - 0.25 * x * x))
F1(acos, acosf(0.5f * x), -0.5 / sqrt(1 - 0.25 * x * x))
F1(atan, atanf(x), 1 / (1 + x * x))
F1(sinh, sinhf(x), cosh(x))
F1(cosh, coshf(x), sinh(x))
F1(tanh, tanhf(x), 1 / (cosh(x) * cosh(x)))
F1(exp, expf(x) * x, exp(x) * (x + 1))
F1(exp2, exp2f(x), LN2 *exp2(x))
F1(expm1, expm1f(x), exp(x))
F1(log, logf(x *x + 1), 2 * x / (x * x + 1))
F1(log2, log2f(x *x + 1), 2 * x / ((x * x + 1) * LN2))
F1(log10, log10f(x *x + 1), 2 * x / ((x * x + 1) * LN10))
F1(log1p, log1pf(x *x), 2 * x / (1 + x * x))
F1(sqrt, sqrtf(x *x + 1), x / sqrt(x * x + 1))
F1(cbrt, cbrtf(x), 1 / (3 * cbrt(x) * cbrt(x)))
F1(erf, erff(x), TWO_SQRTPI *exp(-x *x))
F1(erfc, erfcf(x), -TWO_SQRTPI *exp(-x *x))
F1(fabs, fabsf(x) * 3, x > 0 ? 3 : -3)
F1(powi, __builtin_powif(x, 3), 3 * x * x)

#define F2(name, expr)                                                         \
  __attribute__((noinline)) static float f_##name(float a, float b) {          \
    return expr;                                                               \
  }
F2(pow, powf(a, b))
F2(atan2, atan2f(a, b))
F2(hypot, hypotf(a, b))
F2(fmin, fminf(a, b) * a)
F2(fmax, fmaxf(a, b) * b)
F2(copysign, copysignf(a, b))
F2(fma, fmaf(a, b, a))

#define GRAD(f, x)                                                             \
  lt_grad(#f "f", x, __enzyme_autodiff_f((void *)f_##f, x), d_##f(x),          \
          lt_fdf(f_##f, x), RA, RF)
#define GRAD_OUT(f, x)                                                         \
  lt_grad(#f "f (enzyme_out)", x,                                              \
          __enzyme_autodiff_fo((void *)f_##f, enzyme_out, x), d_##f(x),        \
          lt_fdf(f_##f, x), RA, RF)
/* Partial with respect to a, then b, of a two-float function. */
#define GRAD2(f, a, b, da, db)                                                 \
  do {                                                                         \
    lt_grad(                                                                   \
        #f "f d/da", a,                                                        \
        __enzyme_autodiff_f2((void *)f_##f, enzyme_out, a, enzyme_const, b),   \
        da, lt_fdf2(f_##f, a, b, 0), RA, RF);                                  \
    lt_grad(                                                                   \
        #f "f d/db", b,                                                        \
        __enzyme_autodiff_f2((void *)f_##f, enzyme_const, a, enzyme_out, b),   \
        db, lt_fdf2(f_##f, a, b, 1), RA, RF);                                  \
  } while (0)

static volatile float pts[] = {-1.3f, -0.45f, 0.3f, 0.85f, 1.2f};
static volatile float ab[][2] = {
    {0.5f, 1.5f}, {1.75f, -0.5f}, {2.25f, 0.8f}, {0.6f, -1.25f}};

int main(void) {
  for (unsigned i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    float x = pts[i];
    GRAD(sin, x);
    GRAD_OUT(cos, x);
    GRAD(tan, x);
    GRAD(asin, x);
    GRAD_OUT(acos, x);
    GRAD(atan, x);
    GRAD(sinh, x);
    GRAD(cosh, x);
    GRAD_OUT(tanh, x);
    GRAD(exp, x);
    GRAD(exp2, x);
    GRAD(expm1, x);
    GRAD(log, x);
    GRAD_OUT(log2, x);
    GRAD(log10, x);
    GRAD(log1p, x);
    GRAD(sqrt, x);
    GRAD(cbrt, x);
    GRAD(erf, x);
    GRAD_OUT(erfc, x);
    GRAD(fabs, x);
    GRAD(powi, x);
  }
  for (unsigned i = 0; i < sizeof ab / sizeof ab[0]; i++) {
    float a = ab[i][0], b = ab[i][1];
    double ad = a, bd = b, r = ad * ad + bd * bd, h = sqrt(r);
    if (a > 0)
      GRAD2(pow, a, b, bd * pow(ad, bd - 1), pow(ad, bd) * log(ad));
    GRAD2(atan2, a, b, bd / r, -ad / r);
    GRAD2(hypot, a, b, ad / h, bd / h);
    GRAD2(fmin, a, b, (a < b ? ad : 0) + fmin(ad, bd), b < a ? ad : 0);
    GRAD2(fmax, a, b, a > b ? bd : 0, (b > a ? bd : 0) + fmax(ad, bd));
    GRAD2(copysign, a, b, (signbit(a) == signbit(b)) ? 1 : -1, 0);
    GRAD2(fma, a, b, bd + 1, ad);
  }
  return lt_done();
}
