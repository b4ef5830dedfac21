// Vector forward mode, enzyme_width N for N = 1, 2, 4, 8: one call computes
// N directional derivatives. A scalar enzyme_dup argument is followed by
// N tangents, a pointer by N shadow pointers or (enzyme_dupv stride) by one
// pointer whose k-th shadow is stride * k bytes on; the call returns the N
// tangents of the result (declared as a struct of N doubles, an array in a
// struct, or a vector), or {result, N tangents} with
// enzyme_primal_return. The same function at every width must match N
// separate width-1 calls to 1e-14 (relative), lane by lane, for the
// returned tangent and for each output array's shadow.
// Then the Jacobian of f: R^4 -> R^3 (y = f(x) through an output array):
// by forward columns (width 4 once, with enzyme_dupv for x and y; and four
// width-1 calls), by reverse rows (__enzyme_autodiff with y enzyme_dup and
// its shadow seeded one-hot), analytically and by central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

extern int enzyme_width, enzyme_dupv, enzyme_dupnoneedv, enzyme_primal_return;
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);
typedef struct {
  double a, b;
} D2;
D2 __enzyme_fwddiff2(void *, ...);
typedef struct {
  double v[4];
} D4;
D4 __enzyme_fwddiff4(void *, ...);
typedef double V4 __attribute__((vector_size(32)));
V4 __enzyme_fwddiff4v(void *, ...);
typedef struct {
  double v[8];
} D8;
D8 __enzyme_fwddiff8(void *, ...);
typedef struct {
  double p;
  double t[4];
} P4;
P4 __enzyme_fwddiff4p(void *, ...);

enum { N = 5 };

/* out[i] = sin(s x_i) + x_i x_{i+1 mod n}; returns s sum out_i^2 */
double g(const double *x, double s, double *out, int n) {
  double acc = 0;
  for (int i = 0; i < n; i++) {
    out[i] = sin(x[i] * s) + x[i] * x[(i + 1) % n];
    acc += out[i] * out[i];
  }
  return acc * s;
}

/* f: R^4 -> R^3 */
void f(const double *x, double *y) {
  y[0] = x[0] * x[1] + sin(x[2]);
  y[1] = exp(x[3]) * x[0];
  y[2] = x[1] * x[1] * x[2] / (1 + x[3] * x[3]);
}
static void jac_an(const double *x, double J[3][4]) {
  double q = 1 + x[3] * x[3];
  memset(J, 0, 12 * sizeof(double));
  J[0][0] = x[1];
  J[0][1] = x[0];
  J[0][2] = cos(x[2]);
  J[1][0] = exp(x[3]);
  J[1][3] = exp(x[3]) * x[0];
  J[2][1] = 2 * x[1] * x[2] / q;
  J[2][2] = x[1] * x[1] / q;
  J[2][3] = -x[1] * x[1] * x[2] * 2 * x[3] / (q * q);
}

static double X[N], DX[8][N], S, DS[8];
/* the width-1 reference for lane k: tangent of the result, and dout */
static double one(int k, double *dout) {
  double out[N];
  return __enzyme_fwddiff((void *)g, enzyme_dup, X, DX[k], enzyme_dup, S, DS[k], enzyme_dup,
                          out, dout, enzyme_const, N);
}
static void lanes(const char *what, int W, const double *got, double dout[8][N]) {
  for (int k = 0; k < W; k++) {
    double ref[N], r = one(k, ref);
    char b[100];
    snprintf(b, sizeof b, "%s: lane %d result tangent", what, k);
    lt_check(b, got[k], r, 1e-14, 1e-300);
    if (!dout)
      continue;
    for (int i = 0; i < N; i++) {
      snprintf(b, sizeof b, "%s: lane %d d out[%d]", what, k, i);
      lt_check(b, dout[k][i], ref[i], 1e-14, 1e-300);
    }
  }
}

int main(void) {
  for (int i = 0; i < N; i++)
    X[i] = lt_vd(0.4 + 0.3 * i);
  S = lt_vd(0.8);
  for (int k = 0; k < 8; k++) {
    DS[k] = 0.25 * k - 1;
    for (int i = 0; i < N; i++)
      DX[k][i] = (i == k % N ? 1.0 : 0.0) + 0.1 * (k - i);
  }
  /* the width-1 reference against finite differences, lane 3 */
  {
    double h = 1e-6, xp[N], xm[N], op[N], om[N], dout[N];
    for (int i = 0; i < N; i++)
      xp[i] = X[i] + h * DX[3][i], xm[i] = X[i] - h * DX[3][i];
    double fd = (g(xp, S + h * DS[3], op, N) - g(xm, S - h * DS[3], om, N)) / (2 * h);
    lt_check("width 1 reference vs FD", one(3, dout), fd, 1e-6, 1e-9);
    for (int i = 0; i < N; i++)
      lt_check("width 1 reference d out vs FD", dout[i], (op[i] - om[i]) / (2 * h), 1e-6, 1e-9);
  }

  double out[N], dout[8][N];
  /* enzyme_width 1 spelled out */
  {
    double r = __enzyme_fwddiff((void *)g, enzyme_width, 1, X, DX[0], S, DS[0], out, dout[0], N);
    lanes("width 1 (enzyme_width 1)", 1, &r, dout);
  }
  /* width 2: N shadow pointers for x and out, a struct of two doubles */
  {
    D2 r = __enzyme_fwddiff2((void *)g, enzyme_width, 2, enzyme_dup, X, DX[0], DX[1], enzyme_dup,
                             S, DS[0], DS[1], enzyme_dup, out, dout[0], dout[1], enzyme_const,
                             N);
    double got[2] = {r.a, r.b};
    lanes("width 2 (shadow pointers)", 2, got, dout);
  }
  /* width 4, with dupv, into an array in a struct (sret) and a vector */
  {
    D4 r = __enzyme_fwddiff4((void *)g, enzyme_width, 4, enzyme_dupv, sizeof DX[0], X, DX, S,
                             DS[0], DS[1], DS[2], DS[3], enzyme_dupv, sizeof dout[0], out, dout,
                             enzyme_const, N);
    lanes("width 4 (dupv, struct)", 4, r.v, dout);
    memset(dout, 0, sizeof dout);
    V4 q = __enzyme_fwddiff4v((void *)g, enzyme_width, 4, X, DX[0], DX[1], DX[2], DX[3], S, DS[0],
                              DS[1], DS[2], DS[3], enzyme_dupnoneedv, sizeof dout[0], out, dout,
                              N);
    double got[4] = {q[0], q[1], q[2], q[3]};
    lanes("width 4 (shadow pointers, dupnoneedv, vector)", 4, got, dout);
    P4 p = __enzyme_fwddiff4p((void *)g, enzyme_width, 4, enzyme_primal_return, enzyme_dupv,
                              sizeof DX[0], X, DX, S, DS[0], DS[1], DS[2], DS[3], enzyme_dupv,
                              sizeof dout[0], out, dout, N);
    double o2[N];
    lt_check("width 4 enzyme_primal_return: primal", p.p, g(X, S, o2, N), 1e-15, 0);
    lanes("width 4 enzyme_primal_return", 4, p.t, dout);
  }
  /* width 8 */
  {
    D8 r = __enzyme_fwddiff8((void *)g, enzyme_width, 8, enzyme_dupv, sizeof DX[0], X, DX, S,
                             DS[0], DS[1], DS[2], DS[3], DS[4], DS[5], DS[6], DS[7], enzyme_dupv,
                             sizeof dout[0], out, dout, enzyme_const, N);
    lanes("width 8 (dupv)", 8, r.v, dout);
  }

  /* the Jacobian of f */
  {
    double x[4] = {lt_vd(0.7), lt_vd(-1.2), lt_vd(0.4), lt_vd(0.9)}, y[3], J[3][4];
    double E[4][4], Jc[4][3], Jc1[4][3], Jr[3][4], Jfd[3][4];
    jac_an(x, J);
    memset(E, 0, sizeof E);
    for (int k = 0; k < 4; k++)
      E[k][k] = 1;
    /* forward: the four columns at once (column k is Jc[k]) */
    __enzyme_fwddiff_v((void *)f, enzyme_width, 4, enzyme_dupv, sizeof E[0], x, E, enzyme_dupv,
                       sizeof Jc[0], y, Jc);
    /* forward: one column per call */
    for (int k = 0; k < 4; k++)
      __enzyme_fwddiff_v((void *)f, enzyme_dup, x, E[k], enzyme_dup, y, Jc1[k]);
    /* reverse: row k from the one-hot seed of y */
    for (int r = 0; r < 3; r++) {
      double dx[4] = {0}, dy[3] = {0};
      dy[r] = 1;
      __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy);
      memcpy(Jr[r], dx, sizeof dx);
    }
    /* central differences */
    for (int c = 0; c < 4; c++) {
      double xp[4], xm[4], yp[3], ym[3], hh = 1e-6;
      memcpy(xp, x, sizeof xp);
      memcpy(xm, x, sizeof xm);
      xp[c] += hh;
      xm[c] -= hh;
      f(xp, yp);
      f(xm, ym);
      for (int r = 0; r < 3; r++)
        Jfd[r][c] = (yp[r] - ym[r]) / (2 * hh);
    }
    for (int r = 0; r < 3; r++)
      for (int c = 0; c < 4; c++) {
        char b[80];
        snprintf(b, sizeof b, "J[%d][%d] forward width 4 vs reverse row", r, c);
        lt_check(b, Jc[c][r], Jr[r][c], 1e-14, 1e-300);
        snprintf(b, sizeof b, "J[%d][%d] forward width 4 vs width 1", r, c);
        lt_check(b, Jc[c][r], Jc1[c][r], 1e-14, 1e-300);
        snprintf(b, sizeof b, "J[%d][%d] forward vs analytic", r, c);
        lt_check(b, Jc[c][r], J[r][c], 1e-13, 1e-15);
        snprintf(b, sizeof b, "J[%d][%d] forward vs FD", r, c);
        lt_check(b, Jc[c][r], Jfd[r][c], 1e-6, 1e-9);
        snprintf(b, sizeof b, "J[%d][%d] analytic vs FD", r, c);
        lt_check(b, J[r][c], Jfd[r][c], 1e-6, 1e-9);
      }
  }
  return lt_done();
}
