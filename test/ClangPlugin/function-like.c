// REQUIRES: clang-plugin
// enzyme_function_like("name") through the clang plugin: calls of the
// function are differentiated as calls of the named one. mylog1p's body
// computes 2a (so the primal keeps its own body and the derivative is
// log1p's, 1/(1 + a), not 2), alone, in a loop, and with C23's
// [[enzyme::function_like("exp")]] spelling; the bodies of mysqrt and
// myexp end in inline assembly, which has no derivative (an error without
// the attribute).
// Derivatives against the analytic ones and central differences of the
// named function.
// RUN: %fpluginclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %fpluginclang -O2 %s -o %t.O2 -lm && %t.O2
// The annotations in the IR are the pass's to read, under opt too:
// RUN: %fpluginclang -O0 -Xclang -disable-llvm-passes -S -emit-llvm %s -o %t.ll
// RUN: %ltopt -passes=leantape %t.ll -S -o %t.ad.ll && %clang %t.ad.ll -o %t.opt -lm && %t.opt
// RUN: %fpluginclang -O2 -std=c2x %s -o %t.c2x -lm && %t.c2x
// Without the attribute (clang without the plugin drops it), the assembly
// body is an error:
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// NOPLUGIN: warning: unknown attribute 'enzyme_function_like' ignored
// NOPLUGIN: error: leantape:

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

__attribute__((enzyme_function_like("log1p"))) double mylog1p(double a) {
  return 2.0 * a;
}
double like_one(double a) { return mylog1p(a) * 3.0; }
double like_loop(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += mylog1p(a[i] * a[i]);
  return s;
}

__attribute__((enzyme_function_like("sqrt"))) double mysqrt(double a) {
  double r = sqrt(a);
  __asm__ volatile("" : "+x"(r));
  return r;
}
double with_sqrt(double a) { return mysqrt(a * a + 1.0); }
double ref_sqrt(double a) { return sqrt(a * a + 1.0); }

#if __STDC_VERSION__ > 201710L
[[enzyme::function_like("exp")]]
#else
__attribute__((enzyme_function_like("exp")))
#endif
double myexp(double a) {
  double r = exp(a);
  __asm__ volatile("" : "+x"(r));
  return r;
}
double with_exp(double a) { return myexp(2.0 * a); }
double ref_exp(double a) { return exp(2.0 * a); }

double ref_log1p3(double a) { return 3.0 * log1p(a); }

int main(void) {
  {
    double a = lt_vd(0.6);
    double da = __enzyme_autodiff((void *)like_one, enzyme_out, a);
    lt_grad("like log1p: 3/(1+a), not 6", a, da, 3.0 / (1.0 + a), lt_fd(ref_log1p3, a),
            1e-15, 1e-7);
    lt_check("like log1p: primal body unchanged", like_one(a), 6.0 * a, 1e-15, 0);
    double v[3] = {lt_vd(0.5), lt_vd(-0.3), lt_vd(1.2)}, dv[3] = {0};
    __enzyme_autodiff((void *)like_loop, enzyme_dup, v, dv, enzyme_const, lt_vi(3));
    for (int i = 0; i < 3; i++)
      lt_check("like log1p in a loop: dv", dv[i], 2 * v[i] / (1.0 + v[i] * v[i]),
               1e-15, 0);
  }
  {
    double a = lt_vd(0.8);
    double da = __enzyme_autodiff((void *)with_sqrt, enzyme_out, a);
    lt_grad("like sqrt (assembly body)", a, da, a / sqrt(a * a + 1.0), lt_fd(ref_sqrt, a),
            1e-15, 1e-7);
  }
  {
    double a = lt_vd(0.35);
    double da = __enzyme_autodiff((void *)with_exp, enzyme_out, a);
    lt_grad("like exp", a, da, 2.0 * exp(2.0 * a), lt_fd(ref_exp, a), 1e-15, 1e-7);
  }
  return lt_done();
}
