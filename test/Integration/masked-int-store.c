// A masked store of integers writes no derivative: inactive, as a plain
// store of integers is (analysis/calls.c lt_masked_int_store), though it
// writes into an object with a shadow. The loop vectoriser makes one under
// -mavx2 for Eigen's PartialPivLU (its permutation's indices, fuzz -X
// --eigen seed 42002: "no derivative rule for 'llvm.masked.store.v4i32'").
// Here clang's __builtin_masked_store makes it at every level (clang 19
// has no such builtin: plain stores there). The indices it writes are read
// back as indices, so the overwrite analysis must know it writes them: in
// a kept callee and inline, at -O0 and -O2, against central differences.
// RUN: %ltclang %ltload -O0 %s -o %t.O0 -lm
// RUN: %t.O0
// RUN: %ltclang %ltload -O2 %s -o %t.O2 -lm
// RUN: %t.O2
// The gradient keeps the store (clang 22: the shape is there):
// RUN: %if llvm-22+ %{ %ltclang %ltload -O2 %s -S -emit-llvm -o - | FileCheck %s %}
// CHECK-LABEL: define {{.*}} @f.lt.grad
// CHECK: call void @llvm.masked.store.v4i32

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>

typedef int v4i __attribute__((ext_vector_type(4)));
typedef _Bool v4b __attribute__((ext_vector_type(4)));

struct S {
  double x[4];
  int perm[4];
};

static inline void put(int *p, int k) {
#if __has_builtin(__builtin_masked_store)
  v4i v = {3 - k, (k + 1) % 3, 1, 0};
  v4b m = {1, 1, 1, 0};
  __builtin_masked_store(m, v, p);
#else
  p[0] = 3 - k;
  p[1] = (k + 1) % 3;
  p[2] = 1;
#endif
}

__attribute__((noinline)) void setperm(int *p, int k) { put(p, k); }

/* sum_i x[perm[i]] x[i] (i + 1), perm set in a kept callee (k even) or
 * here (k odd); perm[3] keeps its value */
double f(struct S *s, int k) {
  if (k & 1)
    put(s->perm, k);
  else
    setperm(s->perm, k);
  double e = 0;
  for (int i = 0; i < 4; i++)
    e += s->x[s->perm[i]] * sin(s->x[i]) * (i + 1);
  return e;
}

static void init(struct S *s) {
  for (int i = 0; i < 4; i++) {
    s->x[i] = 0.3 + 0.2 * i;
    s->perm[i] = 0;
  }
}

int main(void) {
  for (int k = 0; k < 4; k++) {
    struct S s, ds = {{0}, {0}};
    init(&s);
    __enzyme_autodiff((void *)f, enzyme_dup, &s, &ds, enzyme_const, k);
    for (int j = 0; j < 4; j++) {
      struct S p, m;
      init(&p);
      init(&m);
      double h = 1e-6;
      p.x[j] += h;
      m.x[j] -= h;
      double fd = (f(&p, k) - f(&m, k)) / (2 * h);
      char w[80];
      snprintf(w, sizeof w, "k=%d: d/dx[%d] vs central difference", k, j);
      lt_check(w, ds.x[j], fd, 1e-6, 1e-8);
    }
    lt_check("perm[0] as stored", s.perm[0], 3 - k, 0, 0);
  }
  return lt_done();
}
