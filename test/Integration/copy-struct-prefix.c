// A copy of a run-time length into the start of a struct: the first n
// doubles of a vector with inline storage (Eigen's dynamic vector with a
// fixed maximum size is copied so into a product's evaluator, fuzz
// --eigen seed 1140237), and the first n pointers of a struct of
// pointers. The helpers that move adjoints and shadow pointers were called
// with bytes / sizeof(struct), so a copy shorter than the struct moved
// nothing: the doubles' gradient 0 (silently), and the pointers' shadows
// left null (a segfault in the gradient). Against central differences,
// at -O0 and -O2.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include <string.h>

#include "check.h"
#include <leantape.h>

typedef struct {
  double a[4];
  long n;
} Vec;

typedef struct {
  double *p[3];
  double scale;
} Ptrs;

static volatile int three = 3;

__attribute__((noinline)) static double use(const Vec *v) {
  double s = 0;
  for (long i = 0; i < v->n; i++)
    s += sin(v->a[i]) * (double)(i + 1);
  return s * v->a[0];
}

double f(const double *x, int n) {
  Vec v;
  memcpy(&v, x, (size_t)n * sizeof(double)); /* v.a[0..n) */
  v.n = n;
  return use(&v);
}

__attribute__((noinline)) static double deref(const Ptrs *q, int n) {
  double s = q->scale;
  for (int i = 0; i < n; i++)
    s += *q->p[i] * *q->p[i] * (double)(i + 1);
  return s;
}

double g(double *x, int n) {
  Ptrs a = {{x, x + 1, x + 2}, 0.5}, b;
  memcpy(&b, &a, (size_t)n * sizeof(double *)); /* b.p[0..n) */
  b.scale = 0.25;
  return deref(&b, n);
}

static double f3(const double *x) { return f(x, three); }
static double g3(const double *x) { return g((double *)x, three); }

int main(void) {
  double x[4] = {0.3, -0.7, 1.1, 2.0}, dx[4] = {0};
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, three);
  for (int k = 0; k < 4; k++) {
    char what[16];
    snprintf(what, sizeof what, "f dx[%d]", k);
    lt_check(what, dx[k], lt_fd_at(f3, x, k), 1e-6, 1e-9);
  }
  double dg[4] = {0};
  __enzyme_autodiff((void *)g, x, dg, enzyme_const, three);
  for (int k = 0; k < 4; k++) {
    char what[16];
    snprintf(what, sizeof what, "g dx[%d]", k);
    lt_check(what, dg[k], lt_fd_at(g3, x, k), 1e-6, 1e-9);
  }
  return lt_done();
}
