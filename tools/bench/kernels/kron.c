/* kron.c: kron_sum and kron_view_sum, the sum of all entries of kron(A, B)
 * (20x20 each) over dense row-major matrices and over strided views
 * (strides as run-time arguments): four nested loops, no tape.
 * Included by tools/bench/kernels.c (the table of every family). */
#include "harness.h"


#define KM 20
/* P = [A (KM*KM), B (KM*2KM)]: kron_sum uses B's first KM*KM entries as a
 * dense row-major matrix; kron_view_sum views A transposed (strides 1, KM)
 * and B as every other column of a KM x 2KM matrix (strides 2KM, 2). */
#define KNP (KM * KM + KM * 2 * KM)
static double K_P[KNP], K_dP[KNP];
static int k_m = KM;
static long k_as0 = 1, k_as1 = KM, k_bs0 = 2 * KM, k_bs1 = 2;

#if ALL || defined(ONE_kron)
/* sum over all entries of kron(A, B): entry (i*p+k, j*q+l) = A[i,j]*B[k,l],
 * traversed row by row of the Kronecker product */
KERNEL double kron_k(const double *A, const double *B, int m, int n, int p,
                     int q) {
  double s = 0;
  for (int i = 0; i < m; i++)
    for (int k = 0; k < p; k++)
      for (int j = 0; j < n; j++)
        for (int l = 0; l < q; l++)
          s += A[i * n + j] * B[k * q + l];
  return s;
}
#endif

#if ALL || defined(ONE_kron_view)
KERNEL double kron_view_k(const double *A, long as0, long as1, const double *B,
                          long bs0, long bs1, int m, int n, int p, int q) {
  double s = 0;
  for (int i = 0; i < m; i++)
    for (int k = 0; k < p; k++)
      for (int j = 0; j < n; j++)
        for (int l = 0; l < q; l++)
          s += A[i * as0 + j * as1] * B[k * bs0 + l * bs1];
  return s;
}
#endif

static double *kron_param(void) { return K_P; }
static void kron_setup(void) { fill(K_P, KNP, -1, 1, 2); }
#if ALL || defined(ONE_kron)
SCALAR_KERNEL(kron, K_P, K_dP, KNP, (K_P, K_P + KM * KM, k_m, k_m, k_m, k_m),
              enzyme_dup, K_P, K_dP, enzyme_dup, K_P + KM * KM,
              K_dP + KM * KM, enzyme_const, k_m, enzyme_const, k_m,
              enzyme_const, k_m, enzyme_const, k_m)
#endif
#if ALL || defined(ONE_kron_view)
SCALAR_KERNEL(kron_view, K_P, K_dP, KNP,
              (K_P, k_as0, k_as1, K_P + KM * KM, k_bs0, k_bs1, k_m, k_m, k_m,
               k_m),
              enzyme_dup, K_P, K_dP, enzyme_const, k_as0, enzyme_const, k_as1,
              enzyme_dup, K_P + KM * KM, K_dP + KM * KM, enzyme_const, k_bs0,
              enzyme_const, k_bs1, enzyme_const, k_m, enzyme_const, k_m,
              enzyme_const, k_m, enzyme_const, k_m)
#endif
