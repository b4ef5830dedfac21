// Snapshots of checkpointed time loops leave out memory that every step
// writes before it reads it (analysis/steprun.c lt_step_write_first;
// gen/snapshot.c), where no read through another pointer reaches it (a
// run-time test). Burgers' scratch row is such memory: its snapshot holds
// u alone (496 bytes for 64 points, not 992), so the same budget holds
// twice the snapshots. Each case is differentiated with no budget, with
// budgets of a few snapshots and of one; the gradients must be bitwise
// equal and match central differences. The cases:
//  - scratch: u updated through tmp (tmp left out);
//  - overlap: the same function with tmp 8 elements below u in one
//    buffer: u's reads get ahead of tmp's writes, and read bytes only tmp
//    writes (the run-time test keeps tmp);
//  - readfirst: w[i] = 0.5 w[i] + ... reads w before the step writes it
//    (w kept; its initial values have a gradient);
//  - partial: the step writes w[1..n-2] and reads w[i + 1] up to w[n-1],
//    which no step writes (w kept; w[n-1]'s gradient is not 0);
//  - rows: a scratch matrix of constant row length, written row by row
//    and copied back (at -O2 the copy's row loop is unrolled: each load
//    at a constant offset in a row the store's loop spans); left out, the
//    snapshot holds the hull of u's rows' interiors, 62 doubles.
// RUN: %ltclang %ltload -O0 -mllvm -leantape-checkpoint %s -o %t.O0 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O0 2> %t.O0.err
// RUN: FileCheck %s < %t.O0.err
// RUN: %ltclang %ltload -O2 -mllvm -leantape-checkpoint %s -o %t.O2 -lm
// RUN: env LEANTAPE_REPORT=1 %t.O2 2> %t.O2.err
// RUN: FileCheck %s < %t.O2.err
// CHECK-LABEL: case: scratch
// CHECK-NEXT: leantape: checkpointing 40 steps: {{[2-9]}} snapshots of 496 bytes (tape budget 8000 bytes)
// CHECK: leantape: checkpointing 40 steps: 1 snapshots of 496 bytes (tape budget 1 bytes)
// CHECK-LABEL: case: overlap
// CHECK-NEXT: leantape: checkpointing 40 steps: {{[0-9]+}} snapshots of 992 bytes (tape budget 8000 bytes)
// CHECK-LABEL: case: readfirst
// CHECK-NEXT: leantape: checkpointing 40 steps: {{[0-9]+}} snapshots of 992 bytes (tape budget 8000 bytes)
// CHECK-LABEL: case: partial
// CHECK-NEXT: leantape: checkpointing 40 steps: {{[0-9]+}} snapshots of 992 bytes (tape budget 8000 bytes)
// CHECK-LABEL: case: rows
// CHECK-NEXT: leantape: checkpointing 40 steps: {{[2-9]}} snapshots of 496 bytes (tape budget 8000 bytes)

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 64, T = 40, R = 4, M = 16 };

#include "burgers.h"

double readfirst(double *u, double *w, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      w[i] = 0.5 * w[i] + 0.5 * u[i] + 0.1 * u[i] * (u[i + 1] - u[i - 1]);
    for (int i = 1; i < n - 1; i++)
      u[i] = w[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i] + w[i];
  return e;
}

double partial(double *u, double *w, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      w[i] = u[i] + 0.05 * sin(u[i + 1] - u[i - 1]);
    for (int i = 1; i < n - 1; i++)
      u[i] = 0.5 * (w[i] + w[i + 1]);
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i];
  return e;
}

/* r rows of M, the interior 1..M-2 of each */
double rows(double (*u)[M], double (*s)[M], int r, int steps) {
  for (int t = 0; t < steps; t++) {
    for (int j = 0; j < r; j++)
      for (int i = 1; i < M - 1; i++)
        s[j][i] = u[j][i] + 0.1 * u[j][i] * (u[j][i + 1] - 2 * u[j][i] + u[j][i - 1]);
    for (int j = 0; j < r; j++)
      for (int i = 1; i < M - 1; i++)
        u[j][i] = s[j][i];
  }
  double e = 0;
  for (int j = 0; j < r; j++)
    for (int i = 0; i < M; i++)
      e += u[j][i] * u[j][i];
  return e;
}

/* x: the inputs (2 N doubles); the function's value */
static double run(int which, double *x, double *dx) {
  double *a = x, *b = x + N;
  if (which == 1) { /* overlap: tmp below u, u's reads ahead of tmp's writes */
    a = x + 8;
    b = x;
  }
  if (!dx) {
    switch (which) {
    case 0:
    case 1:
      return burgers(a, b, N, T);
    case 2:
      return readfirst(a, b, N, T);
    case 3:
      return partial(a, b, N, T);
    default:
      return rows((double(*)[M])a, (double(*)[M])b, R, T);
    }
  }
  double *da = dx + (a - x), *db = dx + (b - x);
  switch (which) {
  case 0:
  case 1:
    __enzyme_autodiff((void *)burgers, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N,
                      enzyme_const, T);
    break;
  case 2:
    __enzyme_autodiff((void *)readfirst, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const,
                      N, enzyme_const, T);
    break;
  case 3:
    __enzyme_autodiff((void *)partial, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, N,
                      enzyme_const, T);
    break;
  default:
    __enzyme_autodiff((void *)rows, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, R,
                      enzyme_const, T);
  }
  return 0;
}

static void init(double *x) {
  for (int i = 0; i < 2 * N; i++)
    x[i] = 0.5 + 0.4 * sin(0.37 * i) + (i >= N ? 0.1 * cos(0.9 * i) : 0);
}

int main(void) {
  const char *budgets[3] = {"8000", "1", NULL};
  const char *names[5] = {"scratch", "overlap", "readfirst", "partial", "rows"};
  static double g[3][2 * N];
  for (int which = 0; which < 5; which++) {
    fprintf(stderr, "case: %s\n", names[which]);
    for (int k = 0; k < 3; k++) {
      if (budgets[k])
        setenv("LEANTAPE_TAPE_BUDGET", budgets[k], 1);
      else
        unsetenv("LEANTAPE_TAPE_BUDGET");
      double x[2 * N];
      init(x);
      memset(g[k], 0, sizeof g[k]);
      run(which, x, g[k]);
    }
    for (int k = 0; k < 2; k++) {
      char w[120];
      snprintf(w, sizeof w, "%s: budget %s", names[which], budgets[k]);
      lt_check_bitwise(w, g[k], g[2], 2 * N);
    }
    /* central differences: u's points, and the scratch's first, middle
     * and last elements (w[N - 1] in partial: read, never written) */
    int idx[7] = {1, 20, N - 2, N + 1, N + 30, 2 * N - 1, N - 1};
    for (int j = 0; j < 7; j++) {
      int i = idx[j];
      double x[2 * N], h = 1e-6;
      init(x);
      x[i] += h;
      double fp = run(which, x, NULL);
      init(x);
      x[i] -= h;
      double fd = (fp - run(which, x, NULL)) / (2 * h);
      char w[120];
      snprintf(w, sizeof w, "%s: x[%d] vs central difference", names[which], i);
      lt_check(w, g[2][i], fd, 1e-5, 1e-7);
    }
    if (which == 3) /* w[N - 1] is read by every step and written by none */
      lt_check("partial: w[N-1] has a gradient", fabs(g[2][2 * N - 1]) > 1e-3, 1, 0, 0);
  }
  return lt_done();
}
