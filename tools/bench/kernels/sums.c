/* sums.c: sum_1000, _sum_1000 (a 1-based while loop, as Julia's _sum) and
 * sum_sin_1000: loops whose gradients need no tape.
 * Included by tools/bench/kernels.c (the table of every family). */
#include "harness.h"

#define NSUM 1000
static double S_P[NSUM], S_dP[NSUM];
static int n_sum = NSUM;

#if ALL || defined(ONE_sum)
KERNEL double sum_k(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}
#endif

#if ALL || defined(ONE__sum)
/* hand-written while loop with 1-based index, as Julia's _sum */
KERNEL double _sum_k(const double *x, int n) {
  double s = 0;
  int i = 1;
  while (i <= n) {
    s += x[i - 1];
    i += 1;
  }
  return s;
}
#endif

#if ALL || defined(ONE_sum_sin)
KERNEL double sum_sin_k(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sin(x[i]);
  return s;
}
#endif

static double *sum_param(void) { return S_P; }
static void sum_setup(void) { fill(S_P, NSUM, -2, 2, 1); }

#if ALL || defined(ONE_sum)
SCALAR_KERNEL(sum, S_P, S_dP, NSUM, (S_P, n_sum),
              enzyme_dup, S_P, S_dP, enzyme_const, n_sum)
#endif
#if ALL || defined(ONE__sum)
SCALAR_KERNEL(_sum, S_P, S_dP, NSUM, (S_P, n_sum),
              enzyme_dup, S_P, S_dP, enzyme_const, n_sum)
#endif
#if ALL || defined(ONE_sum_sin)
SCALAR_KERNEL(sum_sin, S_P, S_dP, NSUM, (S_P, n_sum),
              enzyme_dup, S_P, S_dP, enzyme_const, n_sum)
#endif
