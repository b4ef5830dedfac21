// Split mode and OpenMP critical sections: two __enzyme_augmentfwd calls
// of a function whose parallel loop updates s = 0.5 s + x_i under
// `critical`, reversed in the order they were made (FIFO), then in the
// opposite order (LIFO), with a forward-mode call and a primal call in
// between. A critical section's reverse re-enters in the opposite order of
// its forward entries by tickets of a per-lock counter; each reverse must
// start from the counter as its own forward pass left it, whatever ran in
// between (it used to spin forever in FIFO order). The gradient of s after
// three entries is {1, 0.5, 0.25} by entry order: with one thread exactly
// (1, 0.5, 0.25) reversed, with two threads a permutation of it.
// With -g at -O0 clang's outlined function only calls <name>_debug__, which
// holds the critical section: the counters must be found there too (they
// were not, and the reverse spun forever; found under ThreadSanitizer,
// whose runs are built with -g).
// REQUIRES: openmp
// RUN: %ltclang -O0 %openmp %s -o %t.O0 -lm
// RUN: env OMP_NUM_THREADS=1 %t.O0 1
// RUN: env OMP_NUM_THREADS=2 %t.O0 2
// RUN: %ltclang -O2 %openmp %s -o %t.O2 -lm
// RUN: env OMP_NUM_THREADS=1 %t.O2 1
// RUN: env OMP_NUM_THREADS=2 %t.O2 2
// RUN: %ltclang -O0 -g %openmp %s -o %t.g0 -lm
// RUN: env OMP_NUM_THREADS=1 %t.g0 1
// RUN: env OMP_NUM_THREADS=2 %t.g0 2
// RUN: %ltclang -O2 -g %openmp %s -o %t.g2 -lm
// RUN: env OMP_NUM_THREADS=2 %t.g2 2

#include "check.h"
#include <leantape.h>
#include <stdlib.h>

double f(const double *x, int n) {
  double s = 0;
#pragma omp parallel for
  for (int i = 0; i < n; i++) {
#pragma omp critical
    s = 0.5 * s + x[i];
  }
  return s;
}

typedef struct {
  void *tape;
  double r;
} TR;
TR __enzyme_augmentfwd_tr(void *, ...);
double __enzyme_fwddiff(void *, ...);

/* dx is (0.25, 0.5, 1) with one thread, a permutation of it with more */
static void check_dx(const char *what, const double *dx, int threads) {
  char buf[64];
  if (threads == 1) {
    static const double want[3] = {0.25, 0.5, 1};
    for (int k = 0; k < 3; k++) {
      snprintf(buf, sizeof buf, "%s dx[%d]", what, k);
      lt_check(buf, dx[k], want[k], 0, 0);
    }
    return;
  }
  double sorted[3] = {dx[0], dx[1], dx[2]};
  for (int a = 0; a < 3; a++)
    for (int b = a + 1; b < 3; b++)
      if (sorted[b] < sorted[a]) {
        double t = sorted[a];
        sorted[a] = sorted[b], sorted[b] = t;
      }
  static const double want[3] = {0.25, 0.5, 1};
  for (int k = 0; k < 3; k++) {
    snprintf(buf, sizeof buf, "%s sorted dx[%d]", what, k);
    lt_check(buf, sorted[k], want[k], 0, 0);
  }
}

int main(int argc, char **argv) {
  int threads = argc > 1 ? atoi(argv[1]) : 1;
  double x[3] = {1, 2, 3};
  for (int order = 0; order < 2; order++) {
    double dx1[3] = {0}, dx2[3] = {0}, tx[3] = {1, 0, 0};
    TR a = __enzyme_augmentfwd_tr((void *)f, enzyme_dup, x, dx1, enzyme_const, 3);
    TR b = __enzyme_augmentfwd_tr((void *)f, enzyme_dup, x, dx2, enzyme_const, 3);
    /* more entries of the same lock in between */
    double t = __enzyme_fwddiff((void *)f, enzyme_dup, x, tx, enzyme_const, 3);
    double p = f(x, 3);
    if (threads == 1) { /* with more, every call has its own entry order */
      lt_check("primal in between", p, a.r, 0, 0);
      lt_check("tangent in between", t, 0.25, 0, 0);
    }
    lt_check("tangent in between is a dx entry", t == 0.25 || t == 0.5 || t == 1, 1, 0, 0);
    if (order == 0) { /* FIFO */
      __enzyme_reverse((void *)f, enzyme_dup, x, dx1, enzyme_const, 3, 1.0, a.tape);
      __enzyme_reverse((void *)f, enzyme_dup, x, dx2, enzyme_const, 3, 1.0, b.tape);
    } else { /* LIFO */
      __enzyme_reverse((void *)f, enzyme_dup, x, dx2, enzyme_const, 3, 1.0, b.tape);
      __enzyme_reverse((void *)f, enzyme_dup, x, dx1, enzyme_const, 3, 1.0, a.tape);
    }
    check_dx(order ? "LIFO first" : "FIFO first", dx1, threads);
    check_dx(order ? "LIFO second" : "FIFO second", dx2, threads);
  }
  return lt_done();
}
