// Seed 002's normalize/mag with plain pointers: out[j] = ... may overwrite
// an x[i] that a later mag reads, so before issue 9 every load of x in
// every outer iteration was taped (n^2 doubles). Now the n^2 loads are
// re-read through the undo log of the n stores, which a run-time test
// switches off when out and x do not overlap: the tape is the restrict
// version's, 8 bytes per outer iteration (mag's result), at every -O
// level. The inner loop caches nothing.
// RUN: %ltclang -O0 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ltclang -O1 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ltclang -O2 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ltclang -O3 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: loop (depth 1) in 'normalize': caches 8 bytes per iteration: phi (double, line [[#@LINE+11]]);
// REMARK-NOT: load (double
// REMARK: loop (depth 2) in 'normalize': caches nothing per iteration
//
// The IR: the run-time test in the entry, the old value saved before the
// store to out, restored in the reverse loop, and no other allocation.
// RUN: %clang -O1 -Xclang -disable-llvm-passes -Iinclude -I%S/../../include -S -emit-llvm %s -o %t.ll
// RUN: %ltopt -passes='function(mem2reg),leantape' -S %t.ll | FileCheck %s
#include <leantape.h>
#include <math.h>

double mag(const double *x, long n) { double s = 0; for (long i = 0; i < n; i++) s += x[i] * x[i]; return sqrt(s); }
void normalize(double *out, const double *x, long n) {
  for (long j = 0; j < n; j++)
    out[j] = x[j] / mag(x, n);
}

void grad(double *out, double *dout, double *x, double *dx, long n) {
  __enzyme_autodiff((void *)normalize, enzyme_dup, out, dout, enzyme_dup, x, dx,
                    enzyme_const, n);
}

// CHECK-LABEL: define internal void @normalize.lt.grad(
// CHECK-NOT:     @malloc
// CHECK:         %lt.overlap = and i1
// CHECK:         call void @lt.undo.save(ptr {{.*}}, ptr [[P:%.*]], i64 8)
// CHECK-NEXT:    store double {{.*}}, ptr [[P]]
// CHECK-NOT:     @malloc
// CHECK-NOT:     @realloc
// CHECK-NOT:     @lt.tape.grow
// CHECK-DAG:     call void @lt.undo.restore(
// CHECK-DAG:     call void @lt.undo.finish(
// CHECK:       }
