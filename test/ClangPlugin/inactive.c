// REQUIRES: clang-plugin
// enzyme_inactive through the clang plugin (clang -fplugin= alone, which
// also runs the pass), with Enzyme's spellings:
//  - on a function this file defines (a clang annotation): the call runs,
//    once per call of the differentiated function, and contributes nothing
//    to the derivative although its result depends on x and is used;
//  - on a function declared here and defined in another file (a
//    registration global, __enzyme_inactivefn_autoreg_<n>);
//  - enzyme_inactive_noblock, the same for Leantape;
//  - on a function that returns its argument (a stop-gradient), whose
//    parameter the optimiser marks `returned` at -O2: the argument must not
//    stand in for the call's result before the pass runs (d/dx x pass(x)
//    was 2x, not x);
//  - on globals: with -mllvm -leantape-global-shadows (which needs no
//    -Xclang -load with the clang plugin, on LLVM 19 either) the inactive
//    global gets no shadow, the other mutable one does.
// Derivatives against the analytic ones and central differences of the
// function without its inactive part.
// RUN: %fpluginclang -O0 %s %S/../Inputs/clang-plugin/defs.c -o %t.O0 -lm && %t.O0
// RUN: %fpluginclang -O2 %s %S/../Inputs/clang-plugin/defs.c -o %t.O2 -lm && %t.O2
// RUN: %fpluginclang -O0 -mllvm -leantape-global-shadows %s %S/../Inputs/clang-plugin/defs.c -o %t.gs -lm && %t.gs
// RUN: %fpluginclang -O2 -mllvm -leantape-global-shadows -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll && FileCheck %s --check-prefix=NOREG < %t.ll
// The registrations (before the pass, which deletes them once read):
// RUN: %fpluginclang -O2 -S -emit-llvm -Xclang -disable-llvm-passes %s -o - | FileCheck %s --check-prefix=REG
// Without the clang plugin the attributes are unknown to clang:
// RUN: %clang -fsyntax-only %s 2>&1 | FileCheck %s --check-prefix=NOPLUGIN
// REG-DAG: @__enzyme_inactivefn_autoreg_{{[0-9]+}} = internal global ptr @ext_scale
// REG-DAG: @__enzyme_inactive_global_autoreg_{{[0-9]+}} = internal global ptr @ext_table
// NOREG-NOT: autoreg
// CHECK-DAG: @scratch.lt.shadow = internal global [2 x double] zeroinitializer
// CHECK-NOT: @quiet.lt.shadow
// NOPLUGIN: warning: unknown attribute 'enzyme_inactive' ignored

#include "check.h"
#include "testutil.h"
#include <leantape.h>

/* defined here */
static int n_logged;
static double last_logged;
__attribute__((enzyme_inactive)) double logger(double v) {
  n_logged++;
  last_logged = v;
  return 3.0 * v * v;
}
double with_logger(double x) { return x * x + logger(x); }
double ref_logger(double x) { return x * x; }

/* declared here, defined in Inputs/clang-plugin/defs.c */
extern int n_ext;
__attribute__((enzyme_inactive)) double ext_scale(double v);
double with_ext(double x) { return x * x * x + ext_scale(x) * x; }
double ref_ext(double x) { return x * x * x; }
/* ... and the term the inactive call's result still scales: d/dx of
 * ext_scale(x) * x with ext_scale(x) constant is ext_scale(x) */

/* returns its argument */
static int n_pass;
__attribute__((enzyme_inactive, noinline)) double pass_through(double v) {
  n_pass++;
  return v;
}
double with_pass(double x) { return x * pass_through(x); }

/* noblock */
static int n_ticks;
__attribute__((enzyme_inactive_noblock)) double tick(double v) {
  n_ticks++;
  return v * v * v;
}
double with_tick(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] + tick(x[i]);
  return s;
}

/* globals: scratch carries active data (a shadow under the option), quiet
 * only inactive data, and says so */
double scratch[2];
double quiet[2] __attribute__((enzyme_inactive));
extern double ext_table[4] __attribute__((enzyme_inactive));
double with_globals(double x) {
  quiet[0] = ext_table[1] * 0.5;
  scratch[0] = x * x;
  scratch[1] = scratch[0] * quiet[0];
  return scratch[1] + quiet[0];
}
double ref_globals(double x) { return x * x * ext_table[1] * 0.5 + ext_table[1] * 0.5; }

int main(void) {
  {
    double x = lt_vd(1.25);
    n_logged = 0;
    double dx = __enzyme_autodiff((void *)with_logger, enzyme_out, x);
    lt_grad("logger (defined here)", x, dx, 2 * x, lt_fd(ref_logger, x), 1e-15, 1e-7);
    lt_check("logger: ran once", n_logged, 1, 0, 0);
    lt_check("logger: saw the primal argument", last_logged, x, 0, 0);
  }
  {
    double x = lt_vd(0.75);
    n_ext = 0;
    double dx = __enzyme_autodiff((void *)with_ext, enzyme_out, x);
    double s = 5.0 * x * x;
    lt_grad("ext_scale (defined elsewhere)", x, dx, 3 * x * x + s,
            lt_fd(ref_ext, x) + s, 1e-14, 1e-7);
    lt_check("ext_scale: ran once", n_ext, 1, 0, 0);
  }
  {
    double x = lt_vd(1.75);
    n_pass = 0;
    double dx = __enzyme_autodiff((void *)with_pass, enzyme_out, x);
    lt_check("pass_through (returns its argument): d/dx x pass(x) = x", dx, x, 1e-15, 0);
    lt_check("pass_through: ran once", n_pass, 1, 0, 0);
  }
  {
    double x[3] = {lt_vd(0.5), lt_vd(-1.5), lt_vd(2.0)}, dx[3] = {0};
    n_ticks = 0;
    __enzyme_autodiff((void *)with_tick, enzyme_dup, x, dx, enzyme_const, lt_vi(3));
    for (int i = 0; i < 3; i++)
      lt_check("noblock tick: dx = 2x", dx[i], 2 * x[i], 1e-15, 0);
    lt_check("noblock tick: ran once per iteration", n_ticks, 3, 0, 0);
  }
  {
    double x = lt_vd(1.5);
    double dx = __enzyme_autodiff((void *)with_globals, enzyme_out, x);
    lt_grad("globals", x, dx, 2 * x * ext_table[1] * 0.5, lt_fd(ref_globals, x),
            1e-15, 1e-7);
    lt_check("globals: primal", with_globals(x), ref_globals(x), 1e-15, 0);
  }
  return lt_done();
}
