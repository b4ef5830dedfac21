// A running maximum (or minimum) as a select, m = x[i] > m ? x[i] : m:
// the reverse needs each iteration's compare, not the maximum so far, so
// the plan tapes the compare (1 byte an iteration) where it taped the
// PHI (8 bytes): GradBench's lse kept 1.28 MB for 160000 elements
// (plan/source.c cheaper_taped). Gradients against central differences at
// -O0 and -O2: log-sum-exp with its maximum subtracted, a softmax
// cross-entropy, a running minimum whose result scales a sum, and a
// maximum with ties (the primal's compare decides which of equal values
// gets the adjoint: with >=, the last). At -O2 the remarks show the 1-byte
// cache.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Rpass-analysis=leantape 2>%t.rem && %t.O2
// RUN: FileCheck %s --check-prefix=REM < %t.rem

#include "loopcheck.h"
#include <stdio.h>

#define N 40

// REM: remark: loop (depth 1) in 'lse': caches 1 bytes per iteration: value (i1
double lse(const double *x, int n) {
  double mx = x[0];
  for (int i = 1; i < n; i++)
    mx = x[i] > mx ? x[i] : mx;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - mx);
  return log(s) + mx;
}

double xent(const double *x, int n) {
  double mx = x[0];
  for (int i = 1; i < n; i++)
    mx = fmax(x[i], mx);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - mx);
  return -(x[3] - mx - log(s));
}

double runmin(const double *x, int n) {
  double mn = x[0], t = 0;
  for (int i = 1; i < n; i++) {
    mn = x[i] < mn ? x[i] : mn;
    t += mn * x[i];
  }
  return t + mn * mn;
}

double ties(const double *x, int n) {
  double mx = x[0];
  for (int i = 1; i < n; i++)
    mx = x[i] >= mx ? x[i] : mx;
  return mx * mx + sin(mx);
}

struct ctx { int shape; };

static double run(int shape, const double *x) {
  switch (shape) {
  case 0: return lse(x, N);
  case 1: return xent(x, N);
  case 2: return runmin(x, N);
  default: return ties(x, N);
  }
}

static double fd_obj(double *x, void *p) { return run(((struct ctx *)p)->shape, x); }

int main(void) {
  for (int shape = 0; shape <= 3; shape++) {
    double x[N], g[N] = {0}, fd[N];
    struct ctx cx = {shape};
    lt_data(x, N, -1.5, 1.5, shape + 21);
    if (shape == 3) /* two equal maxima, apart */
      x[7] = x[29] = 2.0;
    lt_fd_grad(fd_obj, x, N, &cx, fd);
    switch (shape) {
    case 0: __enzyme_autodiff((void *)lse, enzyme_dup, x, g, enzyme_const, N); break;
    case 1: __enzyme_autodiff((void *)xent, enzyme_dup, x, g, enzyme_const, N); break;
    case 2: __enzyme_autodiff((void *)runmin, enzyme_dup, x, g, enzyme_const, N); break;
    default: __enzyme_autodiff((void *)ties, enzyme_dup, x, g, enzyme_const, N);
    }
    char what[32];
    snprintf(what, sizeof what, "shape %d", shape);
    if (shape == 3) { /* at a tie the function has no derivative: the primal's choice */
      double want = 2 * 2.0 + cos(2.0);
      lt_check("ties: the adjoint goes to the last of the equal maxima (>=)", g[29], want,
               1e-12, 1e-12);
      lt_check("ties: none to the first", g[7], 0, 0, 0);
      continue;
    }
    lt_gradv(what, N, g, fd, NULL, 1e-6, 1e-6);
  }
  return lt_done();
}
