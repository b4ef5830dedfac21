// The tape in the augmented forward loop and what the reverse loop reads
// of an outer loop's record (issue 17, item 4).
// - A's tape stores have alias scopes (gen/scopes.c lt_scope_forward): one
//   per slot of a loop's record, the program's accesses !noalias all of
//   them. Without them the loop vectoriser tested the tape's range against
//   every array at run time and, where the record's index is a running
//   count, the record's two interleaved slots against each other, a test
//   that always fails: the double-buffered diffusion's forward loop, which
//   caches two values a point, always ran its scalar copy.
// - R reads what a time loop's record holds (the swapped buffers' shadows)
//   where it uses it, in the inner loop; gen/gather.c could not rewrite that
//   loop's additions into neighbouring elements until LICM hoisted those
//   reads (it now runs first): a store-forwarding stall per element.
// Gradients: test/Integration/diffusion-rows.c.
// RUN: %ltclang -O2 -fno-discard-value-names -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=GATHER < %t.ll
#include <leantape.h>

// both old values are overwritten: two slots a record, no test of the tape
// CHECK-LABEL: define internal void @both.lt.grad(
// CHECK: vector.memcheck:
// CHECK-NOT: icmp {{.*}}%lt.subtape
// CHECK: vector.ph:
// CHECK: store <{{[0-9]+}} x double> %interleaved.vec, ptr %{{[0-9a-z.]+}}, align 8, !alias.scope
__attribute__((noinline)) void both(double *x, double *y, int n) {
  for (int i = 0; i < n; i++) {
    double a = x[i], b = y[i];
    x[i] = a * b;
    y[i] = b * a * a;
  }
}

// GATHER-LABEL: define internal void @diffuse.lt.grad(
// GATHER: lt.gather.exit
__attribute__((noinline)) double diffuse(double *u, double *v, int n, int steps) {
  double *a = u, *b = v;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        double c = a[i * n + j];
        double lap = a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] +
                     a[i * n + j + 1] - 4 * c;
        b[i * n + j] = c + 0.1 * (1 + c * c) * lap;
      }
    double *tmp = a;
    a = b;
    b = tmp;
  }
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += a[i] * a[i];
  return s;
}

void grad_both(double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)both, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n);
}

void grad_diffuse(double *u, double *du, double *v, double *dv, int n, int steps) {
  __enzyme_autodiff((void *)diffuse, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const, n,
                    enzyme_const, steps);
}
