// Loops stepping by a run-time stride (ADBench's LSTM: t += b, i += 2 * b),
// with inner loops: the trip count of a counter with an invariant step is
// ceil((bound - start) / step), so every cache is allocated once before its
// nest; at -O2 the increment is also sunk into both arms of a branch and
// merged by a PHI in the latch. (Before, every cache grew geometrically.)
// Gradients against central finite differences.
// RUN: %ltclang -O0 -Rpass-analysis=leantape %s -o %t.O0 -lm 2>&1 | FileCheck %s
// RUN: %ltclang -O2 -Rpass-analysis=leantape %s -o %t.O2 -lm 2>&1 | FileCheck %s
// RUN: %t.O0 && %t.O2
// CHECK-NOT: grows geometrically
// CHECK: preallocated once from the trip count
// CHECK-NOT: grows geometrically

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

#define NMAX 64

double strided(const double *w, const double *seq, int c, int b) {
  double h[8] = {0}, total = 0;
  for (int t = 0; t <= (c - 1) * b - 1; t += b) {
    for (int i = 0; i < b; i++)
      h[i] = tanh(h[i] * w[i] + seq[t + i] * w[b + i]);
    double s = 0;
    for (int i = 0; i < b; i++)
      s += exp(h[i]);
    for (int i = 0; i < b; i++)
      total += seq[t + b + i] * (h[i] - log(s));
    if (total > 1e9) /* a branch the increment is sunk into at -O2 */
      total *= 0.5;
  }
  return total;
}

static double SEQ[NMAX];
static int CC, BB;
static double fx(const double *w) { return strided(w, SEQ, CC, BB); }

int main(void) {
  CC = lt_vi(6);
  BB = lt_vi(4);
  for (int i = 0; i < NMAX; i++)
    SEQ[i] = lt_vd(0.3 * sin(1.7 * i));
  double w[8], dw[8] = {0};
  for (int i = 0; i < 8; i++)
    w[i] = lt_vd(0.2 + 0.1 * i);
  __enzyme_autodiff((void *)strided, enzyme_dup, w, dw, enzyme_const, SEQ,
                    enzyme_const, CC, enzyme_const, BB);
  for (int i = 0; i < 8; i++) {
    char what[32];
    snprintf(what, sizeof what, "d/dw[%d]", i);
    lt_check(what, dw[i], lt_fd_arr(fx, w, 8, i), 1e-6, 1e-9);
  }
  return lt_done();
}
