// Pointers chosen by a ternary on an int and by a branch on active data:
// the shadow pointer must follow the same choice.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>

/* p = which ? a : b ; q = a0 > b0 ? a : b ; f = p0 * q1 + p1 */
double f(const double *a, const double *b, int which) {
  const double *p = which ? a : b;
  const double *q;
  if (a[0] > b[0])
    q = a;
  else
    q = b;
  return p[0] * q[1] + p[1];
}

int main(void) {
  for (int w = 0; w < 2; w++) {
    for (int big = 0; big < 2; big++) {
      double a[2] = {lt_vd(big ? 3.0 : 1.0), lt_vd(-1.5)};
      double b[2] = {lt_vd(2.0), lt_vd(0.75)};
      double da[2] = {0, 0}, db[2] = {0, 0};
      double wa[2] = {0, 0}, wb[2] = {0, 0};
      const double *p = w ? a : b, *q = a[0] > b[0] ? a : b;
      double *dp = w ? wa : wb, *dq = a[0] > b[0] ? wa : wb;
      dp[0] += q[1];
      dp[1] += 1.0;
      dq[1] += p[0];
      __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_dup, b, db,
                        enzyme_const, lt_vi(w));
      lt_check("da0", da[0], wa[0], 1e-12, 1e-14);
      lt_check("da1", da[1], wa[1], 1e-12, 1e-14);
      lt_check("db0", db[0], wb[0], 1e-12, 1e-14);
      lt_check("db1", db[1], wb[1], 1e-12, 1e-14);
    }
  }
  return lt_done();
}
