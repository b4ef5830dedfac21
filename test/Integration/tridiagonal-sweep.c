// Tridiagonal (Thomas) sweeps in place, as an ADI time step writes them
// (issue 17): the forward sweep's quotient q[i][j] = (a combination of
// u's neighbours and q[i][j-1]) / (a p[i][j-1] + b) needs, in the
// reverse pass, the divisor and the quotient. The plan used to make the
// quotient again from its dividend, taping the four loads it is made of
// (40 bytes an iteration with the divisor's); it now tapes the quotient
// (plan/source.c cheaper_taped; 16 bytes), and the quotient's adjoint
// reads the quotient, not the dividend (gen/revinst.c). Coefficients that
// depend on an active scalar (the divisor varies) and ones that do not;
// plain pointers and restrict; two time steps; n from 3 to 9. Gradients
// against central differences at -O0..-O3. Remarks: ReverseMode/taped-quotient.c.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O1 %s -o %t1 -lm && %t1
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O3 -march=x86-64-v3 %s -o %t3 -lm && %t3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

#define W 10
#define NI __attribute__((noinline))

/* one ADI-like step: a column sweep into v, then a row sweep back into u;
 * c scales the coupling (active in adi_c) */
#define SWEEP(NAME, QUAL, CVAL, ...)                                                       \
  NI void NAME(__VA_ARGS__ int steps, int n, double (*QUAL u)[W], double (*QUAL v)[W],     \
               double (*QUAL p)[W], double (*QUAL q)[W]) {                                  \
    double c = CVAL, a = -c / 2, b = 1 + c, d = -c / 4, e = 1 + c / 2;                      \
    for (int t = 0; t < steps; t++) {                                                      \
      for (int i = 1; i < n - 1; i++) {                                                    \
        v[0][i] = 1.0;                                                                     \
        p[i][0] = 0.0;                                                                     \
        q[i][0] = v[0][i];                                                                 \
        for (int j = 1; j < n - 1; j++) {                                                  \
          p[i][j] = -a / (a * p[i][j - 1] + b);                                            \
          q[i][j] = (-d * u[j][i - 1] + (1 + 2 * d) * u[j][i] - d * u[j][i + 1] -          \
                     a * q[i][j - 1]) /                                                    \
                    (a * p[i][j - 1] + b);                                                 \
        }                                                                                  \
        v[n - 1][i] = 1.0;                                                                 \
        for (int j = n - 2; j >= 1; j--)                                                   \
          v[j][i] = p[i][j] * v[j + 1][i] + q[i][j];                                       \
      }                                                                                    \
      for (int i = 1; i < n - 1; i++) {                                                    \
        u[i][0] = 1.0;                                                                     \
        p[i][0] = 0.0;                                                                     \
        q[i][0] = u[i][0];                                                                 \
        for (int j = 1; j < n - 1; j++) {                                                  \
          p[i][j] = -d / (d * p[i][j - 1] + e);                                            \
          q[i][j] = (-a * v[i - 1][j] + (1 + 2 * a) * v[i][j] - a * v[i + 1][j] -          \
                     d * q[i][j - 1]) /                                                    \
                    (d * p[i][j - 1] + e);                                                 \
        }                                                                                  \
        u[i][n - 1] = 1.0;                                                                 \
        for (int j = n - 2; j >= 1; j--)                                                   \
          u[i][j] = p[i][j] * u[i][j + 1] + q[i][j];                                       \
      }                                                                                    \
    }                                                                                      \
  }

SWEEP(adi, , 0.8)
SWEEP(adi_r, restrict, 0.8)
SWEEP(adi_c, , cc, double cc, )
#undef SWEEP

static double U[W][W], V[W][W], P[W][W], Q[W][W], WU[W][W], WV[W][W];
static int kern, n;
static const double C0 = 0.7;

static void call(double (*u)[W], double (*du)[W], double *dc) {
  static double dv[W][W], dp[W][W], dq[W][W];
  memset(V, 0, sizeof V);
  memset(P, 0, sizeof P);
  memset(Q, 0, sizeof Q);
  if (!du) {
    if (kern == 0) adi(2, n, u, V, P, Q);
    if (kern == 1) adi_r(2, n, u, V, P, Q);
    if (kern == 2) adi_c(C0 + (dc ? *dc : 0), 2, n, u, V, P, Q);
    return;
  }
  memcpy(dv, WV, sizeof dv);
  memset(dp, 0, sizeof dp);
  memset(dq, 0, sizeof dq);
  if (kern == 0)
    __enzyme_autodiff((void *)adi, enzyme_const, 2, enzyme_const, n, enzyme_dup, u, du,
                      enzyme_dup, V, dv, enzyme_dup, P, dp, enzyme_dup, Q, dq);
  if (kern == 1)
    __enzyme_autodiff((void *)adi_r, enzyme_const, 2, enzyme_const, n, enzyme_dup, u, du,
                      enzyme_dup, V, dv, enzyme_dup, P, dp, enzyme_dup, Q, dq);
  if (kern == 2)
    *dc = __enzyme_autodiff((void *)adi_c, C0, enzyme_const, 2, enzyme_const, n, enzyme_dup, u,
                            du, enzyme_dup, V, dv, enzyme_dup, P, dp, enzyme_dup, Q, dq);
}

/* x: the initial u, then (kern 2) c's offset */
static double objective(const double *x) {
  memcpy(U, x, sizeof U);
  double dc = kern == 2 ? x[W * W] : 0;
  call(U, NULL, kern == 2 ? &dc : NULL);
  double s = 0;
  for (int i = 0; i < W; i++)
    for (int j = 0; j < W; j++)
      s += WU[i][j] * U[i][j] + WV[i][j] * V[i][j];
  return s;
}

static const char *names[] = {"adi plain", "adi restrict", "adi active c"};

static void run(int k, int nn) {
  kern = k, n = nn;
  static double x[W * W + 1], dU[W][W];
  for (int i = 0; i < W * W; i++) {
    x[i] = lt_vd(0.5 + 0.3 * sin(1.1 * i + nn));
    ((double *)WU)[i] = lt_vd(0.4 + 0.3 * cos(0.8 * i));
    ((double *)WV)[i] = lt_vd(0.6 - 0.2 * sin(1.3 * i + 2));
  }
  x[W * W] = 0;
  memcpy(U, x, sizeof U);
  memcpy(dU, WU, sizeof dU);
  double dc = 0;
  call(U, dU, &dc);
  int nx = W * W + (k == 2);
  for (int i = 0; i < nx; i++) {
    double fd = lt_fd_at(objective, x, i);
    char what[96];
    if (i < W * W)
      snprintf(what, sizeof what, "%s n=%d d/du[%d][%d]", names[k], nn, i / W, i % W);
    else
      snprintf(what, sizeof what, "%s n=%d d/dc", names[k], nn);
    lt_check(what, i < W * W ? ((double *)dU)[i] : dc, fd, 1e-6, 1e-7);
  }
}

int main(void) {
  for (int k = 0; k < 3; k++)
    for (int nn = 3; nn <= 9; nn += nn < 5 ? 1 : 4)
      run(k, nn);
  return lt_done();
}
