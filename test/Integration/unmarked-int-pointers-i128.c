// An unmarked pointer whose doubles are only read as 128-bit integers
// (memcpy into an unsigned __int128, split by shift and truncation, each
// half moved back into a double) is not integer-only: it keeps the
// enzyme_dup default. The walk that proves a pointer carries integers only
// (analysis/intptr.c) took the i128 loads (of the local copy at -O0, of
// the parameter itself at -O1 and up) as integer accesses, made the
// parameter enzyme_const and its shadow an extra argument ("too many
// arguments"; a call with one argument fewer would have passed the shadow
// as the next parameter and lost the gradient). A pointer to genuine
// __int128 data, used as numbers, stays enzyme_const by default (no
// shadow passed). Reverse and forward mode, against the analytic gradient
// and central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stdint.h>
#include <string.h>

double __enzyme_fwddiff(void *, ...);

/* p[0] and p[1] through one 128-bit integer */
static void two(const double *p, double *a, double *b) {
  unsigned __int128 v;
  memcpy(&v, p, 16);
  uint64_t lo = (uint64_t)v, hi = (uint64_t)(v >> 64);
  memcpy(a, &lo, 8);
  memcpy(b, &hi, 8);
}

double f(const double *p) {
  double a, b;
  two(p, &a, &b);
  return a * a * b + sin(b);
}

/* with an output after it */
void g(const double *p, double *q) {
  double a, b;
  two(p, &a, &b);
  q[0] = a * exp(b);
}

static double g0(const double *p) {
  double q[1];
  g(p, q);
  return q[0];
}

/* key: integers only, untagged at -O0 */
double h(const double *x, const unsigned __int128 *key) {
  return x[0] * x[1] * (double)(key[0] % 7) + (key[1] > 3 ? x[1] : 0);
}

static const unsigned __int128 g_key[2] = {10, 5};
static double h0(const double *x) { return h(x, g_key); }

int main(void) {
  double p[2] = {1.25, -0.75};
  double want[2] = {2 * p[0] * p[1], p[0] * p[0] + cos(p[1])};
  double dp[2] = {0, 0};
  __enzyme_autodiff((void *)f, p, dp);
  for (int i = 0; i < 2; i++) {
    lt_check("d f/dp", dp[i], want[i], 1e-12, 1e-12);
    lt_check("d f/dp (fd)", dp[i], lt_fd_arr(f, p, 2, i), 1e-6, 1e-8);
  }
  for (int i = 0; i < 2; i++) {
    double t[2] = {i == 0, i == 1};
    double d = __enzyme_fwddiff((void *)f, p, t);
    lt_check("fwd d f/dp", d, want[i], 1e-12, 1e-12);
  }

  double q[1] = {0}, dq[1] = {1}, dg[2] = {0, 0};
  double wg[2] = {exp(p[1]), p[0] * exp(p[1])};
  __enzyme_autodiff((void *)g, p, dg, q, dq);
  lt_check("g primal", q[0], g0(p), 1e-15, 0);
  for (int i = 0; i < 2; i++) {
    lt_check("d g/dp", dg[i], wg[i], 1e-12, 1e-12);
    lt_check("d g/dp (fd)", dg[i], lt_fd_arr(g0, p, 2, i), 1e-6, 1e-8);
  }

  double dh[2] = {0, 0};
  double wh[2] = {3 * p[1], 3 * p[0] + 1};
  __enzyme_autodiff((void *)h, p, dh, g_key);
  for (int i = 0; i < 2; i++) {
    lt_check("d h/dx", dh[i], wh[i], 1e-12, 1e-12);
    lt_check("d h/dx (fd)", dh[i], lt_fd_arr(h0, p, 2, i), 1e-6, 1e-8);
  }
  return lt_done();
}
