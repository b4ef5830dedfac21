// A reverse loop that sums into one adjoint vectorises at -O2 (issue 17,
// item 4): the adjoint's additions are reassoc nsz (lib/base/util.c), so
// LLVM's loop vectoriser may keep partial sums and reduce them at the end.
// y[i] += a x[i] with a enzyme_out: da = sum_i dy[i] x[i], a sum over the
// loop, once with restrict and once with plain pointers; w'x scaled by an
// active a: da = sum_i w[i] x[i]. Before, each such loop was scalar ("cannot
// prove it is safe to reorder floating-point operations"). The primal's own
// sum keeps its flags: wdot's reduction is not vectorised (no reassoc).
// Gradients: test/Integration/reverse-reductions.c.
// RUN: %ltclang -O2 -S -emit-llvm %s -o %t.ll
// RUN: FileCheck %s < %t.ll
// RUN: FileCheck %s --check-prefix=PRIMAL < %t.ll
#include <leantape.h>

__attribute__((noinline)) void axpy(double a, const double *restrict x, double *restrict y,
                                    int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
__attribute__((noinline)) void axpy_plain(double a, const double *x, double *y, int n) {
  for (int i = 0; i < n; i++)
    y[i] += a * x[i];
}
__attribute__((noinline)) double wdot(const double *x, const double *w, double a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += a * w[i] * x[i];
  return s;
}
double g1(double a, const double *x, double *dx, double *y, double *dy, int n) {
  return __enzyme_autodiff((void *)axpy, enzyme_out, a, enzyme_dup, x, dx, enzyme_dup, y, dy,
                           enzyme_const, n);
}
double g2(double a, const double *x, double *dx, double *y, double *dy, int n) {
  return __enzyme_autodiff((void *)axpy_plain, enzyme_out, a, enzyme_dup, x, dx, enzyme_dup, y,
                           dy, enzyme_const, n);
}
double g3(const double *x, double *dx, const double *w, double a, int n) {
  return __enzyme_autodiff((void *)wdot, enzyme_dup, x, dx, enzyme_const, w, enzyme_out, a,
                           enzyme_const, n);
}

// CHECK-LABEL: define internal double @axpy.lt.grad(
// CHECK:         fadd reassoc nsz <{{[0-9]+}} x double>
// CHECK:         call reassoc nsz double @llvm.vector.reduce.fadd
// CHECK-LABEL: define internal double @axpy_plain.lt.grad(
// CHECK:         fadd reassoc nsz <{{[0-9]+}} x double>
// CHECK:         call reassoc nsz double @llvm.vector.reduce.fadd
// CHECK-LABEL: define internal double @wdot.lt.grad(
// CHECK:         fadd reassoc nsz <{{[0-9]+}} x double>
// CHECK:         call reassoc nsz double @llvm.vector.reduce.fadd

// The primal's sum is the program's: no reassoc, so wdot stays scalar.
// PRIMAL-LABEL: define dso_local double @wdot(
// PRIMAL-NOT:     reassoc
// PRIMAL-NOT:     <{{[0-9]+}} x double>
// PRIMAL:         ret double
