// Recursion: the recursive callee keeps its calls and gets its own
// augmented forward and reverse; a tape per activation (the callee's tape
// is on the heap while its derivative is being built), freed by the
// reverse pass exactly once. Mutual recursion with a scalar, a tree
// recursion over halves of an array, and a recursion with a loop inside
// called from a loop.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

double g(double x, int n);
__attribute__((noinline)) double h(double x, int n) {
  if (n <= 0)
    return x;
  return sin(x) * g(x, n - 1);
}
__attribute__((noinline)) double g(double x, int n) { return h(x * 2.0, n) * x; }
static double g3(double x) { return g(x, 3); }

/* a tree over [lo, hi): products of the halves, and a sin of one half */
double tree(const double *x, int lo, int hi) {
  if (hi - lo == 1)
    return x[lo] * x[lo];
  int m = (lo + hi) / 2;
  return tree(x, lo, m) * tree(x, m, hi) + sin(tree(x, m, hi));
}

/* a recursion with a loop inside, called from a loop */
double walk(double *y, int n, int depth) {
  if (depth == 0)
    return 0;
  double s = 0;
  for (int i = 0; i < n; i++) {
    y[i] = y[i] * 0.5 + sin(y[(i + 1) % n]);
    s += y[i] * y[i];
  }
  return s + walk(y, n, depth - 1);
}
double outer(double *y, int n) {
  double s = 0;
  for (int r = 0; r < 3; r++)
    s += walk(y, n, r + 1) * (r + 1);
  return s;
}

int main(void) {
  double x = lt_vd(0.3);
  lt_check("mutual recursion", __enzyme_autodiff((void *)g, x, enzyme_const, 3),
           lt_fd(g3, x), 1e-6, 1e-8);
  double v[7] = {0.1, 0.2, -0.3, 0.4, 0.5, 0.6, 0.7}, dv[7] = {0};
  lt_fill(v, v, 7);
  __enzyme_autodiff((void *)tree, v, dv, enzyme_const, 0, enzyme_const, 7);
  for (int k = 0; k < 7; k++) {
    double h = 1e-6, p = v[k];
    v[k] = p + h;
    double a = tree(v, 0, 7);
    v[k] = p - h;
    double b = tree(v, 0, 7);
    v[k] = p;
    lt_check("tree recursion", dv[k], (a - b) / (2 * h), 1e-6, 1e-8);
  }
  double y[4] = {0.3, -0.2, 0.9, 0.5}, dy[4] = {0}, y0[4];
  memcpy(y0, y, sizeof y);
  __enzyme_autodiff((void *)outer, y, dy, enzyme_const, 4);
  for (int k = 0; k < 4; k++) {
    double h = 1e-6, t[4];
    memcpy(t, y0, sizeof t);
    t[k] += h;
    double a = outer(t, 4);
    memcpy(t, y0, sizeof t);
    t[k] -= h;
    double b = outer(t, 4);
    lt_check("recursion with a loop, in a loop", dy[k], (a - b) / (2 * h), 1e-6, 1e-8);
  }
  return lt_done();
}
