// A running maximum (or minimum) as a select, m = x[i] > m ? x[i] : m:
// the reverse needs each iteration's compare, not the maximum so far, so
// the plan tapes the compare (1 byte an iteration) where it taped the
// PHI (8 bytes): GradBench's lse kept 1.28 MB for 160000 elements
// (plan/source.c cheaper_taped). Gradients against central differences at
// -O0 and -O2: log-sum-exp with its maximum subtracted, a softmax
// cross-entropy, a running minimum whose result scales a sum, and a
// maximum with ties (the primal's compare decides which of equal values
// gets the adjoint: with >=, the last). fmax and fminf (llvm.maxnum,
// minnum) around a loop become a select on their rule's own condition
// (prep/reduce.c): softmax cross-entropy's fmax, fmax with the maximum
// so far first over equal maxima (the first keeps the adjoint) and a NaN
// (passed over), a float running minimum through fminf. At -O2 the
// remarks show the 1-byte cache.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Rpass-analysis=leantape 2>%t.rem && %t.O2
// RUN: FileCheck %s --check-prefix=REM < %t.rem

#include "loopcheck.h"
#include <stdio.h>

#define N 40

// REM-DAG: remark: loop (depth 1) in 'lse': caches 1 bytes per iteration: value (i1
double lse(const double *x, int n) {
  double mx = x[0];
  for (int i = 1; i < n; i++)
    mx = x[i] > mx ? x[i] : mx;
  double s = 0;
  for (int i = 0; i < n; i++)
    s += exp(x[i] - mx);
  return log(s) + mx;
}

// REM-DAG: remark: loop (depth 1) in 'xent': caches 1 bytes per iteration: value (i1
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

/* fmax with the maximum so far first: at a tie it keeps the adjoint (the
 * rule gives ties to the first operand), and a NaN is passed over */
// REM-DAG: remark: loop (depth 1) in 'fmaxfirst': caches 1 bytes per iteration: value (i1
double fmaxfirst(const double *x, int n) {
  double mx = x[0];
  for (int i = 1; i < n; i++)
    mx = fmax(mx, x[i]);
  return mx * mx + sin(mx);
}

/* a float running minimum through fminf */
float fminrun(const float *x, int n) {
  float mn = x[0], t = 0;
  for (int i = 1; i < n; i++)
    mn = fminf(x[i], mn);
  for (int i = 0; i < n; i++)
    t += expf(mn - x[i]);
  return logf(t) + 0.5f * mn * mn;
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
  { /* fmax(max so far, x[i]) over two equal maxima and a NaN */
    double x[N], g[N] = {0};
    lt_data(x, N, -1.5, 1.5, 31);
    x[7] = x[29] = 2.0;
    x[13] = NAN;
    __enzyme_autodiff((void *)fmaxfirst, enzyme_dup, x, g, enzyme_const, N);
    lt_check("fmax ties: the adjoint stays with the first of the equal maxima", g[7],
             2 * 2.0 + cos(2.0), 1e-12, 1e-12);
    lt_check("fmax ties: none to the later one", g[29], 0, 0, 0);
    lt_check("fmax: none to the NaN passed over", g[13], 0, 0, 0);
  }
  { /* fminf: against central differences in double of the float function */
    float x[N], g[N] = {0};
    double xd[N];
    lt_data(xd, N, -1.5, 1.5, 37);
    for (int i = 0; i < N; i++)
      x[i] = (float)xd[i];
    x[11] = -2.0f; /* the minimum, clear of the rest (>= -1.5) by more than a step */
    __enzyme_autodiff((void *)fminrun, enzyme_dup, x, g, enzyme_const, N);
    for (int i = 0; i < N; i++) {
      float xp[N], xm[N];
      memcpy(xp, x, sizeof xp);
      memcpy(xm, x, sizeof xm);
      xp[i] += 1e-3f;
      xm[i] -= 1e-3f;
      double fd = ((double)fminrun(xp, N) - fminrun(xm, N)) / ((double)xp[i] - xm[i]);
      char what[40];
      snprintf(what, sizeof what, "fminf[%d]", i);
      lt_check(what, g[i], fd, 1e-2, 1e-2);
    }
  }
  return lt_done();
}
