// A registration of an extern global as inactive (the shape of Enzyme's
// customglob.cpp): void *__enzyme_inactive_global = &host_mem_type, where
// host_mem_type is defined in another file. The pass deletes the
// registration globals it has read, so once the primal's own reads of the
// extern are gone (-O1 and up inline it into the derivative, where alloc's
// unused argument is dropped) nothing refers to it and the program links.
// At -O0 the primal stays and reads it: that run defines it here. The
// gradient is checked against the analytic value, and against central
// differences where the primal can run.
// RUN: %ltclangxx -O0 -DDEFINE_EXTERN %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 %s -o %t.O3 && %t.O3
// RUN: %ltclangxx -O2 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-NOT: @__enzyme_inactive_global

#include "check.h"
#include <stdlib.h>

extern "C" double __enzyme_autodiff(void *, ...);

enum class MemType { DEFAULT, PINNED };
extern MemType host_mem_type;
#ifdef DEFINE_EXTERN
MemType host_mem_type = MemType::DEFAULT;
#endif

__attribute__((noinline)) void *alloc(int size, MemType mt) { return malloc(size); }

static double work(double a) {
  double *D = (double *)alloc(sizeof(double), host_mem_type);
  D[0] = a * a;
  D[0] = sin(D[0]) + a;
  double r = D[0];
  free(D);
  return r;
}
void *__enzyme_inactive_global = &host_mem_type;

int main() {
  double a = 0.7;
  double g = __enzyme_autodiff((void *)work, a);
  lt_check("d work/da", g, 2 * a * cos(a * a) + 1, 1e-12, 1e-12);
#ifdef DEFINE_EXTERN
  lt_check("d work/da (fd)", g, lt_fd(work, a), 1e-6, 1e-8);
#endif
  return lt_done();
}
