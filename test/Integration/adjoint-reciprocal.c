// Divisions in derivative arithmetic carry arcp (rules/rules.c
// lt_adj_div), as Enzyme's reverse-pass arithmetic carries every fast-math
// flag: the adjoint of x / 9 becomes a product by 1/9, so a reverse
// recurrence (Gauss-Seidel's d_j = (x_j + d_(j+1)) / 9, PolyBench's
// seidel-2d) waits on no divide. The program's own divisions keep their
// flags (A and R must agree on its values), and the derivative of fmod
// divides exactly (trunc(a / b) is an integer a reciprocal's product may
// fall short of). Gradients against central differences at -O0 and -O2
// (seidel in place, a quotient by a variable, log, fmod near an integer
// quotient); the -O2 gradient's IR keeps the program's division by 9 in
// its forward part and multiplies by 1/9 in its reverse.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O2 -fno-slp-vectorize -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}} @seidel.lt.grad(
// CHECK-NOT:   fdiv arcp
// CHECK:       fdiv double %{{[0-9]+}}, 9.000000e+00
// CHECK-NOT:   fdiv
// CHECK:       fmul arcp double %{{[0-9]+}}, 0x3FBC71C71C71C71C
// CHECK-NOT:   fdiv
// CHECK:       {{^}$}}
// the gradient with respect to y (x enzyme_const): trunc of x / y exact
// (without SLP, which LLVM 19 lets merge the two divisions into one)
// CHECK-LABEL: define {{.*}} @modq.lt.grad.{{[0-9]+}}(
// CHECK:       %[[Q:[0-9]+]] = fdiv double %0, %1
// CHECK:       call double @llvm.trunc.f64(double %[[Q]])

#include "check.h"
#include <leantape.h>
#include <string.h>

#define NI __attribute__((noinline))
#define N 11
#define T 3

NI void seidel(double *A, int n, int tsteps) {
  for (int t = 0; t < tsteps; t++)
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++)
        A[i * n + j] = (A[(i - 1) * n + j - 1] + A[(i - 1) * n + j] + A[(i - 1) * n + j + 1] +
                        A[i * n + j - 1] + A[i * n + j] + A[i * n + j + 1] +
                        A[(i + 1) * n + j - 1] + A[(i + 1) * n + j] +
                        A[(i + 1) * n + j + 1]) / 9.0;
}
static double W[N * N];
static double seidel_obj(const double *A0) {
  double A[N * N], s = 0;
  memcpy(A, A0, sizeof A);
  seidel(A, N, T);
  for (int k = 0; k < N * N; k++)
    s += W[k] * A[k];
  return s;
}

/* x / y, log, fmod(x, y) with x / y just below an integer */
NI double modq(double x, double y) { return x / y + log(x) + 3.0 * fmod(x, y); }
static double modq0(double x, double y) { return modq(x, y); }

int main(void) {
  double A[N * N], A0[N * N], dA[N * N];
  for (int k = 0; k < N * N; k++) {
    A0[k] = 0.3 + 0.05 * ((k * 7) % 13);
    W[k] = 0.5 + 0.01 * ((k * 5) % 17);
  }
  memcpy(A, A0, sizeof A);
  memcpy(dA, W, sizeof dA);
  __enzyme_autodiff((void *)seidel, enzyme_dup, A, dA, enzyme_const, N, enzyme_const, T);
  for (int k = 0; k < N * N; k += 7) {
    double Ap[N * N], Am[N * N], h = 1e-6;
    memcpy(Ap, A0, sizeof Ap);
    memcpy(Am, A0, sizeof Am);
    Ap[k] += h;
    Am[k] -= h;
    char what[32];
    snprintf(what, sizeof what, "seidel dA[%d]", k);
    lt_check(what, dA[k], (seidel_obj(Ap) - seidel_obj(Am)) / (2 * h), 1e-7, 1e-9);
  }
  double x = 6.9999, y = 1.75; /* x / y = 3.99994...: trunc 3 */
  double dx = __enzyme_autodiff((void *)modq, x, enzyme_const, y);
  double dy = __enzyme_autodiff((void *)modq, enzyme_const, x, y);
  lt_check("modq dx", dx, 1.0 / y + 1.0 / x + 3.0, 1e-12, 0);
  lt_check("modq dx fd", dx, lt_fd2(modq0, x, y, 0), 1e-6, 1e-9);
  lt_check("modq dy", dy, -x / (y * y) - 3.0 * 3.0, 1e-12, 0);
  lt_check("modq dy fd", dy, lt_fd2(modq0, x, y, 1), 1e-6, 1e-9);
  return lt_done();
}
