// Static (internal) callees that stay calls: at -O2 LLVM gives internal
// functions whose address is not taken the fastcc convention, and a
// derivative called with another convention than its own is undefined
// behaviour (instcombine made the call unreachable: every adjoint came out
// 0, or the program crashed; fuzz --calls). Shapes: a static recursive
// helper, static mutual recursion, a static recursive helper called in a
// loop. Gradients against central finite differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

static double hr(double v, int d) {
  if (d <= 0)
    return tanh(v);
  return tanh(0.5 * hr(cos(v), d - 1) + v);
}
double f1(double *x, int n) { return hr(x[0], n) + 0.5 * x[1]; }

static double ev(double v, int d);
static double od(double v, int d) { return d <= 0 ? sin(v) : v * ev(v * 0.9, d - 1); }
static double ev(double v, int d) { return d <= 0 ? cos(v) : od(v + 0.1, d - 1) + v; }
double f2(double *x, int n) { return ev(x[0], n) * x[1]; }

double f3(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += hr(x[i % 2] * (i + 1) * 0.1, i % 4);
  return s;
}

static int nn;
static double (*cur)(double *, int);
static double fx(const double *x) { return cur((double *)x, nn); }

static void check(const char *name, double (*f)(double *, int), int n,
                  const double *x, const double *dx) {
  cur = f;
  nn = n;
  for (int i = 0; i < 2; i++) {
    char what[64];
    snprintf(what, sizeof what, "%s dx[%d]", name, i);
    lt_check(what, dx[i], lt_fd_arr(fx, x, 2, i), 1e-6, 1e-9);
  }
}

#define CHECK(name, f, n)                                                      \
  do {                                                                         \
    double x[2] = {lt_vd(0.3), lt_vd(0.7)}, dx[2] = {0, 0};                    \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, n);          \
    check(name, f, n, x, dx);                                                  \
  } while (0)

int main(void) {
  CHECK("recursive", f1, lt_vi(3));
  CHECK("mutual", f2, lt_vi(5));
  CHECK("in a loop", f3, lt_vi(9));
  return lt_done();
}
