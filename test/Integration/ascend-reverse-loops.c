// Reverse loops that run upwards (gen/ascend.c): where a reverse loop's
// iterations commute (apart but for accumulations, or each touching its
// own element), R runs them in the primal's order; where LLVM cannot tell
// a shadow that is read and zeroed from another's additions (plain
// pointers), a run-time test picks the upward loop or the loop as it was.
// Shapes, each with plain pointers, against central differences at -O0,
// -O2 and -O3:
//  - y[i] = f(x[i]);
//  - a three-point stencil b[i] = g(a[i-1], a[i], a[i+1]) (with b == a: a
//    Gauss-Seidel sweep, whose order matters: the test fails);
//  - a loop the primal runs downwards;
//  - an in-place update that tapes the old value;
//  - a dot product (accumulations into both shadows);
//  - y[i] += f(x[i-1]) (with y == x a recurrence, whose reverse must stay
//    downward);
//  - a sum into one element (an accumulation to one address);
// each with its output apart from its input, the input itself, and one
// element past it, chosen at run time.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
#include "loopcheck.h"
#include <stdio.h>

#define N 37

__attribute__((noinline)) void map(const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] = 0.5 * sin(x[i]) * x[i] + 0.3 * x[i];
}

__attribute__((noinline)) void stencil(const double *a, double *b, int n) {
  for (int i = 1; i < n - 1; i++)
    b[i] = 0.25 * a[i - 1] + 0.5 * a[i] + 0.25 * a[i + 1] - 0.1 * a[i] * a[i] * a[i];
}

__attribute__((noinline)) void down(const double *x, double *y, int n) {
  for (int i = n - 1; i >= 0; i--)
    y[i] = exp(0.3 * x[i]) + x[i] * x[i] * x[i];
}

__attribute__((noinline)) void square_in_place(double *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = x[i] * x[i] + sin(x[i]);
}

__attribute__((noinline)) double dot(const double *x, const double *y, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * y[i];
  return s;
}

__attribute__((noinline)) void recur(const double *x, double *y, int n) {
  for (int i = 1; i < n; i++)
    y[i] += 0.6 * sin(x[i - 1]) * x[i - 1];
}

__attribute__((noinline)) void sum_into(const double *x, double *acc, int n) {
  for (int i = 0; i < n; i++)
    acc[0] += x[i] * x[i];
}

static double weigh(const double *v, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    e += v[i] * v[i] * (1 + 0.05 * i) + 0.3 * v[i];
  return e;
}

/* x: N + 1 doubles, w: N; out is w, x or x + 1, chosen at run time (the
 * compiler cannot tell which: the in-place cases reach the run-time
 * test, not a loop LLVM specialised) */
double objective(double *x, double *w, int shape, int sel) {
  double *out = sel == 0 ? w : sel == 1 ? x : x + 1;
  switch (shape) {
  case 0: map(x, out, N); break;
  case 1: stencil(x, out, N); break;
  case 2: down(x, out, N); break;
  case 3: square_in_place(out, N); break;
  case 4: return dot(x, out, N) * dot(x, x, N) + weigh(w, N);
  case 5: recur(x, out, N); break;
  default: sum_into(x, out, N); break;
  }
  return weigh(x, N + 1) + weigh(w, N);
}

#define M (2 * N + 1)
struct ctx { int shape, sel; };

/* z: x then w */
static double fd_obj(double *z, void *p) {
  const struct ctx *cx = p;
  double x[N + 1], w[N];
  memcpy(x, z, sizeof x);
  memcpy(w, z + N + 1, sizeof w);
  return objective(x, w, cx->shape, cx->sel);
}

int main(void) {
  for (int shape = 0; shape <= 6; shape++)
    for (int sel = 0; sel < 3; sel++) {
      double z[M], fd[M], ad[M], x[N + 1], w[N], dx[N + 1] = {0}, dw[N] = {0};
      struct ctx cx = {shape, sel};
      lt_data(z, M, -1.2, 1.3, 3 * shape + sel + 1);
      lt_fd_grad(fd_obj, z, M, &cx, fd);
      memcpy(x, z, sizeof x);
      memcpy(w, z + N + 1, sizeof w);
      __enzyme_autodiff((void *)objective, enzyme_dup, x, dx, enzyme_dup, w, dw, enzyme_const,
                        shape, enzyme_const, sel);
      memcpy(ad, dx, sizeof dx);
      memcpy(ad + N + 1, dw, sizeof dw);
      char what[32];
      snprintf(what, sizeof what, "shape %d sel %d", shape, sel);
      lt_gradv(what, M, ad, fd, NULL, 1e-6, 1e-6);
    }
  return lt_done();
}
