/* sce.c: sum(sin(cos(exp(x)))) over a 10x10 array in three styles: nested
 * loops, a noinline helper per element, a broadcast into a local array.
 * Included by tools/bench/kernels.c (the table of every family). */
#include "harness.h"

#define SC 10
static double C_P[SC * SC], C_dP[SC * SC];
static int c_n = SC;

#if ALL || defined(ONE_naive_sce)
/* plain nested loops */
KERNEL double naive_sce_k(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += sin(cos(exp(x[i * n + j])));
  return s;
}
#endif

#if ALL || defined(ONE_map_sce)
/* a helper function called per element (kept a real call) */
__attribute__((noinline)) double sce(double x) { return sin(cos(exp(x))); }
KERNEL double map_sce_k(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += sce(x[i]);
  return s;
}
#endif

#if ALL || defined(ONE_bcast_sce)
/* broadcast into an output array, then sum it */
KERNEL double bcast_sce_k(const double *x, int n) {
  double tmp[SC * SC];
  for (int i = 0; i < n * n; i++)
    tmp[i] = sin(cos(exp(x[i])));
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += tmp[i];
  return s;
}
#endif

static double *sce_param(void) { return C_P; }
static void sce_setup(void) { fill(C_P, SC * SC, -1.5, 1.5, 3); }
#if ALL || defined(ONE_naive_sce)
SCALAR_KERNEL(naive_sce, C_P, C_dP, SC *SC, (C_P, c_n),
              enzyme_dup, C_P, C_dP, enzyme_const, c_n)
#endif
#if ALL || defined(ONE_map_sce)
SCALAR_KERNEL(map_sce, C_P, C_dP, SC *SC, (C_P, c_n),
              enzyme_dup, C_P, C_dP, enzyme_const, c_n)
#endif
#if ALL || defined(ONE_bcast_sce)
SCALAR_KERNEL(bcast_sce, C_P, C_dP, SC *SC, (C_P, c_n),
              enzyme_dup, C_P, C_dP, enzyme_const, c_n)
#endif
