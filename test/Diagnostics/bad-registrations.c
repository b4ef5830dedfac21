// Custom-gradient registrations that cannot be used are compile errors
// naming the registration, never silently ignored (one case per RUN line).
// The shape errors point at the call of the registered function:
//  ARITY   the augmented function misses the shadow of a pointer parameter;
//  NGRAD   the gradient returns one adjoint where the function has two
//          floating-point parameters;
//  NOT3    the registration global holds two functions, not three;
//  NOTFN   the registration global's third element is not a function;
//  RESULT  the augmented function returns only a tape, the function's
//          result is used, and the function has pointer parameters (so the
//          primal cannot be called for the result).
// RUN: not %ltclang -O0 -g -c -DARITY %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not %ltclang -O2 -g -c -DARITY %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ARITY
// RUN: not %ltclang -O0 -g -c -DNGRAD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NGRAD
// RUN: not %ltclang -O2 -g -c -DNGRAD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NGRAD
// RUN: not %ltclang -O0 -g -c -DNOT3 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT3
// RUN: not %ltclang -O2 -g -c -DNOT3 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT3
// RUN: not %ltclang -O0 -g -c -DNOTFN %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOTFN
// RUN: not %ltclang -O0 -g -c -DRESULT %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESULT
// RUN: not %ltclang -O2 -g -c -DRESULT %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=RESULT
// The well-formed registration compiles:
// RUN: %ltclang -O0 -g -c -DGOOD %s -o /dev/null

#include <leantape.h>

#if defined(ARITY) || defined(GOOD)
void square(const double *src, double *dest) { dest[0] = src[0] * src[0]; }
#ifdef ARITY
/* d_src is missing */
void *aug_square(const double *src, double *dest, double *d_dest) {
#else
void *aug_square(const double *src, const double *d_src, double *dest,
                 double *d_dest) {
#endif
  dest[0] = src[0] * src[0];
  return 0;
}
void grad_square(const double *src, double *d_src, const double *dest,
                 double *d_dest, void *tape) {
  d_src[0] += 2 * src[0] * d_dest[0];
  d_dest[0] = 0;
}
void *__enzyme_register_gradient_square[3] = {
    (void *)square, (void *)aug_square, (void *)grad_square};
// ARITY: bad-registrations.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_register_gradient_square': the augmented function 'aug_square' must take each parameter of 'square' in order, every non-floating-point one followed by its shadow
void use(const double *x, double *out) { square(x, out); }
void d_use(const double *x, double *dx, double *out, double *dout) {
  __enzyme_autodiff((void *)use, enzyme_dup, x, dx, enzyme_dup, out, dout);
}
#endif

#ifdef NGRAD
double mul(double a, double b) { return a * b; }
double aug_mul(double a, double b) { return a * b; }
/* one adjoint for two float parameters */
double grad_mul(double a, double b, double dret) { return b * dret; }
void *__enzyme_register_gradient_mul[3] = {(void *)mul, (void *)aug_mul,
                                           (void *)grad_mul};
// NGRAD: bad-registrations.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_register_gradient_mul': the gradient 'grad_mul' must take the augmented function's arguments, then the adjoint of a floating-point result, then the tape if there is one, and return one adjoint per floating-point parameter
double use(double a, double b) { return mul(a, b) + a; }
double d_use(double a, double b) {
  return __enzyme_autodiff((void *)use, enzyme_out, a, enzyme_const, b);
}
#endif

#ifdef NOT3
double sq(double x) { return x * x; }
double aug_sq(double x) { return x * x; }
// NOT3: error: leantape: '__enzyme_register_gradient_sq' must hold three functions
void *__enzyme_register_gradient_sq[2] = {(void *)sq, (void *)aug_sq};
double use(double x) { return sq(x) * 3.0; }
double d_use(double x) { return __enzyme_autodiff((void *)use, x); }
#endif

#ifdef NOTFN
double sq(double x) { return x * x; }
double aug_sq(double x) { return x * x; }
static double not_a_function;
// NOTFN: error: leantape: '__enzyme_register_gradient_sq' must hold three functions
void *__enzyme_register_gradient_sq[3] = {(void *)sq, (void *)aug_sq,
                                          (void *)&not_a_function};
double use(double x) { return sq(x) * 3.0; }
double d_use(double x) { return __enzyme_autodiff((void *)use, x); }
#endif

#ifdef RESULT
double scaled(const double *p, double x) { return p[0] * x; }
/* returns only a tape, not the result */
void *aug_scaled(const double *p, const double *dp, double x) {
  (void)p;
  (void)dp;
  (void)x;
  return 0;
}
double grad_scaled(const double *p, double *dp, double x, double dret,
                   void *tape) {
  (void)tape;
  dp[0] += x * dret;
  return p[0] * dret;
}
void *__enzyme_register_gradient_scaled[3] = {
    (void *)scaled, (void *)aug_scaled, (void *)grad_scaled};
// RESULT: bad-registrations.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_register_gradient_scaled': the augmented function 'aug_scaled' must return the result of 'scaled', which is used here
double use(const double *p, double x) { return scaled(p, x) * scaled(p, x); }
double d_use(const double *p, double *dp, double x) {
  return __enzyme_autodiff((void *)use, enzyme_dup, p, dp, enzyme_out, x);
}
#endif

// No crash:
// ARITY-NOT: PLEASE submit a bug report
// NGRAD-NOT: PLEASE submit a bug report
// NOT3-NOT: PLEASE submit a bug report
// NOTFN-NOT: PLEASE submit a bug report
// RESULT-NOT: PLEASE submit a bug report
