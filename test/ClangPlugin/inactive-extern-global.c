// REQUIRES: clang-plugin
// enzyme_inactive on an extern global this file does not define: the
// clang plugin registers it with a `used` registration global
// (__enzyme_inactive_global_autoreg_<n>, in llvm.used), which the pass
// deletes once it has read it, with its llvm.used entry. Before, the
// registration kept a reference to the extern in the object and the
// program did not link although nothing else read it (-O1 and up inline
// the primal into the derivative, where alloc's unused argument is
// dropped). At -O0 the primal stays and reads it: that run defines it.
// Gradient against the analytic value and, where the primal can run,
// central differences.
// RUN: %fpluginclang -O0 -DDEFINE_EXTERN %s -o %t.O0 -lm && %t.O0
// RUN: %fpluginclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %fpluginclang -O2 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-NOT: autoreg
// CHECK-NOT: @host_mem_type

#include "check.h"
#include <stdlib.h>

double __enzyme_autodiff(void *, ...);

extern int host_mem_type __attribute__((enzyme_inactive));
#ifdef DEFINE_EXTERN
int host_mem_type = 1;
#endif

__attribute__((noinline)) void *alloc(int size, int mt) { return malloc(size); }

static double work(double a) {
  double *D = (double *)alloc(sizeof(double), host_mem_type);
  D[0] = a * a;
  D[0] = sin(D[0]) * a;
  double r = D[0];
  free(D);
  return r;
}

int main(void) {
  double a = 0.9;
  double g = __enzyme_autodiff((void *)work, a);
  lt_check("d work/da", g, 2 * a * a * cos(a * a) + sin(a * a), 1e-12, 1e-12);
#ifdef DEFINE_EXTERN
  lt_check("d work/da (fd)", g, lt_fd(work, a), 1e-6, 1e-8);
#endif
  return lt_done();
}
