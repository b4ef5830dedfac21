// A struct that holds a pointer to active data, copied inside a function
// that stays a call (recursive here; in C++ also one past the inlining
// budget: Eigen's transpose() copy-constructs its Map there, fuzz --eigen
// seed 700040). At -O0 clang gives such a copy no !tbaa.struct and the
// callee sees only its parameters, so nothing in it said the copied bytes
// hold a pointer: its shadow pointer was not copied, and the gradient was
// 0 (C) or the reverse pass dereferenced a null shadow (Eigen). The layout
// now comes from the callers, which pass typed locals: directly (rec_copy),
// through another kept function's parameter (outer), at an offset into an
// enclosing struct (the pair's second member), and through an inlined
// helper that takes the copy's ends as its own parameters (assign), and
// a memcpy of a run-time length (rec_n).
// Against central differences, at -O0 and -O2.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include <string.h>

#include "check.h"
#include <leantape.h>

typedef struct {
  double *p; /* into x */
  double w;
  int n;
} S;

typedef struct {
  double lead;
  S s;
} Pair;

static void assign(S *d, const S *s) { *d = *s; }

/* copies *s into *d at the bottom of the recursion */
static void rec_copy(S *d, const S *s, int k) {
  if (k == 0) {
    *d = *s;
    return;
  }
  rec_copy(d, s, k - 1);
}

static void rec_assign(S *d, const S *s, int k) {
  if (k == 0) {
    assign(d, s);
    return;
  }
  rec_assign(d, s, k - 1);
}

/* a copy of a run-time length, sizeof (S) at every call */
static void rec_n(void *d, const void *s, size_t n, int k) {
  if (k == 0) {
    memcpy(d, s, n);
    return;
  }
  rec_n(d, s, n, k - 1);
}

/* a kept function that passes its own parameters on */
static double outer(S *d, const S *s, int k) {
  if (k > 5)
    return outer(d, s, k - 1);
  rec_copy(d, s, k);
  return d->p[0] * d->w;
}

static double use(const S *s) { return s->p[0] * s->p[1] * s->w + sin(s->p[s->n]); }

double f(double *x, int k) {
  S a = {x, 2.0 * x[2], 2}, b, c, e, g;
  Pair pa = {1.0, {x + 1, x[0], 2}}, pb;
  rec_copy(&b, &a, k);
  rec_assign(&c, &a, k + 1);
  double r = use(&b) + 0.5 * use(&c);
  r += outer(&e, &a, k + 7);
  rec_n(&g, &a, sizeof g, k);
  r += use(&g) * x[3];
  rec_copy(&pb.s, &pa.s, k);
  pb.lead = 0;
  r += use(&pb.s) * pa.lead;
  return r;
}

int main(void) {
  double x[4] = {0.3, -0.7, 1.2, 0.4}, dx[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_const, 2);
  char name[32];
  for (int i = 0; i < 4; i++) {
    double xp[4], xm[4];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    volatile double a = x[i] + 1e-6, b = x[i] - 1e-6;
    xp[i] = a;
    xm[i] = b;
    double fd = (f(xp, 2) - f(xm, 2)) / (a - b);
    snprintf(name, sizeof name, "dx[%d]", i);
    lt_check(name, dx[i], fd, 1e-6, 1e-9);
  }
  return lt_done();
}
