// Locals of the differentiated function under __enzyme_autodiff: A and R
// share one frame (prep/frame.c), so R reads a local array again where
// nothing writes it after the read, instead of taping every read
// (GradBench's gmm: Qdiags written once, read n·k·d times). Each shape
// against central differences at -O0 and -O2:
//   once:   q[i] = exp(x[i]) once, then read m times: re-read, no tape;
//   inloop: a local declared in a loop body (lifetime markers each
//           iteration), overwritten each iteration: its reads are taped;
//   vla:    a variable-length local (stackrestore ends it): taped;
//   later:  a local read, then overwritten: the first read is taped;
//   callee: a local a kept callee writes after it is read;
//   choose: a pointer to one of two locals, picked by the data.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O2 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: loop (depth 2) in 'once': caches nothing per iteration; {{[0-9]+}} recomputed, 2 re-loaded
// CHECK: remark: loop (depth 1) in 'later': caches {{[0-9]+}} bytes per iteration: load (double, line {{[0-9]+}}), load (double, line

#include "check.h"
#include <leantape.h>
#include <stdio.h>
#include <string.h>

#define NI __attribute__((noinline))
#define N 7

NI double once(const double *x, int n, int m) {
  double q[16];
  for (int i = 0; i < n; i++)
    q[i] = exp(0.3 * x[i]);
  double s = 0;
  for (int t = 0; t < m; t++)
    for (int i = 0; i < n; i++)
      s += q[i] * q[i] * x[i] * (t + 1);
  return s;
}

NI double inloop(const double *x, int n, int m) {
  double s = 0;
  for (int t = 0; t < m; t++) {
    double tmp[16];
    for (int i = 0; i < n; i++)
      tmp[i] = x[i] * (t + 1) + x[(i + 1) % n];
    for (int i = 0; i < n; i++)
      s += tmp[i] * tmp[i] * x[i];
  }
  return s;
}

NI double vla(const double *x, int n, int m) {
  double s = 0;
  for (int t = 0; t < m; t++) {
    double v[n];
    for (int i = 0; i < n; i++)
      v[i] = sin(x[i] + t);
    for (int i = 0; i < n; i++)
      s += v[i] * v[(i + 1) % n];
  }
  return s;
}

NI double later(const double *x, int n, int m) {
  double q[16], s = 0;
  for (int i = 0; i < n; i++)
    q[i] = x[i] * x[i];
  for (int i = 0; i < n; i++)
    s += q[i] * q[(i + m) % n];
  for (int i = 0; i < n; i++)
    q[i] = cos(x[i]);
  for (int i = 0; i < n; i++)
    s += q[i] * x[i];
  return s;
}

NI void scale(double *q, int n, double c) {
  for (int i = 0; i < n; i++)
    q[i] = q[i] * c + 1.0;
}

NI double callee(const double *x, int n, int m) {
  double q[16], s = 0;
  for (int i = 0; i < n; i++)
    q[i] = x[i];
  for (int t = 0; t < m; t++) {
    for (int i = 0; i < n; i++)
      s += q[i] * q[i];
    scale(q, n, 0.5 + t);
  }
  return s;
}

NI double choose(const double *x, int n, int m) {
  double a[16], b[16], s = 0;
  for (int i = 0; i < n; i++) {
    a[i] = x[i] * 2;
    b[i] = x[i] * x[i];
  }
  for (int t = 0; t < m; t++) {
    double *p = x[t % n] > 0.5 ? a : b;
    for (int i = 0; i < n; i++)
      s += p[i] * p[(i + 1) % n];
    p[t % n] = x[(t + 2) % n];
  }
  return s;
}

/* the derivative of f at x against central differences, m = 1 and 4 */
#define GRAD(f)                                                                 \
  for (int m = 1; m <= 4; m += 3) {                                              \
    double x[N], dx[N];                                                          \
    for (int k = 0; k < N; k++)                                                  \
      x[k] = 0.2 + 0.13 * ((k * 5) % N);                                         \
    memset(dx, 0, sizeof dx);                                                    \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, m); \
    fd_check(#f, f, x, dx, m);                                                   \
  }

static void fd_check(const char *name, double (*f)(const double *, int, int), double *x,
                     const double *dx, int m) {
  for (int k = 0; k < N; k++) {
    double h = 1e-6, xk = x[k];
    x[k] = xk + h;
    double fp = f(x, N, m);
    x[k] = xk - h;
    double fm = f(x, N, m);
    x[k] = xk;
    char what[64];
    snprintf(what, sizeof what, "%s m %d d[%d]", name, m, k);
    lt_check(what, dx[k], (fp - fm) / (2 * h), 1e-6, 1e-9);
  }
}

int main(void) {
  GRAD(once);
  GRAD(inloop);
  GRAD(vla);
  GRAD(later);
  GRAD(callee);
  GRAD(choose);
  return lt_done();
}
