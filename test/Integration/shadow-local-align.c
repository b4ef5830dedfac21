// Locals walked by vectorised code that picks its first aligned element
// from the local's own address at run time, as Eigen's vectorised loops do
// (first_aligned): the derivative copies the primal's aligned vector
// accesses onto the shadow, so the shadow must sit at the primal's address
// modulo the vector size. A shadow local took the primal's 8-byte
// alignment: beside a primal at 0 mod 16 it sat at 8 mod 16, and the
// copied `load <2 x double> ... align 16` segfaulted at -O0 and -O1
// (random tester: --eigen seed 400003, a 24-byte
// Matrix<double, Dynamic, 1, 0, 3, 1> temporary). A local that vectorised
// code may walk and its shadow are now both 64-byte aligned
// (gen/heap.c lt_local_align), in reverse mode (combined and split) and
// forward mode. Shapes: two 24-byte structs (each 8 mod 16 if the other is
// 0), a 5-element array, and a run-time-length local array (VLA); checked
// against central differences at -O0, -O1 and -O2.
// RUN: %ltclang -O0 %s -o %t.O0 -lm
// RUN: %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm
// RUN: %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm
// RUN: %t.O2
// The locals and their shadows in the gradient, 64-byte aligned:
// RUN: %ltclang -O0 %s -S -emit-llvm -o - | FileCheck %s
// CHECK-LABEL: define internal {{.*}} @structs.lt.grad(
// CHECK-COUNT-4: alloca %struct.S, align 64
// CHECK: {{^}$}}

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <stdint.h>
#include <string.h>

double __enzyme_fwddiff(void *, ...);

typedef double v2 __attribute__((vector_size(16)));

/* p[0..n) *= s: the first element alone when p is not 16-byte aligned,
 * then pairs with aligned vector accesses, then the rest */
__attribute__((noinline)) static void scale(double *p, int n, double s) {
  int i = 0;
  if ((uintptr_t)p & 15) {
    p[0] *= s;
    i = 1;
  }
  for (; i + 1 < n; i += 2) {
    v2 v = *(v2 *)(p + i);
    *(v2 *)(p + i) = v * s;
  }
  for (; i < n; i++)
    p[i] *= s;
}

struct S {
  double d[3];
};

double structs(const double *x) {
  struct S sa, sb;
  for (int i = 0; i < 3; i++) {
    sa.d[i] = x[i];
    sb.d[i] = x[i] * x[i];
  }
  scale(sa.d, 3, x[3]);
  scale(sb.d, 3, x[3]);
  return sin(sa.d[0] + sa.d[1] + sa.d[2]) + sb.d[0] * sb.d[1] + sb.d[2];
}

double array5(const double *x) {
  double a[5];
  for (int i = 0; i < 5; i++)
    a[i] = cos(x[i % 4]) + 0.1 * i;
  scale(a + 1, 4, x[3]);
  double s = 0;
  for (int i = 0; i < 5; i++)
    s += a[i] * a[i];
  return s;
}

static volatile int vla_n = 7;

double vla(const double *x) {
  int n = vla_n;
  double a[n];
  for (int i = 0; i < n; i++)
    a[i] = x[i % 4] * (1 + 0.2 * i);
  scale(a + 1, n - 1, x[3] * x[0]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(a[i]);
  return s;
}

#define AD(f) __enzyme_autodiff((void *)f, enzyme_dup, x, dx)
#define FWD(f) __enzyme_fwddiff((void *)f, enzyme_dup, x, t)
#define SPLIT(f)                                                                   \
  do {                                                                             \
    void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, dx);                \
    __enzyme_reverse((void *)f, enzyme_dup, x, dx, 1.0, tape);                     \
  } while (0)

static void check_one(const char *name, double (*f)(const double *), int which) {
  double x[4] = {0.3, 0.5, 0.7, 1.1};
  double dx[4] = {0}, sx[4] = {0};
  switch (which) {
  case 0: AD(structs); break;
  case 1: AD(array5); break;
  default: AD(vla); break;
  }
  memcpy(sx, dx, sizeof sx);
  memset(dx, 0, sizeof dx);
  switch (which) {
  case 0: SPLIT(structs); break;
  case 1: SPLIT(array5); break;
  default: SPLIT(vla); break;
  }
  char w[96];
  for (int i = 0; i < 4; i++) {
    double fd = lt_fd_arr(f, x, 4, i);
    snprintf(w, sizeof w, "%s: d[%d], reverse", name, i);
    lt_check(w, sx[i], fd, 1e-6, 1e-8);
    snprintf(w, sizeof w, "%s: d[%d], split", name, i);
    lt_check(w, dx[i], fd, 1e-6, 1e-8);
    double t[4] = {0};
    t[i] = 1;
    double tan;
    switch (which) {
    case 0: tan = FWD(structs); break;
    case 1: tan = FWD(array5); break;
    default: tan = FWD(vla); break;
    }
    snprintf(w, sizeof w, "%s: d[%d], forward", name, i);
    lt_check(w, tan, fd, 1e-6, 1e-8);
  }
}

int main(void) {
  check_one("structs", structs, 0);
  check_one("array5", array5, 1);
  check_one("vla", vla, 2);
  return lt_done();
}
