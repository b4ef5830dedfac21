// Registered custom gradients in split mode: __enzyme_augmentfwd runs the
// registered augmented function (not the primal), keeps its tape in the
// split-mode tape, and __enzyme_reverse later hands that tape to the
// registered gradient. Two forward passes are live at once and reversed in
// the opposite order, so each custom tape must come back to its own
// reverse. Shapes:
//  - void sq_into(double *out, double x): aug(out, d_out, x) returns a
//    double tape (100 + x); grad(out, d_out, x, tape) returns dx, and
//    checks the tape is its own call's;
//  - double cube(double): no tape (aug returns the result, grad(x, dret)
//    returns a double), with a deliberately wrong derivative 7x.
// Each gradient is checked against the value the custom rule gives, and
// the aug / grad / primal calls are counted.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

static int n_primal, n_aug, n_grad, n_bad_tape;

/* ---- sq_into: tape only, a double ------------------------------------- */
void sq_into(double *out, double x) {
  n_primal++;
  out[0] = x * x;
}
double aug_sq_into(double *out, double *d_out, double x) {
  (void)d_out;
  n_aug++;
  out[0] = x * x;
  return 100.0 + x;
}
/* true dx = 2x d_out; this one adds 1 */
double grad_sq_into(double *out, double *d_out, double x, double tape) {
  (void)out;
  n_grad++;
  if (tape != 100.0 + x)
    n_bad_tape++;
  double dx = (2.0 * (tape - 100.0) + 1.0) * d_out[0];
  d_out[0] = 0.0;
  return dx;
}
void *__enzyme_register_gradient_sq_into[3] = {
    (void *)sq_into, (void *)aug_sq_into, (void *)grad_sq_into};

/* y[0] = x0^2, y[1] = y[0] * x1 (reads the custom call's output) */
void f_sq(const double *x, double *y) {
  sq_into(y, x[0]);
  y[1] = y[0] * x[1];
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
/* true 3 x^2 dret; this one says 7 x dret */
double grad_cube(double x, double dret) {
  n_grad++;
  return 7.0 * x * dret;
}
void *__enzyme_register_gradient_cube[3] = {(void *)cube, (void *)aug_cube,
                                            (void *)grad_cube};
double f_cube(const double *x) { return cube(x[0]) * x[1] + cube(x[1]); }

static void counts(const char *what, int primal, int aug, int grad) {
  char b[120];
  snprintf(b, sizeof b, "%s: primal calls", what);
  lt_check(b, n_primal, primal, 0, 0);
  snprintf(b, sizeof b, "%s: augmented calls", what);
  lt_check(b, n_aug, aug, 0, 0);
  snprintf(b, sizeof b, "%s: gradient calls", what);
  lt_check(b, n_grad, grad, 0, 0);
  snprintf(b, sizeof b, "%s: each tape back to its own call", what);
  lt_check(b, n_bad_tape, 0, 0, 0);
  n_primal = n_aug = n_grad = n_bad_tape = 0;
}

int main(void) {
  /* sq_into: two live tapes, reversed in the opposite order */
  {
    double x[2] = {lt_vd(1.5), lt_vd(-2.0)}, dx[2] = {0};
    double u[2] = {lt_vd(-0.5), lt_vd(3.0)}, du[2] = {0};
    double y[2] = {0}, dy[2] = {lt_vd(1.0), lt_vd(2.0)};
    double v[2] = {0}, dv[2] = {lt_vd(-1.0), lt_vd(0.5)};
    void *t1 = __enzyme_augmentfwd((void *)f_sq, enzyme_dup, x, dx, enzyme_dup,
                                   y, dy);
    void *t2 = __enzyme_augmentfwd((void *)f_sq, enzyme_dup, u, du, enzyme_dup,
                                   v, dv);
    lt_check("sq_into: forward y0", y[0], 2.25, 1e-15, 0);
    lt_check("sq_into: forward y1", y[1], 2.25 * -2.0, 1e-15, 0);
    lt_check("sq_into: forward v0", v[0], 0.25, 1e-15, 0);
    __enzyme_reverse((void *)f_sq, enzyme_dup, u, du, enzyme_dup, v, dv, t2);
    __enzyme_reverse((void *)f_sq, enzyme_dup, x, dx, enzyme_dup, y, dy, t1);
    /* adjoint of y0 after y1 = y0 x1: dy0 + dy1 x1; custom dx0 = (2 x0 + 1)
     * times that; dx1 = dy1 y0 */
    double a = 1.0 + 2.0 * -2.0, b = -1.0 + 0.5 * 3.0;
    lt_check("sq_into: dx0 (custom)", dx[0], (2 * 1.5 + 1) * a, 1e-15, 0);
    lt_check("sq_into: dx1", dx[1], 2.0 * 2.25, 1e-15, 0);
    lt_check("sq_into: du0 (custom)", du[0], (2 * -0.5 + 1) * b, 1e-15, 1e-15);
    lt_check("sq_into: du1", du[1], 0.5 * 0.25, 1e-15, 0);
    lt_check("sq_into: dy consumed", fabs(dy[0]) + fabs(dy[1]), 0, 0, 0);
    lt_check("sq_into: dv consumed", fabs(dv[0]) + fabs(dv[1]), 0, 0, 0);
    counts("sq_into", 0, 2, 2);
  }
  /* cube: no custom tape; dret 2.5 */
  {
    double x[2] = {lt_vd(0.8), lt_vd(-1.25)}, dx[2] = {0};
    void *t = __enzyme_augmentfwd((void *)f_cube, enzyme_dup, x, dx);
    __enzyme_reverse((void *)f_cube, enzyme_dup, x, dx, lt_vd(2.5), t);
    /* r = c(x0) x1 + c(x1), c' := 7x */
    lt_check("cube: dx0 (custom)", dx[0], 2.5 * 7 * 0.8 * -1.25, 1e-15, 0);
    lt_check("cube: dx1 (custom)", dx[1],
             2.5 * (0.8 * 0.8 * 0.8 + 7 * -1.25), 1e-15, 0);
    counts("cube", 0, 2, 2);
  }
  return lt_done();
}
