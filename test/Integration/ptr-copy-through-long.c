// A struct holding a pointer to active data, copied through an integer
// inside a function that stays a call (recursive here; in C++ also one
// past the inlining budget): `long w; memcpy(&w, s, 8); memcpy(d, &w, 8)`.
// At -O0 the prep pipeline, at -O1 clang's, turns the copy into an i64
// load from one parameter's memory and an i64 store into another's: no
// type at either end, so the word was taken for a double, its shadow
// pointer was not copied, and the gradient was 0, silently (-O0 and -O1;
// -O2 inlines it away). The callers' types now say what the parameters
// point to (analysis/bits.c byte_decl_class with memnote.c lt_mem_place).
// Also: the same word stored into a byte buffer that only a kept callee
// reads as a pointer (bits.c callee_accesses; ReverseMode/ptr-word-field.ll
// has the IR form). Against central differences, -O0..-O3.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include <math.h>
#include <string.h>

#include "check.h"
#include <leantape.h>

typedef struct {
  double *p; /* into x */
} E;

__attribute__((noinline)) static void cp(E *d, const E *s, int k) {
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
  return e->p[0] * sin(e->p[1]);
}

/* reads the pointer at byte 8 of a buffer */
__attribute__((noinline)) static double use_buf(const unsigned char *b, int k) {
  if (k > 0)
    return use_buf(b, k - 1);
  double *p;
  memcpy(&p, b + 8, sizeof p);
  return p[2] * p[2] + exp(p[0]);
}

static double f(const double *x) {
  E a = {(double *)x}, b;
  cp(&b, &a, 2);
  double r = use(&b, 2);
  unsigned char buf[16];
  long w;
  memcpy(&w, &a, sizeof w);
  memcpy(buf + 8, &w, sizeof w);
  return r + use_buf(buf, 2);
}

int main(void) {
  double x[3] = {0.7, -0.4, 1.3}, dx[3] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  for (int k = 0; k < 3; k++)
    lt_check("d/dx", dx[k], lt_fd_at(f, x, k), 1e-6, 1e-8);
  return lt_done();
}
