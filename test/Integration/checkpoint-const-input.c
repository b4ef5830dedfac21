// Checkpointing (-leantape-checkpoint) of time loops that read an input
// the program never writes, a static const table (in .rodata), passed as
// a pointer. What the steps read and code after the loop may change is
// saved at the first step and put back while R runs steps again
// (gen/ckpt.c, snapshot ops 4 and 5); f is such a read, since the
// analysis cannot rule out that it aliases u or w, which the steps write.
// The put back must not write bytes that did not change: it wrote into the
// table and crashed, with a tape budget only. Each gradient is computed
// with no budget (every step taped) and with budgets of many, a few (the
// budget also holds the reversed step's tape and the reads' buffer) and
// one snapshot slots; all must be bitwise equal and match central
// differences. Shapes, with f the table (a shadow for it, or constant) or
// a copy of it on the stack:
//  - relax: a while loop run until its residual is small (online,
//    gen/ckptol.c);
//  - sweeps: the same sweep a fixed number of times (offline).
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint %s -o %t.O0 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O0 2> %t.O0.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.O0.err
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t.O2 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O2 2> %t.O2.err
// RUN: FileCheck %s --check-prefix=REPORT < %t.O2.err
// The budget from the environment alone (main sets none of its own then):
// RUN: env LEANTAPE_TAPE_BUDGET=1100 %t.O0 env
// RUN: env LEANTAPE_TAPE_BUDGET=1100 %t.O2 env
//
// Each case taped (no budget), then checkpointed; with a few slots and one
// (relax's scratch w is written before it is read: at -O2 it is not in the
// snapshots, which then hold u alone, twice as many in the same budget):
// REPORT-LABEL: case: relax, table with a shadow
// REPORT-NEXT: leantape: taping the steps as they run (no tape budget)
// REPORT: leantape: checkpointing online (steps not known in advance): {{[2-9]}} snapshots of {{[0-9]+}} bytes, at most {{[1-4]}} kept while the steps run (tape budget 1100 bytes)
// REPORT-NEXT: leantape: [[T:[0-9]+]] checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-NEXT: leantape: checkpointing online (steps not known in advance): 1 snapshots of {{[0-9]+}} bytes, at most 1 kept while the steps run (tape budget 100 bytes)
// REPORT-NEXT: leantape: [[T]] checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-LABEL: case: relax, constant table
// REPORT-NEXT: leantape: taping the steps as they run (no tape budget)
// REPORT: leantape: checkpointing online (steps not known in advance): {{[2-9]}} snapshots of {{[0-9]+}} bytes, at most {{[1-4]}} kept while the steps run (tape budget 1100 bytes)
// REPORT-NEXT: leantape: [[T:[0-9]+]] checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-NEXT: leantape: checkpointing online (steps not known in advance): 1 snapshots of {{[0-9]+}} bytes, at most 1 kept while the steps run (tape budget 100 bytes)
// REPORT-NEXT: leantape: [[T]] checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-LABEL: case: relax, stack copy
// REPORT-NEXT: leantape: taping the steps as they run (no tape budget)
// REPORT: leantape: checkpointing online (steps not known in advance): {{[2-9]}} snapshots of {{[0-9]+}} bytes, at most {{[1-4]}} kept while the steps run (tape budget 1100 bytes)
// REPORT-NEXT: leantape: [[T:[0-9]+]] checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-NEXT: leantape: checkpointing online (steps not known in advance): 1 snapshots of {{[0-9]+}} bytes, at most 1 kept while the steps run (tape budget 100 bytes)
// REPORT-NEXT: leantape: [[T]] checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-LABEL: case: sweeps, table with a shadow
// REPORT-NEXT: leantape: taping 30 steps (no tape budget)
// REPORT: leantape: checkpointing 30 steps: 6 snapshots of {{[0-9]+}} bytes (tape budget 1100 bytes)
// REPORT-NEXT: leantape: 30 checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-NEXT: leantape: checkpointing 30 steps: 1 snapshots of {{[0-9]+}} bytes (tape budget 100 bytes)
// REPORT-NEXT: leantape: 30 checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-LABEL: case: sweeps, constant table
// REPORT-NEXT: leantape: taping 30 steps (no tape budget)
// REPORT: leantape: checkpointing 30 steps: 6 snapshots of {{[0-9]+}} bytes (tape budget 1100 bytes)
// REPORT-NEXT: leantape: 30 checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-NEXT: leantape: checkpointing 30 steps: 1 snapshots of {{[0-9]+}} bytes (tape budget 100 bytes)
// REPORT-NEXT: leantape: 30 checkpointed steps reversed, {{[0-9]+}} steps run again
// REPORT-NOT: leantape

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 8, SWEEPS = 30 };

static const double F[N] = {1, 1.1, 1.2, 1.3, 1.4, 1.5, 1.6, 1.7};

/* u <- the fixed point of a damped nonlinear Jacobi sweep, f the source;
 * w: scratch */
double relax(double *u, const double *f, double *w, int n) {
  double res = 1;
  while (res > 1e-14) {
    for (int i = 1; i < n - 1; i++)
      w[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]) + 0.02 * f[i] * cos(u[i]);
    res = 0;
    for (int i = 1; i < n - 1; i++) {
      double d = w[i] - u[i];
      res += d * d;
    }
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i];
    /* relative to the boundary values (a plain 0 when n <= 2 would let
     * -O2 give the loop a second exit) */
    res = res / (1 + u[0] * u[0] + u[n - 1] * u[n - 1]);
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i] * f[i];
  return e;
}

/* the same sweep, SWEEPS times */
double sweeps(double *u, const double *f, double *w, int n) {
  for (int t = 0; t < SWEEPS; t++) {
    for (int i = 1; i < n - 1; i++)
      w[i] = 0.5 * u[i] + 0.25 * (u[i - 1] + u[i + 1]) + 0.02 * f[i] * cos(u[i]);
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i] * f[i];
  return e;
}

enum { RELAX_DUP, RELAX_CONST, RELAX_STACK, SWEEPS_DUP, SWEEPS_CONST, NCASES };
static const char *names[NCASES] = {"relax, table with a shadow", "relax, constant table",
                                    "relax, stack copy", "sweeps, table with a shadow",
                                    "sweeps, constant table"};

/* p = [u0 (n), f (n)] */
static double value(int which, const double *p0) {
  double u[N], w[N] = {0};
  memcpy(u, p0, sizeof u);
  return which < SWEEPS_DUP ? relax(u, p0 + N, w, N) : sweeps(u, p0 + N, w, N);
}

/* the gradient in u0, and in f unless f is constant (g[N..] stays 0) */
__attribute__((noinline)) static void gradient(int which, const double *u0, double *g) {
  double u[N], f[N], w[N] = {0}, dw[N] = {0};
  memcpy(u, u0, sizeof u);
  memcpy(f, F, sizeof f);
  memset(g, 0, 2 * N * sizeof *g);
  switch (which) {
  case RELAX_DUP:
    __enzyme_autodiff((void *)relax, enzyme_dup, u, g, enzyme_dup, F, g + N, enzyme_dup, w, dw,
                      enzyme_const, N);
    break;
  case RELAX_CONST:
    __enzyme_autodiff((void *)relax, enzyme_dup, u, g, enzyme_const, F, enzyme_dup, w, dw,
                      enzyme_const, N);
    break;
  case RELAX_STACK:
    __enzyme_autodiff((void *)relax, enzyme_dup, u, g, enzyme_dup, f, g + N, enzyme_dup, w, dw,
                      enzyme_const, N);
    break;
  case SWEEPS_DUP:
    __enzyme_autodiff((void *)sweeps, enzyme_dup, u, g, enzyme_dup, F, g + N, enzyme_dup, w,
                      dw, enzyme_const, N);
    break;
  default:
    __enzyme_autodiff((void *)sweeps, enzyme_dup, u, g, enzyme_const, F, enzyme_dup, w, dw,
                      enzyme_const, N);
    break;
  }
}

int main(int argc, char **argv) {
  /* none; many slots; a few; fewer; one (the state: u and w, 12 doubles, and
   * the carried cells); or, with an argument, the environment's */
  const char *budgets[5] = {NULL, "8K", "1600", "1100", "100"};
  int nb = argc > 1 ? 1 : 5;
  (void)argv;
  for (int which = 0; which < NCASES; which++) {
    fprintf(stderr, "case: %s\n", names[which]);
    double p[2 * N], g[5][2 * N];
    for (int i = 0; i < N; i++)
      p[i] = 0.3 * sin(0.9 * i), p[N + i] = F[i];
    p[0] = 0.2, p[N - 1] = -0.1; /* the fixed boundary values */
    for (int k = 0; k < nb; k++) {
      if (argc == 1 && budgets[k])
        setenv("LEANTAPE_TAPE_BUDGET", budgets[k], 1);
      else if (argc == 1)
        unsetenv("LEANTAPE_TAPE_BUDGET");
      const char *b = getenv("LEANTAPE_TAPE_BUDGET");
      gradient(which, p, g[k]);
      char w[120];
      for (int i = 0; i < 2 * N; i++) {
        snprintf(w, sizeof w, "%s: d[%d], budget %s vs none (bitwise)", names[which], i,
                 b ? b : "none");
        lt_check(w, g[k][i], g[0][i], 0, 0);
      }
    }
    int nd = which == RELAX_CONST || which == SWEEPS_CONST ? N : 2 * N;
    for (int i = 0; i < 2 * N; i++) {
      double q[2 * N], h = 1e-6, fd = 0;
      if (i < nd) {
        memcpy(q, p, sizeof q);
        q[i] = p[i] + h;
        double fp = value(which, q);
        q[i] = p[i] - h;
        fd = (fp - value(which, q)) / (2 * h);
      }
      char w[120];
      snprintf(w, sizeof w, "%s: d[%d] vs central difference", names[which], i);
      lt_check(w, g[0][i], fd, 1e-5, 1e-7);
    }
  }
  return lt_done();
}
