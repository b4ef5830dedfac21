// Forward mode (__enzyme_fwddiff) through every math function of the rule
// table: sqrt exp exp2 expm1 log log2 log10 log1p pow powi (__builtin_powi,
// constant and runtime exponents) sin cos tan asin acos atan atan2 sinh cosh
// tanh asinh acosh atanh fabs fmin fmax copysign fma hypot cbrt erf erfc
// fmod ldexp frexp floor ceil round trunc, the float functions sinf expf
// sqrtf (declared with float prototypes, no variadic promotion), and
// _Complex double multiply and divide (__muldc3/__divdc3), with a real and
// a complex result. The tangents use the same rule table as reverse mode
// (partials at dy = 1), so each one is checked against its analytic
// derivative and a central finite difference, with a unit tangent
// (unmarked), a scaled tangent (enzyme_dup) and, for the one-argument
// functions, with enzyme_width 2 (the partial splatted over <2 x double>).
// Points are away from kinks (fabs at 0, fmin/fmax ties, integers for the
// rounding functions, powers of two for frexp, integer quotients for fmod).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <complex.h>
#include <math.h>

extern int enzyme_dup, enzyme_const, enzyme_width, enzyme_primal_return;
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double v[2];
} D2;
D2 __enzyme_fwddiff2(void *, ...);
typedef struct {
  double p, t;
} PT;
PT __enzyme_fwddiff_pr(void *, ...);
float __enzyme_fwddiff_f(void *, float, float);
double complex __enzyme_fwddiff_c(void *, ...);

#define RA 1e-12
#define RF 1e-6
#define LN2 0.69314718055994530942
#define LN10 2.30258509299404568402
#define TWO_SQRTPI 1.12837916709551257390

/* ---- one argument ------------------------------------------------------ */

#define F1(name, expr, dexpr)                                                  \
  __attribute__((noinline)) static double f_##name(double x) { return expr; }  \
  static double d_##name(double x) { return dexpr; }

F1(sqrt, sqrt(x * x + 1), x / sqrt(x * x + 1))
F1(sqrtp, sqrt(x), 0.5 / sqrt(x))
F1(exp, exp(x) * x, exp(x) * (x + 1))
F1(exp2, exp2(x), LN2 * exp2(x))
F1(expm1, expm1(x), exp(x))
F1(log, log(x * x + 1), 2 * x / (x * x + 1))
F1(logp, log(x), 1 / x)
F1(log2, log2(x * x + 1), 2 * x / ((x * x + 1) * LN2))
F1(log10, log10(x * x + 1), 2 * x / ((x * x + 1) * LN10))
F1(log1p, log1p(x * x), 2 * x / (1 + x * x))
F1(pow3, pow(x, 3.0) * 0.5, 1.5 * x * x)
F1(powi3, __builtin_powi(x, 3), 3 * x * x)
F1(powim2, __builtin_powi(x, -2) + x, -2 / (x * x * x) + 1)
F1(sin, sin(x) * x, cos(x) * x + sin(x))
F1(cos, cos(2 * x) + x, 1 - 2 * sin(2 * x))
F1(tan, tan(x), 1 / (cos(x) * cos(x)))
F1(asin, asin(0.5 * x), 0.5 / sqrt(1 - 0.25 * x * x))
F1(acos, acos(0.5 * x), -0.5 / sqrt(1 - 0.25 * x * x))
F1(atan, atan(x), 1 / (1 + x * x))
F1(sinh, sinh(x), cosh(x))
F1(cosh, cosh(x), sinh(x))
F1(tanh, tanh(x), 1 / (cosh(x) * cosh(x)))
F1(asinh, asinh(x), 1 / sqrt(x * x + 1))
F1(acosh, acosh(x * x + 1.5), 2 * x / sqrt((x * x + 1.5) * (x * x + 1.5) - 1))
F1(atanh, atanh(0.5 * x), 0.5 / (1 - 0.25 * x * x))
F1(fabs, fabs(x) * x, 2 * fabs(x))
F1(cbrt, cbrt(x) * x, 4.0 / 3.0 * cbrt(x))
F1(erf, erf(x), TWO_SQRTPI * exp(-x * x))
F1(erfc, erfc(x) * x, erfc(x) - x * TWO_SQRTPI * exp(-x * x))
/* frexp(x, &e) = x 2^-e, e constant near x (x away from powers of two) */
static double frexp_scale(double x) {
  int e;
  frexp(x, &e);
  return (e + 3) * ldexp(1.0, -e);
}
__attribute__((noinline)) static double f_frexp(double x) {
  int e;
  double m = frexp(x, &e);
  return m * (e + 3);
}
static double d_frexp(double x) { return frexp_scale(x); }
/* rounding: r(x) x + x, so the derivative is r(x) + 1 */
F1(floor, floor(x) * x + x, floor(x) + 1)
F1(ceil, ceil(x) * x + x, ceil(x) + 1)
F1(round, round(x) * x + x, round(x) + 1)
F1(trunc, trunc(x) * x + x, trunc(x) + 1)

/* unit tangent (unmarked), tangent -2.5 (enzyme_dup), and width 2 with
 * tangents (1, 0.5): lane k is the derivative times its tangent */
#define FWD1(f, x)                                                             \
  do {                                                                         \
    double d_ = d_##f(x);                                                      \
    lt_grad(#f, x, __enzyme_fwddiff((void *)f_##f, x, 1.0), d_,                \
            lt_fd(f_##f, x), RA, RF);                                          \
    lt_check(#f " tangent -2.5 (enzyme_dup)",                                  \
             __enzyme_fwddiff((void *)f_##f, enzyme_dup, x, -2.5), -2.5 * d_,  \
             RA, RA * 1e-3);                                                   \
    D2 w_ = __enzyme_fwddiff2((void *)f_##f, enzyme_width, 2, x, 1.0, 0.5);    \
    lt_check(#f " width 2 lane 0", w_.v[0], d_, RA, RA * 1e-3);                \
    lt_check(#f " width 2 lane 1", w_.v[1], 0.5 * d_, RA, RA * 1e-3);          \
  } while (0)

/* ---- two and three arguments ------------------------------------------- */

#define F2(name, expr)                                                         \
  __attribute__((noinline)) static double f_##name(double a, double b) {       \
    return expr;                                                               \
  }
F2(pow, pow(a, b))
F2(atan2, atan2(a, b))
F2(hypot, hypot(a, b))
F2(fmin, fmin(a, b) * a)
F2(fmax, fmax(a, b) * b)
F2(copysign, copysign(a, b))
F2(fmod, fmod(a, b))

/* d/da, d/db (b then a enzyme_const), and along the direction (ta, tb)
 * with both tangents, against the analytic partials and FD */
#define FWD2(f, a, b, da, db)                                                  \
  do {                                                                         \
    double da_ = (da), db_ = (db), ta_ = 0.7, tb_ = -1.3;                     \
    double fa_ = lt_fd2(f_##f, a, b, 0), fb_ = lt_fd2(f_##f, a, b, 1);         \
    lt_grad(#f " d/da", a,                                                     \
            __enzyme_fwddiff((void *)f_##f, a, 1.0, enzyme_const, b), da_,     \
            fa_, RA, RF);                                                      \
    lt_grad(#f " d/db", b,                                                     \
            __enzyme_fwddiff((void *)f_##f, enzyme_const, a, b, 1.0), db_,     \
            fb_, RA, RF);                                                      \
    lt_grad(#f " along (0.7, -1.3)", a,                                        \
            __enzyme_fwddiff((void *)f_##f, enzyme_dup, a, ta_, enzyme_dup, b, \
                             tb_),                                             \
            ta_ * da_ + tb_ * db_, ta_ * fa_ + tb_ * fb_, RA, RF);             \
  } while (0)

__attribute__((noinline)) static double f_fma(double a, double b, double c) {
  return fma(a, b, c) * c;
}
/* contracted into llvm.fmuladd(a, b, c * c) */
__attribute__((noinline)) static double f_fmuladd(double a, double b,
                                                  double c) {
  return a * b + c * c;
}

/* powi with a runtime exponent (an int parameter, const) */
__attribute__((noinline)) static double f_powin(double x, int n) {
  return __builtin_powi(x, n);
}
static int cur_n;
static double f_powin_cur(double x) { return f_powin(x, cur_n); }

/* ldexp with an int parameter: ldexp(x^2, n) = x^2 2^n */
__attribute__((noinline)) static double f_ldexp(double x, int n) {
  return ldexp(x * x, n);
}
static double f_ldexp_cur(double x) { return f_ldexp(x, cur_n); }

/* ---- float ------------------------------------------------------------- */

__attribute__((noinline)) static float f_sinf(float x) { return sinf(x) * x; }
__attribute__((noinline)) static float f_expf(float x) { return expf(x * x); }
__attribute__((noinline)) static float f_sqrtf(float x) {
  return sqrtf(x * x + 2.0f);
}

/* ---- complex ----------------------------------------------------------- */

/* z = a + ib, w = c + id: re(zw) + 2 im(zw) + 3 re(z/w) - im(z/w) */
__attribute__((noinline)) static double f_cplx(double a, double b, double c,
                                               double d) {
  double complex z = __builtin_complex(a, b), w = __builtin_complex(c, d);
  double complex p = z * w, q = z / w;
  return creal(p) + 2 * cimag(p) + 3 * creal(q) - cimag(q);
}
static void d_cplx(double a, double b, double c, double d, double g[4]) {
  double r = c * c + d * d, N = 3 * a * c + 3 * b * d - b * c + a * d;
  g[0] = c + 2 * d + (3 * c + d) / r;
  g[1] = -d + 2 * c + (3 * d - c) / r;
  g[2] = a + 2 * b + (3 * a - b) / r - N * 2 * c / (r * r);
  g[3] = -b + 2 * a + (3 * b + a) / r - N * 2 * d / (r * r);
}
static double cplx_at[4];
static int cplx_k;
static double f_cplx_k(double t) {
  double v[4] = {cplx_at[0], cplx_at[1], cplx_at[2], cplx_at[3]};
  v[cplx_k] = t;
  return f_cplx(v[0], v[1], v[2], v[3]);
}
/* a complex result: z^2 / (w + z) with z = x + 0.5i x, w = 1.5 - 0.5i;
 * d/dx = (2 z (w + z) - z^2) / (w + z)^2 dz/dx, dz/dx = 1 + 0.5i */
__attribute__((noinline)) static double complex f_cret(double x) {
  double complex z = __builtin_complex(x, 0.5 * x), w = __builtin_complex(1.5, -0.5);
  return z * z / (w + z);
}
static double complex d_cret(double x) {
  double complex z = __builtin_complex(x, 0.5 * x), w = __builtin_complex(1.5, -0.5), s = w + z;
  return (2 * z * s - z * z) / (s * s) * __builtin_complex(1.0, 0.5);
}
static double f_cret_re(double x) { return creal(f_cret(x)); }
static double f_cret_im(double x) { return cimag(f_cret(x)); }

static volatile double pts[] = {-1.3, -0.45, 0.3, 0.85, 1.2};
static volatile double ppts[] = {0.2, 0.75, 1.6, 3.1};
static volatile double tpts[] = {-1.3, -0.6, 0.35, 1.0, 1.4};
/* away from integers and half-integers */
static volatile double rpts[] = {-3.7, -2.3, -0.6, 0.2, 1.4, 2.8, 6.1};
/* away from powers of two */
static volatile double frpts[] = {-5.3, -0.7, 0.3, 1.5, 3.0, 100.25};
static volatile double ab[][2] = {
    {0.5, 1.5}, {1.75, -0.5}, {2.25, 0.8}, {0.6, -1.25}, {3.0, 4.0}};
/* fmod: a/b well away from integers */
static volatile double fm[][2] = {{5.3, 1.7}, {-7.1, 2.2}, {2.9, -0.8}};
static volatile double abc[][3] = {
    {0.5, -1.25, 2.0}, {-3.0, 0.4, -0.7}, {1.5, 2.5, 0.3}};
static volatile int ns[] = {0, 1, 2, 5, -1, -3};

int main(void) {
  for (unsigned i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    double x = pts[i];
    FWD1(sqrt, x);
    FWD1(exp, x);
    FWD1(exp2, x);
    FWD1(expm1, x);
    FWD1(log, x);
    FWD1(log2, x);
    FWD1(log10, x);
    FWD1(log1p, x);
    FWD1(pow3, x);
    FWD1(powi3, x);
    FWD1(powim2, x);
    FWD1(sin, x);
    FWD1(cos, x);
    FWD1(asin, x);
    FWD1(acos, x);
    FWD1(atan, x);
    FWD1(sinh, x);
    FWD1(cosh, x);
    FWD1(tanh, x);
    FWD1(asinh, x);
    FWD1(acosh, x);
    FWD1(atanh, x);
    FWD1(fabs, x);
    FWD1(cbrt, x);
    FWD1(erf, x);
    FWD1(erfc, x);
    for (unsigned j = 0; j < sizeof ns / sizeof ns[0]; j++) {
      int n = ns[j];
      cur_n = n;
      double an = n == 0 ? 0 : n * __builtin_powi(x, n - 1);
      lt_grad("powi(x, n), n enzyme_const", x,
              __enzyme_fwddiff((void *)f_powin, x, 1.0, enzyme_const, n), an,
              lt_fd(f_powin_cur, x), RA, RF);
      /* an unmarked int is const too */
      lt_check("powi(x, n), n unmarked",
               __enzyme_fwddiff((void *)f_powin, x, 1.0, n), an, RA, RA * 1e-3);
      lt_grad("ldexp(x^2, n)", x,
              __enzyme_fwddiff((void *)f_ldexp, x, 1.0, enzyme_const, n),
              2 * x * ldexp(1.0, n), lt_fd(f_ldexp_cur, x), RA, RF);
    }
  }
  for (unsigned i = 0; i < sizeof ppts / sizeof ppts[0]; i++) {
    FWD1(sqrtp, ppts[i]);
    FWD1(logp, ppts[i]);
  }
  for (unsigned i = 0; i < sizeof tpts / sizeof tpts[0]; i++)
    FWD1(tan, tpts[i]);
  for (unsigned i = 0; i < sizeof rpts / sizeof rpts[0]; i++) {
    FWD1(floor, rpts[i]);
    FWD1(ceil, rpts[i]);
    FWD1(round, rpts[i]);
    FWD1(trunc, rpts[i]);
  }
  for (unsigned i = 0; i < sizeof frpts / sizeof frpts[0]; i++)
    FWD1(frexp, frpts[i]);

  for (unsigned i = 0; i < sizeof ab / sizeof ab[0]; i++) {
    double a = ab[i][0], b = ab[i][1], r = a * a + b * b, h = sqrt(r);
    FWD2(pow, a, b, b * pow(a, b - 1), pow(a, b) * log(a));
    FWD2(atan2, a, b, b / r, -a / r);
    FWD2(hypot, a, b, a / h, b / h);
    FWD2(fmin, a, b, (a < b ? a : 0) + fmin(a, b), b < a ? a : 0);
    FWD2(fmax, a, b, a > b ? b : 0, (b > a ? b : 0) + fmax(a, b));
    FWD2(copysign, a, b, (signbit(a) == signbit(b)) ? 1 : -1, 0);
    /* and the primal with enzyme_primal_return */
    PT pt = __enzyme_fwddiff_pr((void *)f_atan2, enzyme_primal_return, a, 1.0,
                                b, 0.0);
    lt_check("atan2 primal (enzyme_primal_return)", pt.p, atan2(a, b), 0, 0);
    lt_check("atan2 tangent (enzyme_primal_return)", pt.t, b / r, RA, 0);
  }
  for (unsigned i = 0; i < sizeof fm / sizeof fm[0]; i++) {
    double a = fm[i][0], b = fm[i][1];
    FWD2(fmod, a, b, 1, -trunc(a / b));
  }
  for (unsigned i = 0; i < sizeof abc / sizeof abc[0]; i++) {
    double a = abc[i][0], b = abc[i][1], c = abc[i][2];
    double fa = lt_fd3(f_fma, a, b, c, 0), fb = lt_fd3(f_fma, a, b, c, 1),
           fc = lt_fd3(f_fma, a, b, c, 2);
    lt_grad("fma d/da", a,
            __enzyme_fwddiff((void *)f_fma, a, 1.0, b, 0.0, c, 0.0), b * c, fa,
            RA, RF);
    lt_grad("fma d/db", b,
            __enzyme_fwddiff((void *)f_fma, enzyme_const, a, b, 1.0,
                             enzyme_const, c),
            a * c, fb, RA, RF);
    lt_grad("fma d/dc", c,
            __enzyme_fwddiff((void *)f_fma, enzyme_const, a, enzyme_const, b, c,
                             1.0),
            fma(a, b, c) + c, fc, RA, RF);
    lt_grad("fma along (1, 2, -1)", a,
            __enzyme_fwddiff((void *)f_fma, a, 1.0, b, 2.0, c, -1.0),
            b * c + 2 * a * c - (fma(a, b, c) + c), fa + 2 * fb - fc, RA, RF);
    lt_grad("fmuladd along (1, 2, -1)", a,
            __enzyme_fwddiff((void *)f_fmuladd, a, 1.0, b, 2.0, c, -1.0),
            b + 2 * a - 2 * c,
            lt_fd3(f_fmuladd, a, b, c, 0) + 2 * lt_fd3(f_fmuladd, a, b, c, 1) -
                lt_fd3(f_fmuladd, a, b, c, 2),
            RA, RF);
  }

  /* float: analytic in double, float tolerances */
  for (unsigned i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    float x = (float)pts[i];
    double xd = x;
    lt_grad("sinf", xd, __enzyme_fwddiff_f((void *)f_sinf, x, 1.0f),
            cos(xd) * xd + sin(xd), lt_fdf(f_sinf, x), 1e-5, 1e-3);
    lt_grad("expf", xd, __enzyme_fwddiff_f((void *)f_expf, x, 1.0f),
            2 * xd * exp(xd * xd), lt_fdf(f_expf, x), 1e-5, 1e-3);
    lt_grad("sqrtf", xd, __enzyme_fwddiff_f((void *)f_sqrtf, x, 1.0f),
            xd / sqrt(xd * xd + 2), lt_fdf(f_sqrtf, x), 1e-5, 1e-3);
    lt_check("sqrtf tangent 3", __enzyme_fwddiff_f((void *)f_sqrtf, x, 3.0f),
             3 * xd / sqrt(xd * xd + 2), 1e-5, 1e-7);
  }

  /* complex multiply and divide: each partial and one direction */
  static const double cpts[][4] = {
      {0.7, -1.3, 1.5, 0.4}, {-0.2, 0.9, -0.6, 1.1}, {2.0, 0.5, 0.3, -1.7}};
  for (unsigned i = 0; i < 3; i++) {
    double v[4], g[4];
    for (int k = 0; k < 4; k++)
      v[k] = cplx_at[k] = lt_vd(cpts[i][k]);
    d_cplx(v[0], v[1], v[2], v[3], g);
    double dir = 0, fdir = 0;
    for (int k = 0; k < 4; k++) {
      double t[4] = {0, 0, 0, 0};
      t[k] = 1;
      cplx_k = k;
      double fd = lt_fd(f_cplx_k, v[k]);
      char what[40];
      snprintf(what, sizeof what, "complex * / d/dv[%d]", k);
      lt_grad(what, v[k],
              __enzyme_fwddiff((void *)f_cplx, v[0], t[0], v[1], t[1], v[2],
                               t[2], v[3], t[3]),
              g[k], fd, RA, RF);
      dir += (k + 1) * g[k];
      fdir += (k + 1) * fd;
    }
    lt_grad("complex * / along (1, 2, 3, 4)", v[0],
            __enzyme_fwddiff((void *)f_cplx, v[0], 1.0, v[1], 2.0, v[2], 3.0,
                             v[3], 4.0),
            dir, fdir, RA, RF);
  }
  for (unsigned i = 0; i < sizeof pts / sizeof pts[0]; i++) {
    double x = pts[i];
    double complex t = __enzyme_fwddiff_c((void *)f_cret, x, 1.0), an = d_cret(x);
    lt_grad("complex result, re", x, creal(t), creal(an), lt_fd(f_cret_re, x),
            RA, RF);
    lt_grad("complex result, im", x, cimag(t), cimag(an), lt_fd(f_cret_im, x),
            RA, RF);
  }
  return lt_done();
}
