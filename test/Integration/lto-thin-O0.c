// ThinLTO at -O0: the backends of the link run no extension point at -O0
// (LLVM's buildThinLTODefaultPipeline returns before them), so the
// compile step differentiates (before the fix it left the call to the
// link, which then failed: undefined symbol __enzyme_autodiff). Compiled
// and linked in two steps (lld with the plugin, and at -O2, which runs
// the pass again on the differentiated module) and in one, which loads
// no plugin into the linker. A callee in another file cannot be
// differentiated there: an error at the call, naming ThinLTO at -O0
// (CROSS); the same files work at -O1 and with full LTO at -O0, whose
// link differentiates.
// RUN: %ltclang -flto=thin -O0 -c %s -o %t.o
// RUN: %clang -flto=thin -O0 -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.o -o %t -lm && %t
// RUN: %clang -flto=thin -O2 -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.o -o %t.O2 -lm && %t.O2
// RUN: %ltclang -flto=thin -O0 -fuse-ld=lld %s -o %t.one -lm && %t.one
// RUN: not %ltclang -flto=thin -O0 -g -DCROSS -c %s -o %t.x.o 2>&1 | FileCheck %s --check-prefix=CROSS
// RUN: %ltclang -flto=thin -O1 -DCROSS -c %s -o %t.a1.o
// RUN: %ltclang -flto=thin -O1 -c %S/../Inputs/lto/callee.c -o %t.b1.o
// RUN: %clang -flto=thin -O1 -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.a1.o %t.b1.o -o %t.O1 -lm && %t.O1
// RUN: %ltclang -flto -O0 -DCROSS -c %s -o %t.af.o
// RUN: %ltclang -flto -O0 -c %S/../Inputs/lto/callee.c -o %t.bf.o
// RUN: %clang -flto -O0 -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.af.o %t.bf.o -o %t.full -lm && %t.full

#include "check.h"
#include <leantape.h>
#include <math.h>

#ifdef CROSS
double lto_g(const double *x, int n); /* Inputs/lto/callee.c */
#else
double lto_g(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * sin(x[(i + 1) % n]);
  return s + exp(x[0]);
}
#endif

// CROSS: lto-thin-O0.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: no derivative rule for 'lto_g'; {{.*}}; ThinLTO at -O0 differentiates in each compile step, which sees this file only: define the callee here, or use -O1 or full LTO (-flto)
double f(const double *x, int n) { return lto_g(x, n) * x[1] * x[1]; }

int main(void) {
  enum { N = 4 };
  double x[N] = {0.3, -0.7, 1.1, 0.5}, dx[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  /* d/dx_k of g(x) x1^2 */
  double g = 0, dg[N] = {0};
  for (int i = 0; i < N; i++) {
    int j = (i + 1) % N;
    g += x[i] * x[i] * sin(x[j]);
    dg[i] += 2 * x[i] * sin(x[j]);
    dg[j] += x[i] * x[i] * cos(x[j]);
  }
  g += exp(x[0]);
  dg[0] += exp(x[0]);
  for (int k = 0; k < N; k++) {
    char w[32];
    snprintf(w, sizeof w, "df/dx[%d]", k);
    lt_check(w, dx[k], dg[k] * x[1] * x[1] + (k == 1 ? 2 * g * x[1] : 0), 1e-12,
             1e-14);
  }
  return lt_done();
}
