// clang's default -ffp-contract=on makes `v += a * dt` a fmuladd(a, dt, v).
// With dt inactive, only a's partial (dt) is needed: neither a nor v is
// taped, so the contracted loop tapes what the uncontracted one does (the
// carried x, 8 bytes per iteration; before, 16: a was taped for dt's
// unused partial). The gradient is checked against a central difference.
// RUN: %ltclang -O2 -ffp-contract=on -Rpass-analysis=leantape %s -o %t.on -lm 2>&1 | FileCheck %s
// RUN: %ltclang -O2 -ffp-contract=off -Rpass-analysis=leantape %s -o %t.off -lm 2>&1 | FileCheck %s
// RUN: %t.on && %t.off
// RUN: %ltclang -O0 -ffp-contract=on %s -o %t.O0 -lm && %t.O0
// CHECK: loop (depth 1) in 'sim': caches 8 bytes per iteration: phi (double);
// CHECK-NOT: caches {{[0-9]+}} bytes per iteration

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

double sim(double k, double dt, int n) {
  double x = 1, v = 0;
  for (int i = 0; i < n; i++) {
    double a = -k * sin(x);
    v += a * dt;
    x += v * dt;
  }
  return x;
}

static double sk(double k) { return sim(k, 0.01, 100); }

int main(void) {
  double k = lt_vd(0.7);
  double g = __enzyme_autodiff((void *)sim, enzyme_out, k, enzyme_const,
                               lt_vd(0.01), enzyme_const, lt_vi(100));
  lt_check("dsim/dk", g, lt_fd(sk, k), 1e-6, 1e-9);
  return lt_done();
}
