/* hot_pw.c: hot_pw_100000 / hot_pw_10000, a recursive callee (x^k by
 * repeated squaring) kept as a call once per iteration of a counted
 * loop: the per-iteration record of its tape is preallocated.
 * Included by tools/bench/kernels.c (the table of every family). */
#include "harness.h"


/* pw(x, k) = x^k by repeated squaring, recursive (so a call, not inlined),
 * called once per iteration of a loop of n = 1e5 (k[i] in 1..8: 2 to 5
 * activations per call). The trip count is known at loop entry, so the
 * per-iteration record holding the call's tape is preallocated with the
 * loop cache. hot_pw_10000 is the same at n = 1e4, to read how the
 * allocation count scales with the trip count. */
#define NHOT 100000
static double H_P[NHOT], H_dP[NHOT];
static int H_k[NHOT];
static int h_n = NHOT, h_n4 = NHOT / 10;

#if ALL || defined(ONE_hot_pw) || defined(ONE_hot_pw4)
double pw(double x, int k) {
  if (k == 0)
    return 1.0;
  double h = pw(x * x, k >> 1);
  return (k & 1) ? x * h : h;
}
KERNEL double hot_pw_k(const double *x, const int *k, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += pw(x[i], k[i]);
  return s;
}
#endif

static double *hot_param(void) { return H_P; }
static void hot_setup(void) {
  fill(H_P, NHOT, 0.6, 1.1, 14);
  for (int i = 0; i < NHOT; i++)
    H_k[i] = 1 + (int)((i * 2654435761u) >> 29); /* 1..8 */
}
#if ALL || defined(ONE_hot_pw)
SCALAR_KERNEL(hot_pw, H_P, H_dP, NHOT, (H_P, H_k, h_n),
              enzyme_dup, H_P, H_dP, enzyme_const, H_k, enzyme_const, h_n)
#endif
#if ALL || defined(ONE_hot_pw4)
#define hot_pw4_k hot_pw_k /* the same function, n = 1e4 */
SCALAR_KERNEL(hot_pw4, H_P, H_dP, NHOT / 10, (H_P, H_k, h_n4),
              enzyme_dup, H_P, H_dP, enzyme_const, H_k, enzyme_const, h_n4)
#endif
