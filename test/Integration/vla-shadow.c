// Variable-length arrays: the array's llvm.stackrestore at the end of its
// scope freed its shadow before the reverse pass added into it, and the
// generated code wrote into stack that later calls reused (a wrong
// gradient at -O0, found with an MPI test of Enzyme's suite). f keeps a
// VLA copy of a (through a noinline copy) in a loop that overwrites a;
// g has one VLA outside loops. Combined and split mode, against central
// differences, at -O0..-O2.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>

__attribute__((noinline)) void cp(double *d, const double *s, int n) {
  for (int i = 0; i < n; i++)
    d[i] = s[i];
}

double f(double *a, int n) {
  double r = 0;
  for (int t = 0; t < 5; t++) {
    double buf[n];
    cp(buf, a, n);
    for (int i = 0; i < n; i++) {
      a[i] = sin(buf[i]) * buf[i] + 0.1 * t;
      r += buf[i] * buf[i];
    }
  }
  return r;
}

double g(double *a, int n) {
  double buf[n], r = 0;
  cp(buf, a, n);
  for (int i = 0; i < n; i++)
    r += sin(buf[i]) * buf[i];
  return r;
}

typedef struct {
  void *tape;
  double r;
} TR;
TR __enzyme_augmentfwd_tr(void *, ...);

/* one wrapper per function: at -O2 the two call sequences would be merged
 * into one with a phi of f and g as the function argument */
__attribute__((noinline)) static void grads_f(double *a, double *da, double *b, double *db, int n) {
  __enzyme_autodiff((void *)f, enzyme_dup, a, da, enzyme_const, n);
  TR t = __enzyme_augmentfwd_tr((void *)f, enzyme_dup, b, db, enzyme_const, n);
  __enzyme_reverse((void *)f, enzyme_dup, b, db, enzyme_const, n, 1.0, t.tape);
}
__attribute__((noinline)) static void grads_g(double *a, double *da, double *b, double *db, int n) {
  __enzyme_autodiff((void *)g, enzyme_dup, a, da, enzyme_const, n);
  TR t = __enzyme_augmentfwd_tr((void *)g, enzyme_dup, b, db, enzyme_const, n);
  __enzyme_reverse((void *)g, enzyme_dup, b, db, enzyme_const, n, 1.0, t.tape);
}

#define N 10
static int K;
static double (*FN)(double *, int);
static double at(double t) {
  double x[N];
  for (int i = 0; i < N; i++)
    x[i] = 0.1 * i + (i == K ? t : 0);
  return FN(x, N);
}

int main(void) {
  double (*fns[2])(double *, int) = {f, g};
  const char *names[2] = {"f (VLA in a loop)", "g (VLA)"};
  for (int k = 0; k < 2; k++) {
    double a[N], da[N], b[N], db[N];
    int n = lt_vi(N);
    for (int i = 0; i < N; i++)
      a[i] = b[i] = 0.1 * i, da[i] = db[i] = 0;
    (k ? grads_g : grads_f)(a, da, b, db, n);
    FN = fns[k];
    for (K = 0; K < N; K++) {
      double fd = lt_fd(at, 0);
      char what[80];
      snprintf(what, sizeof what, "%s combined d[%d]", names[k], K);
      lt_check(what, da[K], fd, 1e-6, 1e-8);
      snprintf(what, sizeof what, "%s split d[%d]", names[k], K);
      lt_check(what, db[K], fd, 1e-6, 1e-8);
    }
  }
  return lt_done();
}
