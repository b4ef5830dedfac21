// As ptr-copy-through-long.c, with the structs on the heap and the copy
// taking void pointers: nothing declares a type at either end of the
// copy, in the copying function or in its callers. The callers' accesses
// of the memory they pass say what it holds (the pointer stored into a,
// the pointer the reader loads from b: analysis/bits.c caller_class);
// before, the word was taken for a double and the gradient was 0, silently
// (-O0, -O1). At -O2 clang inlines the copy into f: the memcpy of unknown
// alignment is an `align 1` i64 load, which points-to took for one that
// cannot hold a pointer (escape.c lt_ptr_sized_int: only a word at an
// offset no pointer starts at is one now), so b's shadow was never made
// and the gradient was 0 there too. Against central differences, -O0..-O3.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include <leantape.h>

typedef struct {
  double *p; /* into x */
} E;

__attribute__((noinline)) static void cp(void *d, const void *s, int k) {
  if (k > 0) {
    cp(d, s, k - 1);
    return;
  }
  long w;
  memcpy(&w, s, sizeof w);
  memcpy(d, &w, sizeof w);
}

__attribute__((noinline)) static double use(const E *e, int k) {
  if (k > 0)
    return use(e, k - 1);
  return e->p[0] * cos(e->p[1]);
}

static double f(const double *x) {
  E *a = malloc(sizeof *a), *b = malloc(sizeof *b);
  a->p = (double *)x;
  cp(b, a, 2);
  double r = use(b, 2);
  free(a);
  free(b);
  return r;
}

int main(void) {
  double x[2] = {0.7, -0.4}, dx[2] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  for (int k = 0; k < 2; k++)
    lt_check("d/dx", dx[k], lt_fd_at(f, x, k), 1e-6, 1e-8);
  return lt_done();
}
