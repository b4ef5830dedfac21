// A large callee called from several sites stays a call: `big` is a
// straight-line body of 128 macro-generated nonlinear steps (several
// hundred instructions, over the 400-instruction limit for a callee called
// from two or more sites, under the 4000 one for a single site). It is
// called from three sites of one differentiated function with different
// activities, each getting its own augmented forward and reverse:
//   big(p, s)    dup pointer, active scalar
//   big(q, s)    const pointer, active scalar
//   big(p, 0.7)  dup pointer, inactive scalar
// and from a second differentiated function with a const pointer through
// enzyme_const. Gradients are checked against a hand-written forward-mode
// (tangent) evaluation of the same steps and central finite differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// The calls are kept (their tapes are in the caller's tape), not inlined:
// RUN: %ltclang -O0 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ltclang -O2 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK: remark: derivative of 'obj' (combined mode): {{.*}}tape of the call to 'big'

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

#define STEP(k)                                                                \
  t = t + 0.01 * sin(t * p[(k) & 3] + s * ((k) * 0.001 + 0.05));
#define S4(k) STEP(k) STEP(k + 1) STEP(k + 2) STEP(k + 3)
#define S16(k) S4(k) S4(k + 4) S4(k + 8) S4(k + 12)
#define S64(k) S16(k) S16(k + 16) S16(k + 32) S16(k + 48)

__attribute__((noinline)) double big(const double *p, double s) {
  double t = p[1] * s + 0.5;
  S64(0)
  S64(64)
  return t;
}

double obj(const double *p, const double *q, double s) {
  return 1.5 * big(p, s) + sin(big(q, s)) + big(p, 0.7) * s;
}

double obj_const(const double *p, const double *q, double s) {
  return big(q, s) * big(q, s + 1.0) + p[0];
}

/* forward mode of big: value and tangent along (dp, ds) */
static double big_tan(const double *p, const double *dp, double s, double ds,
                      double *dt_out) {
  double t = p[1] * s + 0.5, dt = dp[1] * s + p[1] * ds;
  for (int k = 0; k < 128; k++) {
    double c = k * 0.001 + 0.05;
    double u = t * p[k & 3] + s * c;
    double du = dt * p[k & 3] + t * dp[k & 3] + ds * c;
    t = t + 0.01 * sin(u);
    dt = dt + 0.01 * cos(u) * du;
  }
  *dt_out = dt;
  return t;
}
/* tangent of obj along (dp, dq, ds) */
static double obj_tan(const double *p, const double *q, double s,
                      const double *dp, const double *dq, double ds) {
  double d1, d2, d3;
  big_tan(p, dp, s, ds, &d1);
  double b2 = big_tan(q, dq, s, ds, &d2);
  double b3 = big_tan(p, dp, 0.7, 0, &d3);
  return 1.5 * d1 + cos(b2) * d2 + d3 * s + b3 * ds;
}
static double obj_const_tan(const double *p, const double *q, double s,
                            const double *dp, double ds) {
  static const double zero[4] = {0};
  double d1, d2;
  double b1 = big_tan(q, zero, s, ds, &d1);
  double b2 = big_tan(q, zero, s + 1.0, ds, &d2);
  return d1 * b2 + b1 * d2 + dp[0];
}

static double g_p[4], g_q[4], g_s;
static double fd_p(const double *p) { return obj(p, g_q, g_s); }
static double fd_q(const double *q) { return obj(g_p, q, g_s); }
static double fd_s(double s) { return obj(g_p, g_q, s); }
static double fdc_p(const double *p) { return obj_const(p, g_q, g_s); }
static double fdc_s(double s) { return obj_const(g_p, g_q, s); }

int main(void) {
  const double p0[4] = {0.8, -0.6, 1.3, 0.4}, q0[4] = {-0.9, 0.45, 0.7, 1.1};
  static const double zero[4] = {0};
  double p[4], q[4], s = lt_vd(0.35);
  lt_fill(p, p0, 4);
  lt_fill(q, q0, 4);
  memcpy(g_p, p, sizeof p);
  memcpy(g_q, q, sizeof q);
  g_s = s;

  /* obj: p dup, q dup, s out */
  {
    double dp[4] = {0}, dq[4] = {0};
    double ds = __enzyme_autodiff((void *)obj, enzyme_dup, p, dp, enzyme_dup, q,
                                  dq, enzyme_out, s);
    for (int i = 0; i < 4; i++) {
      double e[4] = {0};
      e[i] = 1;
      lt_grad("three sites: dp", p[i], dp[i], obj_tan(p, q, s, e, zero, 0),
              lt_fd_arr(fd_p, p, 4, i), 1e-10, 1e-6);
      lt_grad("three sites: dq", q[i], dq[i], obj_tan(p, q, s, zero, e, 0),
              lt_fd_arr(fd_q, q, 4, i), 1e-10, 1e-6);
    }
    lt_grad("three sites: ds", s, ds, obj_tan(p, q, s, zero, zero, 1),
            lt_fd(fd_s, s), 1e-10, 1e-6);
  }
  /* obj: q const (the second site's pointer has no shadow) */
  {
    double dp[4] = {0};
    double ds = __enzyme_autodiff((void *)obj, enzyme_dup, p, dp, enzyme_const,
                                  q, enzyme_out, s);
    for (int i = 0; i < 4; i++) {
      double e[4] = {0};
      e[i] = 1;
      lt_grad("q const: dp", p[i], dp[i], obj_tan(p, q, s, e, zero, 0),
              lt_fd_arr(fd_p, p, 4, i), 1e-10, 1e-6);
    }
    lt_grad("q const: ds", s, ds, obj_tan(p, q, s, zero, zero, 1),
            lt_fd(fd_s, s), 1e-10, 1e-6);
  }
  /* obj: p const, q dup, s const */
  {
    double dq[4] = {0};
    __enzyme_autodiff((void *)obj, enzyme_const, p, enzyme_dup, q, dq,
                      enzyme_const, s);
    for (int i = 0; i < 4; i++) {
      double e[4] = {0};
      e[i] = 1;
      lt_grad("p, s const: dq", q[i], dq[i], obj_tan(p, q, s, zero, e, 0),
              lt_fd_arr(fd_q, q, 4, i), 1e-10, 1e-6);
    }
  }
  /* obj_const: big only ever sees the const pointer q */
  {
    double dp[4] = {0};
    double ds = __enzyme_autodiff((void *)obj_const, enzyme_dup, p, dp,
                                  enzyme_const, q, enzyme_out, s);
    for (int i = 0; i < 4; i++) {
      double e[4] = {0};
      e[i] = 1;
      lt_grad("const pointer sites: dp", p[i], dp[i],
              obj_const_tan(p, q, s, e, 0), lt_fd_arr(fdc_p, p, 4, i), 1e-10,
              1e-6);
    }
    lt_grad("const pointer sites: ds", s, ds, obj_const_tan(p, q, s, zero, 1),
            lt_fd(fdc_s, s), 1e-10, 1e-6);
  }
  return lt_done();
}
