// The adjoints of a parallel region's loads are added with plain
// load/fadd/store where analysis/omp.c proves that no other thread adds to
// the same location, atomically (atomicrmw fadd) where one may:
//  - axpy_private: a static-schedule `parallel for` writing y[i] = 3 x[i]:
//    each thread's iterations are its own, so dx[i] += 3 dy[i] is a plain
//    read-modify-write in the reverse of the outlined function (after
//    dy[i] is read and zeroed);
//  - axpy_shared: y[i] = x[0] z[i]: every iteration reads x[0], so the
//    adjoint of x[0] is
//    added by every thread; the bytes every thread reads from x are known
//    when the reverse starts ([x, x + 8)), so each thread adds into its own
//    zeroed buffer (calloc) with plain load/fadd/store and adds the buffer
//    into dx once at the end (lt.omp.flush.f64: atomicrmw fadd per
//    element it touched);
//  - gather_shared: y[i] = 2 x[idx[i]] reads x where idx says, which no
//    analysis bounds: each adjoint is an atomicrmw fadd into dx.
// The reverses run on a team (the .team wrapper is what the fork calls).
// REQUIRES: openmp
// RUN: %ltclang -O2 %openmp -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=FLUSH < %t.ll
#include <leantape.h>
#include <math.h>

void axpy_private(const double *restrict x, double *restrict y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    y[i] = 3.0 * x[i];
}

void axpy_shared(const double *restrict x, const double *restrict z, double *restrict y,
                 int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    y[i] = x[0] * z[i];
}

void gather_shared(const double *restrict x, const int *restrict idx,
                   double *restrict y, int n) {
#pragma omp parallel for schedule(static)
  for (int i = 0; i < n; i++)
    y[i] = 2.0 * x[idx[i]];
}

void grad_private(const double *x, double *dx, double *y, double *dy, int n) {
  __enzyme_autodiff((void *)axpy_private, enzyme_dup, x, dx, enzyme_dup, y, dy,
                    enzyme_const, n);
}

void grad_shared(const double *x, double *dx, const double *z, double *y, double *dy,
                 int n) {
  __enzyme_autodiff((void *)axpy_shared, enzyme_dup, x, dx, enzyme_const, z, enzyme_dup, y,
                    dy, enzyme_const, n);
}

void grad_gather(const double *x, double *dx, const int *idx, double *y, double *dy,
                 int n) {
  __enzyme_autodiff((void *)gather_shared, enzyme_dup, x, dx, enzyme_const, idx,
                    enzyme_dup, y, dy, enzyme_const, n);
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
// CHECK-NOT:     atomicrmw
// CHECK:         [[BUF:%[0-9a-z.]+]] = {{.*}}call {{.*}}ptr @calloc(
// CHECK-NOT:     atomicrmw
// CHECK:         fadd
// CHECK-NOT:     atomicrmw
// CHECK:         call void @lt.omp.flush.f64(ptr [[BUF]],
// CHECK-NOT:     atomicrmw
// CHECK:         call void @free(ptr [[BUF]])
// CHECK-NOT:     atomicrmw
// CHECK:       }
// CHECK-LABEL: define internal void @gather_shared.omp_outlined{{[.a-z]*}}.lt.rev(
// CHECK-NOT:     calloc
// CHECK:         atomicrmw fadd ptr %{{[0-9a-z.]+}}, double %{{[0-9a-z.]+}} monotonic
// CHECK:       }
// FLUSH-LABEL: define internal void @lt.omp.flush.f64(
// FLUSH:         atomicrmw fadd ptr %{{[0-9a-z.]+}}, double %{{[0-9a-z.]+}} monotonic
// FLUSH:       }
