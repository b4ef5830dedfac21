/* tree.c: tree_sum_4096, a recursion over halves of an array: the
 * callee stays a call, each activation's tape a sub-tape.
 * Included by tools/bench/kernels.c (the table of every family). */
#include "harness.h"

/* tree_r calls itself, so it stays a call with its own augmented forward
 * and reverse; each activation's tape is a separate sub-tape. Leaves of
 * 8 elements are a loop. 1023 activations for n = 4096. */
#define NTREE 4096
static double T_P[NTREE], T_dP[NTREE];
static int t_n = NTREE;

#if ALL || defined(ONE_tree)
double tree_r(const double *x, int lo, int hi) {
  if (hi - lo <= 8) {
    double s = 0;
    for (int i = lo; i < hi; i++)
      s += x[i] * x[i];
    return s;
  }
  int m = (lo + hi) / 2;
  double l = tree_r(x, lo, m), r = tree_r(x, m, hi);
  return l * 0.9 + sin(r);
}
KERNEL double tree_k(const double *x, int n) { return tree_r(x, 0, n); }
#endif

static double *tree_param(void) { return T_P; }
static void tree_setup(void) { fill(T_P, NTREE, -1, 1, 13); }
#if ALL || defined(ONE_tree)
SCALAR_KERNEL(tree, T_P, T_dP, NTREE, (T_P, t_n),
              enzyme_dup, T_P, T_dP, enzyme_const, t_n)
#endif
