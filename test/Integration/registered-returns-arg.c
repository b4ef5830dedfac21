// Registered functions that return an argument: the optimiser reads their
// bodies and marks the parameter `returned`, and would then use the
// argument for the call's result, so that the derivative passed around the
// registration (before the fix, at -O1..-O3: d/dx x * stop(x) = 2x, and
// sin(clip(x)) got clip's true derivative, not its rule). From
// PipelineStart until the pass runs, their calls go to an opaque
// declaration (front/annotate.c, opaque_calls).
//  - stop: __enzyme_inactivefn (a stop-gradient): d/dx x stop(x) = x;
//  (the enzyme_inactive attribute of the clang plugin: ClangPlugin/inactive.c)
//  - clip: a registered gradient (deliberately 0.5 where the true
//    derivative is 1): d/dx sin(clip(x)) = 0.5 cos(x);
//  - pick: inactive, returning its pointer argument: d/dp0 p0 pick(p)[0]
//    = p0 (what it returns carries no derivative).
// Also under -flto (the compile step restores the calls before writing
// bitcode; the link differentiates): full LTO.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O1 %s -o %t1 -lm && %t1
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O3 %s -o %t3 -lm && %t3
// RUN: %ltclang -flto -O2 -c %s -o %t.lto.o
// RUN: not grep -q 'lt\.opaque' %t.lto.o
// RUN: %clang -flto -O2 -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.lto.o -o %t.lto -lm && %t.lto

#include "check.h"
#include <leantape.h>
#include <math.h>

__attribute__((noinline)) double stop(double x) {
  __asm__ volatile("" ::: "memory");
  return x;
}
void *__enzyme_inactivefn_stop = (void *)stop;

int n_clip_grad;
__attribute__((noinline)) double clip(double x) { return x; }
double aug_clip(double x) { return x; }
double grad_clip(double x, double dret) {
  (void)x;
  n_clip_grad++;
  return 0.5 * dret;
}
void *__enzyme_register_gradient_clip[3] = {(void *)clip, (void *)aug_clip, (void *)grad_clip};

__attribute__((noinline)) double *pick(double *p) {
  __asm__ volatile("" ::: "memory");
  return p;
}
void *__enzyme_inactivefn_pick = (void *)pick;

double f_stop(double x) { return x * stop(x); }
double f_clip(double x) { return sin(clip(x)); }
double f_pick(double *p) { return p[0] * pick(p)[0]; }

int main(void) {
  double x = 1.7;
  lt_check("d/dx x stop(x) = x", __enzyme_autodiff((void *)f_stop, x), x, 1e-14, 0);
  lt_check("d/dx sin(clip(x)) = 0.5 cos(x) (the rule's)", __enzyme_autodiff((void *)f_clip, x),
           0.5 * cos(x), 1e-14, 0);
  lt_check("clip's rule ran", n_clip_grad, 1, 0, 0);
  double p[1] = {x}, dp[1] = {0};
  __enzyme_autodiff((void *)f_pick, enzyme_dup, p, dp);
  lt_check("d/dp0 p0 pick(p)[0] = p0", dp[0], x, 1e-14, 0);
  return lt_done();
}
