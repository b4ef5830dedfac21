// Link-time differentiation: the differentiated function is here, its
// callee in another file and a function with a registered custom gradient
// in a third (test/Inputs/lto). Compiled with -flto (the plugin at the
// compile step leaves the __enzyme_* call for the link, and keeps the
// registration, which nothing refers to, alive for it) and differentiated
// at the link with lld's --load-pass-plugin: full LTO at -O2 and -O0, and
// ThinLTO for the callee alone (a registration in another module is not
// imported into a ThinLTO backend). Last, all three files compiled
// without the plugin (the calls and the registration reach the link as
// written) and linked with --undefined-glob='__enzyme_*', which keeps the
// registration the LTO link would otherwise drop unseen.
// The gradient is checked against the formula with the custom gradient's
// (deliberately 10x) derivative, and the custom gradient is seen called.
// RUN: %ltclang -flto -O2 -c %s -o %t.a.o
// RUN: %ltclang -flto -O2 -c %S/../Inputs/lto/callee.c -o %t.b.o
// RUN: %ltclang -flto -O2 -c %S/../Inputs/lto/custom.c -o %t.c.o
// RUN: %clang -flto -O2 -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.a.o %t.b.o %t.c.o -o %t.full -lm && %t.full
// RUN: %ltclang -flto=thin -O2 -DTHIN -c %s -o %t.a.t.o
// RUN: %ltclang -flto=thin -O2 -c %S/../Inputs/lto/callee.c -o %t.b.t.o
// RUN: %clang -flto=thin -O2 -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.a.t.o %t.b.t.o -o %t.thin -lm && %t.thin
// RUN: %clang -flto -O0 -fuse-ld=lld -Wl,--load-pass-plugin=%plugin %t.a.o %t.b.o %t.c.o -o %t.O0 -lm && %t.O0
// RUN: %clang -flto -O2 -c %s -o %t.a.n.o
// RUN: %clang -flto -O2 -c %S/../Inputs/lto/callee.c -o %t.b.n.o
// RUN: %clang -flto -O2 -c %S/../Inputs/lto/custom.c -o %t.c.n.o
// RUN: %clang -flto -O2 -fuse-ld=lld -Wl,--load-pass-plugin=%plugin '-Wl,--undefined-glob=__enzyme_*' %t.a.n.o %t.b.n.o %t.c.n.o -o %t.noplugin -lm && %t.noplugin

#include "check.h"
#include <leantape.h>
#include <math.h>

double lto_g(const double *x, int n); /* callee.c */
#ifdef THIN
static int lto_h_calls(void) { return 1; }
static double lto_h(double x) { return 10 * x * x * x; } /* the same derivative */
#else
double lto_h(double x); /* custom.c */
int lto_h_calls(void);
#endif

double f(const double *x, int n) { return lto_g(x, n) * lto_h(x[1]); }

int main(void) {
  enum { N = 4 };
  double x[N] = {0.3, -0.7, 1.1, 0.5}, dx[N] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N);
  /* d/dx_k of g(x) h(x1), with h' taken as the registered 30 x^2 */
  double g = 0, dg[N] = {0};
  for (int i = 0; i < N; i++) {
    int j = (i + 1) % N;
    g += x[i] * x[i] * sin(x[j]);
    dg[i] += 2 * x[i] * sin(x[j]);
    dg[j] += x[i] * x[i] * cos(x[j]);
  }
  g += exp(x[0]);
  dg[0] += exp(x[0]);
#ifdef THIN
  double h = 10 * x[1] * x[1] * x[1], dh = 30 * x[1] * x[1];
#else
  double h = x[1] * x[1] * x[1], dh = 30 * x[1] * x[1];
#endif
  for (int k = 0; k < N; k++) {
    char w[32];
    snprintf(w, sizeof w, "df/dx[%d]", k);
    lt_check(w, dx[k], dg[k] * h + (k == 1 ? g * dh : 0), 1e-12, 1e-14);
  }
  lt_check("custom gradient called", lto_h_calls() > 0, 1, 0, 0);
  return lt_done();
}
