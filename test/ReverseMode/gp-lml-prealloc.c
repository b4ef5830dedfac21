// A GP log marginal likelihood (RBF kernel, in-place Cholesky, two
// triangular solves): every loop's bounds are affine in enclosing counters
// (k < j, k = i + 1 .. n counting down), and at -O2 the widened counters
// end on trunc(next) == n. Every cache is allocated once before its nest
// from the extremes of its bounds: no cache grows, so allocations per
// gradient are O(1) (issue 9 item 5; before, 11 reallocs per gradient).
// The gradient is checked against central differences.
// RUN: %ltclang -O0 -Rpass-analysis=leantape %s -o %t.O0 -lm 2>&1 | FileCheck %s
// RUN: %ltclang -O2 -Rpass-analysis=leantape %s -o %t.O2 -lm 2>&1 | FileCheck %s
// RUN: %t.O0 && %t.O2
// CHECK-NOT: grows geometrically
// CHECK: cache preallocated once from the trip count
// CHECK-NOT: grows geometrically

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

#define GN 12
double gp_lml(const double *theta, const double *x, const double *y, int n) {
  double ell = exp(theta[0]), s2 = exp(theta[1]), sn2 = exp(theta[2]);
  double L[GN * GN], z[GN], alpha[GN];
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double d = x[i] - x[j];
      double k = s2 * exp(-0.5 * d * d / (ell * ell));
      if (i == j)
        k += sn2;
      L[i * n + j] = k;
    }
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++) {
      double s = L[i * n + j];
      for (int k = 0; k < j; k++)
        s -= L[i * n + k] * L[j * n + k];
      if (i == j)
        L[i * n + i] = sqrt(s);
      else
        L[i * n + j] = s / L[j * n + j];
    }
  for (int i = 0; i < n; i++) {
    double s = y[i];
    for (int k = 0; k < i; k++)
      s -= L[i * n + k] * z[k];
    z[i] = s / L[i * n + i];
  }
  for (int i = n - 1; i >= 0; i--) {
    double s = z[i];
    for (int k = i + 1; k < n; k++)
      s -= L[k * n + i] * alpha[k];
    alpha[i] = s / L[i * n + i];
  }
  double quad = 0, logdet = 0;
  for (int i = 0; i < n; i++) {
    quad += y[i] * alpha[i];
    logdet += log(L[i * n + i]);
  }
  return -0.5 * quad - logdet - 0.5 * n * log(2 * M_PI);
}

static double X[GN], Y[GN];
static double fx(const double *t) { return gp_lml(t, X, Y, GN); }

int main(void) {
  for (int i = 0; i < GN; i++) {
    X[i] = lt_vd(-1 + 2.0 * i / (GN - 1));
    Y[i] = lt_vd(sin(3 * X[i]) + 0.1 * cos(7.0 * i));
  }
  double t[3] = {lt_vd(-0.7), lt_vd(0.2), lt_vd(-2.0)}, dt[3] = {0};
  __enzyme_autodiff((void *)gp_lml, enzyme_dup, t, dt, enzyme_const, X,
                    enzyme_const, Y, enzyme_const, lt_vi(GN));
  for (int i = 0; i < 3; i++) {
    char w[32];
    snprintf(w, sizeof w, "d/dtheta[%d]", i);
    lt_check(w, dt[i], lt_fd_arr(fx, t, 3, i), 1e-6, 1e-8);
  }
  return lt_done();
}
