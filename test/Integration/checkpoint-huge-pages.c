// The snapshot slots of a checkpointed time loop get transparent huge
// pages when they take 4 MiB or more (gen/ckptrt.c lt.ckpt.huge, arena.c's
// lt.arena.huge): malloc maps a large slot area afresh for every gradient,
// and faulting it in 4 KiB at a time took a seventh of Burgers' gradient
// under a 64 MB budget (grad/primal 7.1 -> 5.7; the online ODE 7.9 ->
// 4.7). Counted through the linker's --wrap of madvise: with a budget of
// 200 KB (first: no earlier gradient's arena size hint) nothing is
// advised, with 8 MB the slots are (whole 2 MiB pages); the gradients
// equal the unbudgeted one and central differences.
// REQUIRES: linux-thp
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t -lm -Wl,--wrap=madvise
// RUN: env LEANTAPE_REPORT=1 %t 2> %t.err
// RUN: FileCheck %s < %t.err
// CHECK: leantape: checkpointing 600 steps: {{[0-9]}} snapshots of 31984 bytes (tape budget 204800 bytes)
// CHECK: leantape: checkpointing 600 steps: {{[0-9]+}} snapshots of 31984 bytes (tape budget 8388608 bytes)
// CHECK: leantape: taping 600 steps (no tape budget)

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int __real_madvise(void *, size_t, int);
static long nadvise, nbad;
int __wrap_madvise(void *p, size_t n, int advice) {
  nadvise++;
  if (advice != 14 || ((uintptr_t)p & ((2u << 20) - 1)) || n % (2u << 20) || !n)
    nbad++;
  return __real_madvise(p, n, advice);
}

enum { N = 4000, T = 600 };

#define BURGERS_NU 0.001
#include "burgers.h"

static double u0[N];

static double value(int k, double h) {
  static double u[N], t[N];
  memcpy(u, u0, sizeof u);
  memset(t, 0, sizeof t);
  u[k] += h;
  return burgers(u, t, N, T);
}

int main(void) {
  for (int i = 0; i < N; i++)
    u0[i] = sin(2 * M_PI * i / N) + 0.5;
  const char *budgets[3] = {"200K", "8M", NULL};
  long advised[3];
  static double g[3][N];
  for (int k = 0; k < 3; k++) {
    if (budgets[k])
      setenv("LEANTAPE_TAPE_BUDGET", budgets[k], 1);
    else
      unsetenv("LEANTAPE_TAPE_BUDGET");
    static double u[N], t[N], dt[N];
    memcpy(u, u0, sizeof u);
    memset(t, 0, sizeof t);
    memset(dt, 0, sizeof dt);
    long before = nadvise;
    __enzyme_autodiff((void *)burgers, enzyme_dup, u, g[k], enzyme_dup, t, dt, enzyme_const, N,
                      enzyme_const, T);
    advised[k] = nadvise - before;
  }
  lt_check("200K: nothing advised", advised[0], 0, 0, 0);
  lt_check("8M: the slots are advised", advised[1] >= 1, 1, 0, 0);
  lt_check("advice on whole 2 MiB pages only", nbad, 0, 0, 0);
  for (int k = 0; k < 2; k++) {
    char w[80];
    snprintf(w, sizeof w, "budget %s", budgets[k]);
    lt_check_bitwise(w, g[k], g[2], N);
  }
  int idx[3] = {1, 1200, N - 2};
  for (int j = 0; j < 3; j++) {
    double h = 1e-5, fd = (value(idx[j], h) - value(idx[j], -h)) / (2 * h);
    char w[80];
    snprintf(w, sizeof w, "du[%d] vs central difference", idx[j]);
    lt_check(w, g[2][idx[j]], fd, 1e-5, 1e-7);
  }
  return lt_done();
}
