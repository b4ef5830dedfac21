// REQUIRES: clang-plugin
// enzyme_shadow(s) through the clang plugin: a global with a shadow of the
// user's, without -leantape-global-shadows (Enzyme's !enzyme_shadow
// metadata, written in the source). The derivative reads and accumulates
// into the user's shadow as into the shadow of an enzyme_dup argument, and
// never zeroes it: reverse mode adds d(result)/d(global) to it, forward
// mode takes the global's tangent from it. A scalar, an array read in a
// loop, and a global the function updates in place; against central
// differences in the global's value and the analytic derivatives. Also
// through opt (the annotations are in the IR), and with -fpass-plugin
// given as well (the pass runs once).
// RUN: %fpluginclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %fpluginclang -O2 %s -o %t.O2 -lm && %t.O2
// The annotations in the IR are the pass's to read, under opt too:
// RUN: %fpluginclang -O0 -Xclang -disable-llvm-passes -S -emit-llvm %s -o %t.ll
// RUN: %ltopt -passes=leantape %t.ll -S -o %t.ad.ll && %clang %t.ad.ll -o %t.opt -lm && %t.opt
// RUN: %fpluginclang -O2 -fpass-plugin=%plugin %s -o %t.both -lm && %t.both
// The shadow globals are the user's; none is made:
// RUN: %fpluginclang -O2 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-NOT: lt.shadow =

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

double __enzyme_fwddiff(void *, ...);

double dg;
double g __attribute__((enzyme_shadow(dg))) = 1.5;
double dw[3];
double w[3] __attribute__((enzyme_shadow(dw))) = {0.5, -1.0, 2.0};

double f(double x) {
  double s = g * x * x;
  for (int i = 0; i < 3; i++)
    s += w[i] * sin(x * (i + 1));
  return s;
}

double dacc;
double acc __attribute__((enzyme_shadow(dacc)));
double step(double x) {
  acc = acc * x + g;
  return acc * acc;
}
/* step from a fixed acc0, for finite differences */
static double acc_init;
static double step_from(double x) {
  acc = acc_init;
  return step(x);
}

static double fd_global(double (*fn)(double), double x, double *p) {
  double keep = *p, h = 1e-6 * fmax(1.0, fabs(keep));
  volatile double vp = keep + h, vm = keep - h;
  *p = vp;
  double fp = fn(x);
  *p = vm;
  double fm = fn(x);
  *p = keep;
  return (fp - fm) / (vp - vm);
}

int main(void) {
  double x = lt_vd(0.7);
  /* reverse: dx, and the globals' adjoints added to the user's shadows */
  {
    dg = 0.25; /* not zeroed: the adjoint is added */
    for (int i = 0; i < 3; i++)
      dw[i] = 0;
    double dx = __enzyme_autodiff((void *)f, enzyme_out, x);
    double an = 2 * g * x;
    for (int i = 0; i < 3; i++)
      an += w[i] * (i + 1) * cos(x * (i + 1));
    lt_grad("reverse df/dx", x, dx, an, lt_fd(f, x), 1e-14, 1e-7);
    lt_grad("reverse df/dg (added to 0.25)", x, dg - 0.25, x * x, fd_global(f, x, &g),
            1e-14, 1e-7);
    for (int i = 0; i < 3; i++)
      lt_grad("reverse df/dw[i]", x, dw[i], sin(x * (i + 1)), fd_global(f, x, &w[i]),
              1e-14, 1e-7);
  }
  /* forward: the tangent of g (and of w[1]) from the shadows */
  {
    dg = 1;
    for (int i = 0; i < 3; i++)
      dw[i] = 0;
    double t = __enzyme_fwddiff((void *)f, x, 0.0);
    lt_grad("forward df/dg", x, t, x * x, fd_global(f, x, &g), 1e-14, 1e-7);
    dg = 0;
    dw[1] = 1;
    t = __enzyme_fwddiff((void *)f, x, 0.0);
    lt_grad("forward df/dw[1]", x, t, sin(2 * x), fd_global(f, x, &w[1]), 1e-14, 1e-7);
    dw[1] = 0;
    t = __enzyme_fwddiff((void *)f, x, 1.0);
    lt_grad("forward df/dx", x, t, 2 * g * x + w[0] * cos(x) + 2 * w[1] * cos(2 * x) +
                                        3 * w[2] * cos(3 * x),
            lt_fd(f, x), 1e-14, 1e-7);
  }
  /* a global updated in place: acc1 = acc0 x + g, result acc1^2 */
  {
    acc_init = lt_vd(0.8);
    double fd_x = lt_fd(step_from, x), fd_acc = fd_global(step_from, x, &acc_init),
           fd_g = fd_global(step_from, x, &g);
    acc = acc_init;
    dacc = 0;
    dg = 0;
    double dx = __enzyme_autodiff((void *)step, enzyme_out, x);
    double a1 = acc_init * x + g;
    lt_check("in place: acc updated once", acc, a1, 1e-15, 0);
    lt_grad("in place: df/dx", x, dx, 2 * a1 * acc_init, fd_x, 1e-14, 1e-7);
    lt_grad("in place: df/dacc0", x, dacc, 2 * a1 * x, fd_acc, 1e-14, 1e-7);
    lt_grad("in place: df/dg", x, dg, 2 * a1, fd_g, 1e-14, 1e-7);
  }
  return lt_done();
}
