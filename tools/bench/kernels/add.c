/* add.c: seed 000's in-place add y[i] = y[i] + x[i] (n = 4096) with plain
 * pointers, its restrict twin, and the plain kernel called with y == x.
 * Included by tools/bench/kernels.c (the table of every family). */
#include "harness.h"

/* add_k has plain pointers (as seed 000); add_restrict_k is its restrict
 * twin; inplace_add_4096_alias calls add_k with y == x (y[i] = 2 y[i]). */
#define NADD 4096
static double A_P[2 * NADD], A_dP[2 * NADD], A_w[NADD], A_save[NADD];
static int a_n = NADD;

#if ALL || defined(ONE_add) || defined(ONE_add_alias)
KERNEL void add_k(double *y, const double *x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] + x[i];
}
#endif
#if ALL || defined(ONE_add_restrict)
KERNEL void add_restrict_k(double *restrict y, const double *restrict x, int n) {
  for (int i = 0; i < n; i++)
    y[i] = y[i] + x[i];
}
#endif
static double *add_param(void) { return A_P; }
static void add_setup(void) {
  fill(A_P, 2 * NADD, -1, 1, 9);
  fill(A_w, NADD, -1, 1, 10);
  for (int i = 0; i < NADD; i++)
    A_dP[i] = A_w[i];
}
#define ADD_KERNEL(tag)                                                        \
  static void tag##_primal(void) { tag##_k(A_P, A_P + NADD, a_n); }           \
  static void tag##_grad(void) {                                              \
    __enzyme_autodiff((void *)tag##_k, enzyme_dup, A_P, A_dP, enzyme_dup,     \
                      A_P + NADD, A_dP + NADD, enzyme_const, a_n);            \
  }                                                                           \
  /* objective: sum_j w_j y_j after the call (y restored afterwards) */       \
  static double tag##_loss(void) {                                            \
    memcpy(A_save, A_P, sizeof A_save);                                       \
    tag##_k(A_P, A_P + NADD, a_n);                                            \
    double L = 0;                                                             \
    for (int j = 0; j < NADD; j++)                                            \
      L += A_w[j] * A_P[j];                                                   \
    memcpy(A_P, A_save, sizeof A_save);                                       \
    return L;                                                                 \
  }                                                                           \
  static void tag##_grad_fresh(double *g) {                                   \
    memcpy(A_dP, A_w, NADD * sizeof(double));                                 \
    memset(A_dP + NADD, 0, NADD * sizeof(double));                            \
    memcpy(A_save, A_P, sizeof A_save);                                       \
    tag##_grad();                                                             \
    memcpy(A_P, A_save, sizeof A_save);                                       \
    memcpy(g, A_dP, 2 * NADD * sizeof(double));                               \
  }
#if ALL || defined(ONE_add)
ADD_KERNEL(add)
#endif
#if ALL || defined(ONE_add_restrict)
ADD_KERNEL(add_restrict)
#endif

#if ALL || defined(ONE_add_alias)
/* y == x: the parameters are P[0..NADD), y starts as a copy of them (so
 * every call sees the same input; the copy is in primal and gradient);
 * objective sum_j w_j y_j after the call, = 2 sum_j w_j P_j. */
static double A_y[NADD], A_dy[NADD];
static void add_alias_primal(void) {
  memcpy(A_y, A_P, sizeof A_y);
  add_k(A_y, A_y, a_n);
}
static void add_alias_grad(void) {
  memcpy(A_y, A_P, sizeof A_y);
  memcpy(A_dy, A_w, sizeof A_dy);
  __enzyme_autodiff((void *)add_k, enzyme_dup, A_y, A_dy, enzyme_dup, A_y,
                    A_dy, enzyme_const, a_n);
}
static double add_alias_loss(void) {
  add_alias_primal();
  double L = 0;
  for (int j = 0; j < NADD; j++)
    L += A_w[j] * A_y[j];
  return L;
}
static void add_alias_grad_fresh(double *g) {
  add_alias_grad();
  memcpy(g, A_dy, sizeof A_dy);
}
#endif
