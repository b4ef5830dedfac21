// Pointers moved as integers ("pointer words"). The address of active
// memory travels through a uintptr_t: stored into a struct slot and read
// back as a pointer (Eigen's Product object does this at -O1: `store i64
// (ptrtoint %v)` and later `load ptr`; the slot's shadow stayed zero and
// the reverse pass segfaulted on the null shadow), and rounded up to an
// alignment through an integer with the original pointer kept in front of
// the block (Eigen's handmade_aligned_malloc under -mavx: "its shadow
// cannot be formed (it is made from an integer)"). The shadow of such an
// integer is the same word of the shadow address: ptrtoint of the shadow,
// shadow(b) + (v - b) for arithmetic on one pointer word b; the shadow
// block sits at the primal's address modulo 64, so the rounding gives an
// equally aligned shadow. Reverse and forward mode, checked against
// central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O2 -mavx2 %s -o %t.O2v -lm && %t.O2v

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <leantape.h>

double __enzyme_fwddiff(void *, ...);

#define N 6

struct slot {
  uintptr_t data; /* the address as an integer */
  int n;
};

__attribute__((noinline)) static double through_slot(const struct slot *s) {
  const double *p = (const double *)s->data;
  double t = 0;
  for (int i = 0; i < s->n; i++)
    t += sin(p[i]) * (i + 1);
  return t;
}

/* the address stored as an integer and loaded back as a pointer */
static double slot_sum(double *x) {
  double v[N];
  for (int i = 0; i < N; i++)
    v[i] = x[i] * x[(i + 1) % N];
  struct slot s;
  s.data = (uintptr_t)v;
  s.n = N;
  return through_slot(&s);
}

/* a block rounded up to 32 bytes through an integer, the original
 * pointer kept in the word before it */
__attribute__((noinline)) static double *aligned_block(size_t n) {
  void *orig = malloc(n * sizeof(double) + 32);
  double *a = (double *)(((uintptr_t)orig + 32) & ~(uintptr_t)31);
  ((void **)a)[-1] = orig;
  return a;
}

__attribute__((noinline)) static void aligned_free(double *a) { free(((void **)a)[-1]); }

static double rounded(double *x) {
  double *a = aligned_block(N);
  for (int i = 0; i < N; i++)
    a[i] = cos(x[i]) * x[(i + 2) % N];
  double t = 0;
  for (int i = 0; i < N; i++)
    t += a[i] * a[(i + 1) % N];
  aligned_free(a);
  return t;
}

/* an address kept as an integer in a local that a loop walks */
static double walked(double *x) {
  uintptr_t w = (uintptr_t)(x + 1);
  double t = 0;
  for (int i = 0; i < 4; i++) {
    t += exp(-*(const double *)w) * (i + 1);
    w += sizeof(double);
  }
  return t;
}

typedef double (*fn)(double *);

static void fd_grad(fn f, const double *x, double *g) {
  for (int i = 0; i < N; i++) {
    double xp[N], xm[N];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    volatile double a = x[i] + 1e-6, b = x[i] - 1e-6;
    xp[i] = a;
    xm[i] = b;
    g[i] = (f(xp) - f(xm)) / (a - b);
  }
}

static void check(const char *what, fn f, const double *dx, double fwd) {
  double x[N], g[N], dir = 0;
  for (int i = 0; i < N; i++)
    x[i] = 0.3 + 0.17 * i;
  fd_grad(f, x, g);
  char name[64];
  for (int i = 0; i < N; i++) {
    snprintf(name, sizeof name, "%s reverse dx[%d]", what, i);
    lt_check(name, dx[i], g[i], 1e-6, 1e-8);
    dir += g[i] * (1.0 + 0.5 * i);
  }
  snprintf(name, sizeof name, "%s forward", what);
  lt_check(name, fwd, dir, 1e-6, 1e-8);
}

#define RUN(f)                                                                 \
  do {                                                                         \
    double x[N], dx[N] = {0}, tx[N];                                           \
    for (int i = 0; i < N; i++) {                                              \
      x[i] = 0.3 + 0.17 * i;                                                   \
      tx[i] = 1.0 + 0.5 * i;                                                   \
    }                                                                          \
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx);                           \
    double d = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx);                 \
    check(#f, f, dx, d);                                                       \
  } while (0)

int main(void) {
  RUN(slot_sum);
  RUN(rounded);
  RUN(walked);
  return lt_done();
}
