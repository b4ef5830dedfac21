// Calls of entry points whose function is chosen by the program: at -O2
// SimplifyCFG merges the __enzyme_autodiff calls of an if/else chain into
// one call whose function is a phi (before the fix: "first argument must
// be a function defined in this module"), and a ternary between functions
// is a select at every level. The pass splits such a call into one call
// per function (front/target.c, lt_split_merged_calls), each checked
// against the analytic derivative: reverse mode with a float result,
// reverse mode through enzyme_dup shadows (void result), forward mode.
// Also a function-pointer variable set from a ternary (at -O0 a local
// copy of a select) and a constant table of functions indexed by data
// (before the fix both were "first argument must be a function defined
// in this module" at -O0, the table at every level; fuzz --entry).
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O3 %s -o %t3 -lm && %t3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

double __enzyme_fwddiff(void *, ...);

double f1(double x) { return sin(x) * x; }
double f2(double x) { return x * x * x; }
double f3(double x) { return exp(0.5 * x); }

__attribute__((noinline)) double grad_chain(int which, double x) {
  double d;
  if (which == 0)
    d = __enzyme_autodiff((void *)f1, x);
  else if (which == 1)
    d = __enzyme_autodiff((void *)f2, x);
  else
    d = __enzyme_autodiff((void *)f3, x);
  return d;
}

__attribute__((noinline)) double grad_ternary(int which, double x) {
  return __enzyme_autodiff((void *)(which ? f2 : f1), x);
}

__attribute__((noinline)) double grad_var(int which, double x) {
  void *fn = which ? (void *)f3 : (void *)f2;
  return __enzyme_autodiff(fn, x);
}

static void *const table[3] = {(void *)f2, (void *)f3, (void *)f1};
__attribute__((noinline)) double grad_table(int which, double x) {
  return __enzyme_autodiff(table[which], x);
}

void sq(const double *x, double *y) { *y = x[0] * x[0] + x[1]; }
void cb(const double *x, double *y) { *y = x[0] * x[1] * x[1]; }
__attribute__((noinline)) void grad_dup(int which, const double *x, double *dx) {
  double y, dy = 1;
  if (which)
    __enzyme_autodiff((void *)sq, enzyme_dup, x, dx, enzyme_dup, &y, &dy);
  else
    __enzyme_autodiff((void *)cb, enzyme_dup, x, dx, enzyme_dup, &y, &dy);
}

__attribute__((noinline)) double tangent_chain(int which, double x) {
  double t;
  if (which)
    t = __enzyme_fwddiff((void *)f1, x, 1.0);
  else
    t = __enzyme_fwddiff((void *)f3, x, 1.0);
  return t;
}

int main(void) {
  double x = lt_vd(0.8);
  double want[3] = {cos(x) * x + sin(x), 3 * x * x, 0.5 * exp(0.5 * x)};
  for (int k = 0; k < 3; k++)
    lt_check("if/else chain", grad_chain(lt_vi(k), x), want[k], 1e-14, 0);
  lt_check("ternary f1", grad_ternary(lt_vi(0), x), want[0], 1e-14, 0);
  lt_check("ternary f2", grad_ternary(lt_vi(1), x), want[1], 1e-14, 0);
  lt_check("variable f2", grad_var(lt_vi(0), x), want[1], 1e-14, 0);
  lt_check("variable f3", grad_var(lt_vi(1), x), want[2], 1e-14, 0);
  for (int k = 0; k < 3; k++)
    lt_check("table", grad_table(lt_vi(k), x), want[(k + 1) % 3], 1e-14, 0);
  double p[2] = {lt_vd(1.5), lt_vd(-0.7)}, dp[2] = {0, 0};
  grad_dup(lt_vi(1), p, dp);
  lt_check("dup sq d/dx0", dp[0], 2 * p[0], 1e-14, 0);
  lt_check("dup sq d/dx1", dp[1], 1, 1e-14, 0);
  dp[0] = dp[1] = 0;
  grad_dup(lt_vi(0), p, dp);
  lt_check("dup cb d/dx0", dp[0], p[1] * p[1], 1e-14, 0);
  lt_check("dup cb d/dx1", dp[1], 2 * p[0] * p[1], 1e-14, 0);
  lt_check("forward f1", tangent_chain(lt_vi(1), x), want[0], 1e-14, 0);
  lt_check("forward f3", tangent_chain(lt_vi(0), x), want[2], 1e-14, 0);
  return lt_done();
}
