// lgamma writes the global signgam and nothing else (glibc): a call of it
// (inactive here, of a constant argument) must not count as writing all
// memory, which taped every load before it (GradBench's gmm: the Wishart
// prior's lgamma after the main loops, 18.6 -> 10.4 MB). But where the
// program reads signgam, lgamma's write of it counts: `sg` reads it after
// each call, and the next call overwrites it, so its value is taped, not
// read again after the loop (the sign of Γ alternates with a[i]: Γ(-0.5)
// < 0 < Γ(0.5)). Against the analytic gradient and central differences at
// -O0 and -O2.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O2 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s
// CHECK: remark: loop (depth 1) in 'prior': caches nothing per iteration; {{[0-9]+}} recomputed, {{[1-9]}} re-loaded
// CHECK: remark: loop (depth 1) in 'sg': caches {{[0-9]+}} bytes per iteration: {{.*}}load (i32, line

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

#define NI __attribute__((noinline))
#define N 6

/* sum of sin(x_i) x_i, then a constant from lgamma */
NI double prior(const double *x, int n, double a) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(x[i]) * x[i];
  return s + lgamma(a) + lgamma(a + 0.5);
}

/* sum of sign(Γ(a_i)) x_i^2: signgam read after each call */
NI double sg(const double *x, const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += lgamma(a[i]);
    s += signgam * x[i] * x[i];
  }
  return s;
}

int main(void) {
  double x[N], dx[N], a[N];
  for (int k = 0; k < N; k++) {
    x[k] = 0.3 + 0.2 * k;
    a[k] = k % 2 ? 0.5 + k : -0.5 - k; /* Γ(-0.5 - k) < 0 for even k */
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)prior, enzyme_dup, x, dx, enzyme_const, N, enzyme_const, 3.5);
  for (int k = 0; k < N; k++) {
    double h = 1e-6, xk = x[k];
    x[k] = xk + h;
    double fp = prior(x, N, 3.5);
    x[k] = xk - h;
    double fm = prior(x, N, 3.5);
    x[k] = xk;
    char what[48];
    snprintf(what, sizeof what, "prior d[%d]", k);
    lt_grad(what, xk, dx[k], cos(xk) * xk + sin(xk), (fp - fm) / (2 * h), 1e-12, 1e-6);
  }
  memset(dx, 0, sizeof dx);
  __enzyme_autodiff((void *)sg, enzyme_dup, x, dx, enzyme_const, a, enzyme_const, N);
  for (int k = 0; k < N; k++) {
    double h = 1e-6, xk = x[k];
    x[k] = xk + h;
    double fp = sg(x, a, N);
    x[k] = xk - h;
    double fm = sg(x, a, N);
    x[k] = xk;
    lgamma(a[k]);
    double want = 2.0 * signgam * xk;
    char what[48];
    snprintf(what, sizeof what, "sg d[%d] (sign %d)", k, signgam);
    lt_grad(what, xk, dx[k], want, (fp - fm) / (2 * h), 1e-12, 1e-6);
  }
  return lt_done();
}
