// Registered custom gradients (Enzyme's __enzyme_register_gradient ABI) in
// combined mode (__enzyme_autodiff). Each custom gradient is deliberately
// different from the true derivative (as in Enzyme's customcombined test,
// where the gradient of x^2 is 13 rather than 2x), so the checks prove the
// registration was used; the augmented functions and gradients count
// their invocations, and the primal is counted too (the augmented call
// replaces it). Shapes covered:
//  - void square(const double *src, double *dest): aug takes
//    (src, d_src, dest, d_dest) and returns just a tape (void *, a pointer
//    the gradient must get back); grad takes the same and the tape;
//  - scalar, no tape: double cube(double), aug returns the result,
//    grad(x, dret) returns a double;
//  - two float parameters: double mul(double, double), grad returns a
//    struct of two adjoints;
//  - pointer, int and float parameters, void result: scale(v, n, k), aug
//    and grad take (v, dv, n, n, k), aug returns void, grad returns the
//    adjoint of k;
//  - aug returning only a tape while fn's result is used and fn has no
//    pointer parameters: the original fn is called for the result;
//  - a pointer result: double *elem(double *a, int i), aug returns
//    {result, shadow result} (two pointers), grad returns void.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

static int n_primal, n_aug, n_grad, n_bad_tape;

/* ---- square: tape only, through pointers ------------------------------ */
static int square_tape_token;
void square(const double *src, double *dest) {
  n_primal++;
  dest[0] = src[0] * src[0];
}
void *aug_square(const double *src, const double *d_src, double *dest,
                 double *d_dest) {
  (void)d_src;
  (void)d_dest;
  n_aug++;
  dest[0] = src[0] * src[0];
  return &square_tape_token;
}
/* true derivative 2 src; this one says 13 */
void grad_square(const double *src, double *d_src, const double *dest,
                 double *d_dest, void *tape) {
  (void)src;
  (void)dest;
  n_grad++;
  if (tape != &square_tape_token)
    n_bad_tape++;
  d_src[0] += 13.0 * d_dest[0];
  d_dest[0] = 0.0;
}
void *__enzyme_register_gradient_square[3] = {
    (void *)square, (void *)aug_square, (void *)grad_square};

/* out = 2 square(x0) + x1 */
void use_square(const double *x, double *out) {
  double y;
  square(x, &y);
  *out = 2.0 * y + x[1];
}

/* ---- cube: scalar, no tape -------------------------------------------- */
double cube(double x) {
  n_primal++;
  return x * x * x;
}
double aug_cube(double x) {
  n_aug++;
  return x * x * x;
}
/* true derivative 3 x^2; this one says 7 x */
double grad_cube(double x, double dret) {
  n_grad++;
  return 7.0 * x * dret;
}
void *__enzyme_register_gradient_cube[3] = {(void *)cube, (void *)aug_cube,
                                            (void *)grad_cube};
double use_cube(double x) { return sin(cube(x)) + cube(2.0 * x); }

/* ---- mul: two float parameters ---------------------------------------- */
typedef struct {
  double da, db;
} MulGrad;
double mul(double a, double b) {
  n_primal++;
  return a * b;
}
double aug_mul(double a, double b) {
  n_aug++;
  return a * b;
}
/* true (b, a) dret; this one says (b + 1, 2a) dret */
MulGrad grad_mul(double a, double b, double dret) {
  n_grad++;
  MulGrad g = {(b + 1.0) * dret, 2.0 * a * dret};
  return g;
}
void *__enzyme_register_gradient_mul[3] = {(void *)mul, (void *)aug_mul,
                                           (void *)grad_mul};
double use_mul(double a, double b) { return mul(a, b) * a; }

/* ---- scale: pointer, int, float; void result -------------------------- */
void scale(double *v, int n, double k) {
  n_primal++;
  for (int i = 0; i < n; i++)
    v[i] *= k;
}
static int seen_n[2];
void aug_scale(double *v, double *dv, int n, int n2, double k) {
  (void)dv;
  n_aug++;
  seen_n[0] = n;
  seen_n[1] = n2;
  for (int i = 0; i < n; i++)
    v[i] *= k;
}
/* the true reverse needs the old v; this one uses the new v / k but adds
 * an extra 1 to every dv (dv_i = k dv_i + 1), and dk = sum v_i dv_i / k */
double grad_scale(double *v, double *dv, int n, int n2, double k) {
  (void)n2;
  n_grad++;
  double dk = 0;
  for (int i = 0; i < n; i++) {
    dk += v[i] / k * dv[i];
    dv[i] = k * dv[i] + 1.0;
  }
  return dk;
}
void *__enzyme_register_gradient_scale[3] = {
    (void *)scale, (void *)aug_scale, (void *)grad_scale};
double use_scale(double *v, double k) {
  scale(v, 3, k);
  return v[0] + 2.0 * v[1] + 3.0 * v[2];
}

/* ---- twice: aug returns only a tape; the result comes from fn --------- */
static double twice_tape_value;
double twice(double x) {
  n_primal++;
  return 2.0 * x;
}
double *aug_twice(double x) {
  n_aug++;
  twice_tape_value = x;
  return &twice_tape_value;
}
/* true derivative 2; this one says 5 + (the tape's x) */
double grad_twice(double x, double dret, double *tape) {
  (void)x;
  n_grad++;
  return (5.0 + *tape) * dret;
}
void *__enzyme_register_gradient_twice[3] = {
    (void *)twice, (void *)aug_twice, (void *)grad_twice};
double use_twice(double x) { return twice(x) * twice(x); }

/* ---- elem: {result, shadow result} ----------------------------------- */
double *elem(double *a, int i) {
  n_primal++;
  return a + i;
}
typedef struct {
  double *r, *s;
} ElemAug;
ElemAug aug_elem(double *a, double *da, int i, int i2) {
  n_aug++;
  ElemAug p = {a + i, da + i2};
  return p;
}
void grad_elem(double *a, double *da, int i, int i2) {
  (void)a;
  (void)da;
  (void)i;
  (void)i2;
  n_grad++;
}
void *__enzyme_register_gradient_elem[3] = {
    (void *)elem, (void *)aug_elem, (void *)grad_elem};
/* r = a_2^2 a_0, reading through the custom call's result */
double use_elem(double *a) {
  double *p = elem(a, 2);
  return *p * *p * a[0];
}

static void reset(void) { n_primal = n_aug = n_grad = n_bad_tape = 0; }
static void counts(const char *what, int primal, int aug, int grad) {
  char b[120];
  snprintf(b, sizeof b, "%s: primal calls", what);
  lt_check(b, n_primal, primal, 0, 0);
  snprintf(b, sizeof b, "%s: augmented calls", what);
  lt_check(b, n_aug, aug, 0, 0);
  snprintf(b, sizeof b, "%s: gradient calls", what);
  lt_check(b, n_grad, grad, 0, 0);
  snprintf(b, sizeof b, "%s: tape delivered", what);
  lt_check(b, n_bad_tape, 0, 0, 0);
  reset();
}

int main(void) {
  /* square */
  {
    double x[2] = {lt_vd(3.0), lt_vd(-0.5)}, dx[2] = {0}, out = 0,
           dout = lt_vd(1.0);
    reset();
    __enzyme_autodiff((void *)use_square, enzyme_dup, x, dx, enzyme_dup, &out,
                      &dout);
    lt_check("square: primal out", out, 2 * 9.0 - 0.5, 1e-15, 0);
    lt_check("square: dx0 from the custom gradient (13, not 6)", dx[0],
             2 * 13.0, 1e-15, 0);
    lt_check("square: dx1", dx[1], 1.0, 1e-15, 0);
    lt_check("square: dout consumed", dout, 0.0, 0, 0);
    counts("square", 0, 1, 1);
  }
  /* cube: two calls, two augmented, two gradients */
  {
    double x = lt_vd(0.6);
    reset();
    double dx = __enzyme_autodiff((void *)use_cube, enzyme_out, x);
    /* d/dx sin(c(x)) + c(2x) with c' := 7x: cos(x^3) 7x + 2 * 7(2x) */
    lt_check("cube: custom derivative used", dx,
             cos(x * x * x) * 7 * x + 2 * 7 * 2 * x, 1e-14, 0);
    counts("cube", 0, 2, 2);
  }
  /* mul */
  {
    double a = lt_vd(1.5), b = lt_vd(-2.0);
    reset();
    typedef struct {
      double da, db;
    } G2;
    G2 __enzyme_autodiff_mul(void *, ...);
    G2 g = __enzyme_autodiff_mul((void *)use_mul, enzyme_out, a, enzyme_out, b);
    /* r = m(a, b) a: dr/da = m_a a + m, dr/db = m_b a, with (m_a, m_b) :=
     * (b + 1, 2a) */
    lt_check("mul: da", g.da, (b + 1) * a + a * b, 1e-15, 0);
    lt_check("mul: db", g.db, 2 * a * a, 1e-15, 0);
    counts("mul", 0, 1, 1);
  }
  /* scale */
  {
    double v[3] = {lt_vd(1.0), lt_vd(-2.0), lt_vd(0.5)}, dv[3] = {0};
    double k = lt_vd(1.5);
    reset();
    double dk = __enzyme_autodiff((void *)use_scale, enzyme_dup, v, dv,
                                  enzyme_out, k);
    lt_check("scale: primal v0", v[0], 1.5, 1e-15, 0);
    lt_check("scale: primal v1", v[1], -3.0, 1e-15, 0);
    lt_check("scale: int passed twice (n)", seen_n[0], 3, 0, 0);
    lt_check("scale: int passed twice (n again)", seen_n[1], 3, 0, 0);
    /* the caller's adjoint of the new v is (1, 2, 3) */
    lt_check("scale: dv0", dv[0], 1.5 * 1 + 1, 1e-15, 0);
    lt_check("scale: dv1", dv[1], 1.5 * 2 + 1, 1e-15, 0);
    lt_check("scale: dv2", dv[2], 1.5 * 3 + 1, 1e-15, 0);
    lt_check("scale: dk", dk, (1.5 * 1 + -3.0 * 2 + 0.75 * 3) / 1.5, 1e-15,
             0);
    counts("scale", 0, 1, 1);
  }
  /* twice: the original is called for the result, twice */
  {
    double x = lt_vd(0.75);
    reset();
    double dx = __enzyme_autodiff((void *)use_twice, enzyme_out, x);
    /* r = t(x)^2: dr/dx = 2 t(x) t'(x) twice over... per call: t' := 5 + x */
    lt_check("twice: custom derivative used", dx, 2 * (2 * x) * (5 + x), 1e-15,
             0);
    lt_check("twice: primal result", use_twice(x), 4 * x * x, 1e-15, 0);
    /* primal count: 2 inside the derivative + 2 in the check above */
    counts("twice", 4, 2, 2);
  }
  /* elem: the shadow result comes from the augmented function */
  {
    double a[3] = {lt_vd(1.5), lt_vd(2.0), lt_vd(3.0)}, da[3] = {0};
    reset();
    __enzyme_autodiff((void *)use_elem, enzyme_dup, a, da);
    lt_check("elem: da0", da[0], 9.0, 1e-15, 0);
    lt_check("elem: da1", da[1], 0.0, 0, 0);
    lt_check("elem: da2 (through the shadow result)", da[2], 2 * 3.0 * 1.5,
             1e-15, 0);
    counts("elem", 0, 1, 1);
  }
  return lt_done();
}
