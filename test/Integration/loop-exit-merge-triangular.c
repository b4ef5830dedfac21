// A loop with two exits (an adaptive integrator: `while (t < T && it <
// 100)` and a `break` after the last accepted step) whose exits merge in
// the preheader of a triangular nest. The reverse pass must know which
// exit was taken: A records it with a phi at the top of the merge block.
// The nest's cache is sized before it from the exact sum of its trip
// counts (gen/loopfwd.c), which splits the merge block: its instructions,
// and the edges into it, move to a new block in front. The phi stayed in
// the old block, whose only predecessor is now the count's loop, and the
// generated code did not verify at -O1 ("internal error"; random tester:
// --adaptive seed 400029). Checked against central differences at -O0
// through -O3; at -O1 also the exit taken when the loop runs out of
// iterations instead of reaching T.
// RUN: %ltclang -O0 %s -o %t.O0 -lm
// RUN: %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm
// RUN: %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm
// RUN: %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm
// RUN: %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

static volatile int max_steps = 100;

/* u' = cos(u) - 0.5 u by Euler steps with a step-size control on the
 * local error estimate, to an active end time T; then a triangular nest
 * updates y in place */
double f(double *x, double *y) {
  double u = x[0], t = 0, h = 0.2, T = 1.0 + 0.3 * tanh(y[0]);
  int it = 0, cap = max_steps;
  while (t < T && it < cap) {
    it++;
    int last = 0;
    if (t + h >= T) {
      h = T - t;
      last = 1;
    }
    double k1 = cos(u) - 0.5 * u, un = u + h * k1;
    double k2 = cos(un) - 0.5 * un;
    double err = fabs(0.5 * h * (k2 - k1)) + 1e-12;
    if (err <= 2e-3) {
      t += h;
      u = 0.5 * (u + un + h * k2);
      if (last)
        break;
    }
    h = h * fmin(2.0, fmax(0.2, 0.9 * sqrt(2e-3 / err)));
  }
  for (int i0 = 0; i0 < 5; i0++)
    for (int i1 = 0; i1 < i0; i1++)
      for (int i2 = 0; i2 < 5; i2++)
        y[i1] = 0.37 * y[i1] + 0.63 * sin(x[7 - i2] + y[i1] + 0.1 * i1);
  return u * u + y[1] + 0.5 * y[2] + 0.25 * y[3] + 0.2 * x[3];
}

static double value(const double *p) {
  double x[8], y[8];
  memcpy(x, p, sizeof x);
  memcpy(y, p + 8, sizeof y);
  return f(x, y);
}

static void run(const char *what) {
  double p[16], x[8], y[8], dx[8] = {0}, dy[8] = {0};
  for (int i = 0; i < 16; i++)
    p[i] = 0.4 * sin(1.7 * i + 0.3);
  memcpy(x, p, sizeof x);
  memcpy(y, p + 8, sizeof y);
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
  char w[80];
  for (int i = 0; i < 16; i++) {
    snprintf(w, sizeof w, "%s: d[%d]", what, i);
    lt_check(w, i < 8 ? dx[i] : dy[i - 8], lt_fd_arr(value, p, 16, i), 1e-5, 1e-7);
  }
}

int main(void) {
  run("to T");
  max_steps = 3; /* the other exit: out of iterations */
  run("out of steps");
  return lt_done();
}
