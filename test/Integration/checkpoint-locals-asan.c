// Checkpointed time loops whose state includes the function's own local
// arrays. A checkpointed gradient snapshots, restores and re-runs steps
// while R runs, after the primal code's end; a local the steps write must
// therefore live until the gradient returns. Clang ends a local's
// lifetime (llvm.lifetime.end) where its scope ends, which A reproduced:
// the snapshots then read, and the re-run steps wrote, a dead local
// (AddressSanitizer: stack-use-after-scope; stack colouring may give the
// slot to another local). Found by the random tester (--timeloop seed
// 201020, -O1): a step that updates a local array, in part inside a
// branch over a small inner loop. Built with AddressSanitizer at -O1 and
// -O2; each gradient with no budget and with budgets of a few snapshots
// and one, equal to rounding (at -O2 smooth's b[0], which the loop never
// writes, goes to each step by value; checkpointed, the gradients of such
// values are summed over all steps before they join the caller's, so the
// last bit of d[0] differs), and against central differences.
// REQUIRES: asan
// RUN: %ltclang %ltload -O1 -g -fsanitize=address -mllvm -leantape-checkpoint %s -o %t.O1 -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.O1
// RUN: %ltclang %ltload -O2 -g -fsanitize=address -mllvm -leantape-checkpoint %s -o %t.O2 -lm
// RUN: env ASAN_OPTIONS=detect_leaks=0 %t.O2
// The locals that steps reach keep no lifetime markers in the gradient
// (without ASan, which keeps them apart anyway):
// RUN: %ltclang %ltload -O1 -mllvm -leantape-checkpoint %s -S -emit-llvm -o %t.ll
// RUN: FileCheck %s --check-prefix=SMOOTH < %t.ll
// RUN: FileCheck %s --check-prefix=SCATTER < %t.ll
// SMOOTH-LABEL: define {{.*}} @smooth.lt.grad(
// SMOOTH-NOT: llvm.lifetime
// SMOOTH: {{^}}}
// SCATTER-LABEL: define {{.*}} @scatter.lt.grad(
// SCATTER-NOT: llvm.lifetime
// SCATTER: {{^}}}

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 8, T = 6 };

/* a local state, updated in place with a branch over a small inner loop */
double smooth(const double *x, int n) {
  double a[N], b[N];
  for (int i = 0; i < N; i++)
    a[i] = cos(x[i]), b[i] = sin(x[i]);
  for (int t = 0; t < T; t++) {
    a[0] += 0.3 * cos(a[N - 1]);
    if (x[5] < 0.2) {
      for (int i = 0; i < 5; i++)
        b[(i + 1) % N] = 0.42 * b[(i + 1) % N] + 0.58 * tanh(a[i] * b[i]);
    } else {
      b[4] = 0.31 * b[4] + 0.69 * tanh(x[7] + b[4]);
    }
    for (int i = 1; i < n; i++)
      a[i] = 0.74 * a[i] + 0.26 * sin(a[i - 1] * b[i]);
  }
  double s = 0;
  for (int i = 0; i < N; i++)
    s += a[i] * b[i];
  return s;
}

/* two locals, one the scratch of the other, in a nested scope */
double scatter(const double *x, int n) {
  double acc = 0;
  {
    double u[N];
    for (int i = 0; i < N; i++)
      u[i] = x[i];
    for (int t = 0; t < T; t++) {
      double w[N];
      for (int i = 0; i < n; i++)
        w[i] = u[i] * u[(i + 1) % N];
      for (int i = 0; i < n; i++)
        u[i] = 0.5 * u[i] + 0.5 * sin(w[i]);
    }
    for (int i = 0; i < N; i++)
      acc += u[i];
  }
  return acc * acc;
}

static double value(int which, const double *x) { return which ? scatter(x, N) : smooth(x, N); }

__attribute__((noinline)) static void gradient(int which, const double *x, double *g) {
  memset(g, 0, N * sizeof *g);
  if (which)
    __enzyme_autodiff((void *)scatter, enzyme_dup, x, g, enzyme_const, N);
  else
    __enzyme_autodiff((void *)smooth, enzyme_dup, x, g, enzyme_const, N);
}

int main(void) {
  const char *budgets[4] = {NULL, "2000", "400", "1"};
  const char *names[2] = {"smooth", "scatter"};
  for (int which = 0; which < 2; which++)
    for (int side = 0; side < 2; side++) { /* both sides of smooth's branch */
      double x[N], g[4][N];
      for (int i = 0; i < N; i++)
        x[i] = 0.4 * sin(1.3 * i + 0.2);
      x[5] = side ? 0.9 : -0.5;
      for (int k = 0; k < 4; k++) {
        if (budgets[k])
          setenv("LEANTAPE_TAPE_BUDGET", budgets[k], 1);
        else
          unsetenv("LEANTAPE_TAPE_BUDGET");
        gradient(which, x, g[k]);
        char w[120];
        for (int i = 0; i < N; i++) {
          snprintf(w, sizeof w, "%s/%d: d[%d], budget %s vs none", names[which], side,
                   i, budgets[k] ? budgets[k] : "none");
          lt_check(w, g[k][i], g[0][i], 1e-14, 1e-14);
        }
      }
      for (int i = 0; i < N; i++) {
        double q[N], h = 1e-6;
        memcpy(q, x, sizeof q);
        q[i] = x[i] + h;
        double fp = value(which, q);
        q[i] = x[i] - h;
        double fd = (fp - value(which, q)) / (2 * h);
        char w[120];
        snprintf(w, sizeof w, "%s/%d: d[%d] vs central difference", names[which], side, i);
        lt_check(w, g[0][i], fd, 1e-5, 1e-7);
      }
    }
  return lt_done();
}
