// A recursive callee (hence kept as a call) called 1e5 times in a loop
// whose trip count is known before the loop: the loop's cache holds one
// record per iteration with the call's tape (in place; inside it the
// recursive activations' tapes are on the heap) and is preallocated once
// from the trip count, not grown. The gradient over all 1e5 iterations is
// checked against its closed form, in combined and split mode, and the
// remark names the call's tape inside the loop's preallocated cache.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %ltclang -O0 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ltclang -O2 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: loop {{.*}}in 'hot': caches {{[0-9]+}} bytes per iteration: {{.*}}tape of the call to 'rp'{{.*}}; cache preallocated once from the trip count

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* rp(x, k) = x^(k+1), by recursion */
double rp(double x, int k) {
  if (k <= 0)
    return x;
  return x * rp(x, k - 1);
}

/* s = sum_i rp(a[i & 7] * w, 2) = sum_i (a[i&7] w)^3 */
double hot(const double *a, double w, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += rp(a[i & 7] * w, 2);
  return s;
}

int main(void) {
  enum { N = 100000 };
  const double a0[8] = {0.5, -0.25, 0.75, 1.0, -0.5, 0.125, 0.3, -0.8};
  double a[8], da[8] = {0}, w = lt_vd(0.9);
  lt_fill(a, a0, 8);
  int n = lt_vi(N);
  double dw = __enzyme_autodiff((void *)hot, enzyme_dup, a, da, enzyme_out, w,
                                enzyme_const, n);
  /* each a_j is used N/8 times */
  double an_w = 0;
  for (int j = 0; j < 8; j++) {
    an_w += (N / 8) * 3 * a[j] * a[j] * a[j] * w * w;
    lt_check("hot loop: da", da[j], (N / 8) * 3 * a[j] * a[j] * w * w * w,
             1e-11, 1e-11);
  }
  lt_check("hot loop: dw", dw, an_w, 1e-11, 1e-11);
  lt_check("hot loop: primal", hot(a, w, n), an_w * w / 3, 1e-11, 1e-11);

  /* split mode: the same records, across two calls */
  double db[8] = {0}, wb = lt_vd(-1.1);
  void *tape = __enzyme_augmentfwd((void *)hot, enzyme_dup, a, db, enzyme_const,
                                   wb, enzyme_const, n);
  __enzyme_reverse((void *)hot, enzyme_dup, a, db, enzyme_const, wb,
                   enzyme_const, n, lt_vd(2.0), tape);
  for (int j = 0; j < 8; j++)
    lt_check("hot loop, split: da", db[j],
             2.0 * (N / 8) * 3 * a[j] * a[j] * wb * wb * wb, 1e-11, 1e-11);
  return lt_done();
}
