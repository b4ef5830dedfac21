/* mlp.c: simple_mlp, L = sum (Y - W2 tanh(W1 X))^2 (d = 20, batch 10): a
 * local hidden layer whose tanh values the gradient keeps.
 * Included by tools/bench/kernels.c (the table of every family). */
#include "harness.h"

#define MD 20
#define MB 10
static double M_P[2 * MD * MD], M_dP[2 * MD * MD];
static double M_X[MD * MB], M_Y[MD * MB];
static int m_d = MD, m_b = MB;

#if ALL || defined(ONE_mlp)
KERNEL double mlp_k(const double *W1, const double *W2, const double *X,
                    const double *Y, int d, int b) {
  double H[MD * MB];
  for (int i = 0; i < d; i++)
    for (int k = 0; k < b; k++) {
      double a = 0;
      for (int j = 0; j < d; j++)
        a += W1[i * d + j] * X[j * b + k];
      H[i * b + k] = tanh(a);
    }
  double L = 0;
  for (int i = 0; i < d; i++)
    for (int k = 0; k < b; k++) {
      double z = 0;
      for (int j = 0; j < d; j++)
        z += W2[i * d + j] * H[j * b + k];
      double r = Y[i * b + k] - z;
      L += r * r;
    }
  return L;
}
#endif

static double *mlp_param(void) { return M_P; }
static void mlp_setup(void) {
  fill(M_P, 2 * MD * MD, -0.3, 0.3, 4);
  fill(M_X, MD * MB, -1, 1, 5);
  fill(M_Y, MD * MB, -1, 1, 6);
}
#if ALL || defined(ONE_mlp)
SCALAR_KERNEL(mlp, M_P, M_dP, 2 * MD * MD,
              (M_P, M_P + MD * MD, M_X, M_Y, m_d, m_b),
              enzyme_dup, M_P, M_dP, enzyme_dup, M_P + MD * MD,
              M_dP + MD * MD, enzyme_const, M_X, enzyme_const, M_Y,
              enzyme_const, m_d, enzyme_const, m_b)
#endif
