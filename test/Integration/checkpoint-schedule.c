// How often a checkpointed time loop runs its steps again (gen/ckptrt.c).
// With s snapshot slots (the first holds the state of step 0) and T steps,
// the binomial schedule reverses the loop with each step run again at most
// r - 1 times after the forward sweep, r the least with C(s + r, s) >= T:
// the forward sweep is the first of Revolve's r runs, because it keeps the
// states where the reverse sweep's first descent cuts the steps (before,
// the forward sweep kept only step 0 and the reverse sweep ran every step
// once more than the bound: 58175 steps run again for Burgers at N = 4000,
// T = 20000 and 62 slots, against 38176 then). Within the bound, the cut
// of each range is where no schedule runs fewer steps again (gen/ckpttv.c:
// the largest left part alone was not always: 4299, 1760, 846 and 358
// steps run again here against 4193, 1290, 772 and 142 now; Burgers with
// 124 slots 35262 -> 32002). The report gives s and the steps run again;
// the awk script checks the bound and the fewest for each budget, and
// the program checks each gradient bitwise against the unbudgeted one and
// the unbudgeted one against central differences.
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t -lm
// RUN: env LEANTAPE_REPORT=1 %t 2> %t.err
// RUN: awk -f %S/../Inputs/ckpt-bound.awk %t.err | FileCheck %s
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint %s -o %t.O0 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O0 2> %t.O0.err
// RUN: awk -f %S/../Inputs/ckpt-bound.awk %t.O0.err | FileCheck %s
// CHECK-NOT: BAD
// CHECK-COUNT-5: within the bound
// CHECK-NOT: BAD
// CHECK: 5 schedules

#include "check.h"
#include <leantape.h>
#include <stdlib.h>
#include <string.h>

enum { N = 16, T = 500 };

#include "burgers.h"

static void init(double *u) {
  for (int i = 0; i < N; i++)
    u[i] = 0.5 + 0.4 * sin(0.9 * i);
}

static double value(const double *p) {
  double u[N], tmp[N] = {0};
  memcpy(u, p, sizeof u);
  return burgers(u, tmp, N, T);
}

static void gradient(double *g) {
  double u[N], tmp[N] = {0}, dtmp[N] = {0};
  init(u);
  memset(g, 0, N * sizeof *g);
  __enzyme_autodiff((void *)burgers, enzyme_dup, u, g, enzyme_dup, tmp, dtmp,
                    enzyme_const, N, enzyme_const, T);
}

int main(void) {
  /* budgets from a few snapshots (steps run again many times) to many */
  static const char *budgets[] = {"1200", "1800", "3K", "8K", "40K"};
  double g0[N], g[N], p[N];
  unsetenv("LEANTAPE_TAPE_BUDGET");
  gradient(g0);
  for (size_t k = 0; k < sizeof budgets / sizeof *budgets; k++) {
    setenv("LEANTAPE_TAPE_BUDGET", budgets[k], 1);
    gradient(g);
    for (int i = 0; i < N; i++) {
      char w[100];
      snprintf(w, sizeof w, "d[%d], budget %s vs none (bitwise)", i, budgets[k]);
      lt_check(w, g[i], g0[i], 0, 0);
    }
  }
  init(p);
  for (int i = 0; i < N; i++) {
    char w[100];
    snprintf(w, sizeof w, "d[%d] vs central difference", i);
    lt_check(w, g0[i], lt_fd_at(value, p, i), 1e-5, 1e-7);
  }
  return lt_done();
}
