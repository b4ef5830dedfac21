// The adjoints of a parallel region's loads are added with plain
// load/fadd/store where analysis/omp.c proves that no other thread adds to
// the same location, atomically (atomicrmw fadd) where one may:
//  - axpy_private: a static-schedule `parallel for` writing y[i] = 3 x[i]:
//    each thread's iterations are its own, so dx[i] += 3 dy[i] is a plain
//    read-modify-write in the reverse of the outlined function (after
//    dy[i] is read and zeroed);
//  - axpy_shared: every iteration reads x[0], so the adjoint of x[0] is
//    added by every thread: an atomicrmw fadd.
// Both reverses run on a team (the .team wrapper is what the fork calls).
// REQUIRES: openmp
// RUN: %ltclang -O2 %openmp -S -emit-llvm %s -o - | FileCheck %s
#include <leantape.h>
#include <math.h>

void axpy_private(const double *restrict x, double *restrict y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    y[i] = 3.0 * x[i];
}

void axpy_shared(const double *restrict x, double *restrict y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    y[i] = x[0] * x[i];
}

void grad_private(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)axpy_private, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, n);
}

void grad_shared(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)axpy_shared, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, n);
}

// CHECK-LABEL: define internal void @axpy_private.omp_outlined{{[.a-z]*}}.lt.rev(
// CHECK-NOT:     atomicrmw
// CHECK:         store double 0.000000e+00, ptr
// CHECK-NOT:     atomicrmw
// CHECK:         [[OLD:%[0-9a-z.]+]] = load double, ptr [[DX:%[0-9a-z.]+]], align 8
// CHECK:         [[NEW:%[0-9a-z.]+]] = fadd {{.*}}double [[OLD]], %{{[0-9a-z.]+}}
// CHECK-NEXT:    store double [[NEW]], ptr [[DX]], align 8
// CHECK-NOT:     atomicrmw
// CHECK:       }
// CHECK-LABEL: define internal void @axpy_private.omp_outlined{{[.a-z]*}}.lt.rev.team(
// CHECK:         call {{.*}}@omp_get_thread_num()
// CHECK:         call void @axpy_private.omp_outlined{{[.a-z]*}}.lt.rev(
// CHECK-LABEL: define internal void @axpy_private.lt.grad(
// CHECK:         call void {{.*}}@__kmpc_fork_call({{.*}}@axpy_private.omp_outlined{{[.a-z]*}}.lt.aug.team
// CHECK:         call void {{.*}}@__kmpc_fork_call({{.*}}@axpy_private.omp_outlined{{[.a-z]*}}.lt.rev.team
// CHECK-LABEL: define internal void @axpy_shared.omp_outlined{{[.a-z]*}}.lt.rev(
// CHECK:         atomicrmw fadd ptr %{{[0-9a-z.]+}}, double %{{[0-9a-z.]+}} monotonic
// CHECK:       }
