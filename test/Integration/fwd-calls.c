// Forward mode through calls that stay calls, each of which gets its own
// tangent function (one per callee, activity and width; recursion calls
// the tangent function being built):
//  - a recursive scalar function (x^n by recursion) and a static recursive
//    helper reading an array by halves (a tree);
//  - mutual recursion g -> h -> g;
//  - a large callee (over the inlining limit for shared callees) called
//    from three sites with different activities (dup pointer and varied
//    scalar, const pointer, constant scalar), also at width 2;
//  - a recursive function returning a pointer into its argument (the
//    tangent function returns the shadow pointer);
//  - a registered forward derivative, __enzyme_register_derivative_sig =
//    {sig, sig_fwd} with Enzyme's ABI (sig_fwd(x, dx) returns {sig(x),
//    tangent}), called in a loop; the registered tangent is deliberately
//    not the true one (sig(x) = x^2, sig' := 2x + 1) so the values prove
//    it was used, and calls are counted: once per iteration (per lane at
//    width 2), and the primal sig is not called at all. A registered
//    derivative of a void function with pointer arguments (each followed
//    by its shadow) is used the same way.
// Tangents are checked against hand-written tangents of the same
// recursions (dual numbers) and central finite differences along the
// direction.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// The calls are kept, not inlined:
// RUN: %ltclang -O0 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: %ltclang -O2 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: the call to 'rpow' stays a call: it is recursive
// REMARK-DAG: remark: the call to 'tree' stays a call: it is recursive
// REMARK-DAG: remark: the call to 'g' stays a call: it is recursive
// REMARK-DAG: remark: the call to 'big' stays a call: inlined it would be
// REMARK-DAG: remark: the call to 'pick' stays a call: it is recursive
// REMARK-DAG: remark: the call to 'sig' stays a call: it has a custom derivative (__enzyme_register_derivative_sig)
// REMARK-DAG: remark: the call to 'sq2' stays a call: it has a custom derivative (__enzyme_register_derivative_sq2)

#include "check.h"
#include "testutil.h"
#include <math.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_width;
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);
typedef struct {
  double v[2];
} D2;
D2 __enzyme_fwddiff2(void *, ...);

#define RA 1e-11
#define RF 1e-6

/* ---- recursion ------------------------------------------------------------ */

/* x^n by recursion (n >= 0) */
__attribute__((noinline)) double rpow(double x, int n) {
  if (n == 0)
    return 1.0;
  return x * rpow(x, n - 1);
}
double use_rpow(double x, int n) { return rpow(x, n) + sin(x); }

/* a static recursive helper over halves of an array */
static double tree(const double *x, int lo, int hi) {
  if (hi - lo == 1)
    return x[lo] * x[lo];
  int m = (lo + hi) / 2;
  return tree(x, lo, m) * tree(x, m, hi) + sin(tree(x, m, hi));
}
double use_tree(const double *x, int n) { return tree(x, 0, n) * 0.5; }
/* its dual-number tangent */
static double tree_t(const double *x, const double *v, int lo, int hi, double *dt) {
  if (hi - lo == 1) {
    *dt = 2 * x[lo] * v[lo];
    return x[lo] * x[lo];
  }
  int m = (lo + hi) / 2;
  double da, db, a = tree_t(x, v, lo, m, &da), b = tree_t(x, v, m, hi, &db);
  *dt = da * b + a * db + cos(b) * db;
  return a * b + sin(b);
}

/* mutual recursion */
double g(double x, int n);
__attribute__((noinline)) double h(double x, int n) {
  if (n <= 0)
    return x;
  return sin(x) * g(x, n - 1);
}
__attribute__((noinline)) double g(double x, int n) { return h(x * 2.0, n) * x; }
static double g_t(double x, double dx, int n, double *dy);
static double h_t(double x, double dx, int n, double *dy) {
  if (n <= 0) {
    *dy = dx;
    return x;
  }
  double dg, gv = g_t(x, dx, n - 1, &dg);
  *dy = cos(x) * dx * gv + sin(x) * dg;
  return sin(x) * gv;
}
static double g_t(double x, double dx, int n, double *dy) {
  double dh, hv = h_t(2 * x, 2 * dx, n, &dh);
  *dy = dh * x + hv * dx;
  return hv * x;
}

/* ---- a large callee, three call sites ---------------------------------------- */

#define STEP(k) t = t + 0.01 * sin(t * p[(k) & 3] + s * ((k) * 0.001 + 0.05));
#define S4(k) STEP(k) STEP(k + 1) STEP(k + 2) STEP(k + 3)
#define S16(k) S4(k) S4(k + 4) S4(k + 8) S4(k + 12)
#define S64(k) S16(k) S16(k + 16) S16(k + 32) S16(k + 48)

__attribute__((noinline)) double big(const double *p, double s) {
  double t = p[1] * s + 0.5;
  S64(0)
  S64(64)
  return t;
}
double three_sites(const double *p, const double *q, double s) {
  return 1.5 * big(p, s) + sin(big(q, s)) + big(p, 0.7) * s;
}
static double big_t(const double *p, const double *dp, double s, double ds, double *dt_out) {
  double t = p[1] * s + 0.5, dt = dp[1] * s + p[1] * ds;
  for (int k = 0; k < 128; k++) {
    double c = k * 0.001 + 0.05;
    double u = t * p[k & 3] + s * c, du = dt * p[k & 3] + t * dp[k & 3] + ds * c;
    t = t + 0.01 * sin(u);
    dt = dt + 0.01 * cos(u) * du;
  }
  *dt_out = dt;
  return t;
}
static double three_sites_t(const double *p, const double *q, double s, const double *dp,
                            const double *dq, double ds) {
  double d1, d2, d3;
  big_t(p, dp, s, ds, &d1);
  double b2 = big_t(q, dq, s, ds, &d2);
  double b3 = big_t(p, dp, 0.7, 0, &d3);
  return 1.5 * d1 + cos(b2) * d2 + d3 * s + b3 * ds;
}

/* ---- a recursive function returning a pointer into its argument ------------- */

__attribute__((noinline)) static double *pick(double *a, int k) {
  if (k < 4)
    return a + k;
  return pick(a + 1, k - 4) - 1; /* not a tail call: -O2 keeps the recursion */
}
/* y[k % 4] is updated through the returned pointer */
double through_pick(double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double *q = pick(x, i + 2);
    *q = 0.5 * *q + sin(x[i % 4]);
    s += *q * x[(i + 1) % 4];
  }
  return s;
}
static double through_pick_t(const double *x0, const double *v0, int n, double *xo,
                             double *vo) {
  double x[4], v[4], s = 0, ds = 0;
  memcpy(x, x0, sizeof x);
  memcpy(v, v0, sizeof v);
  for (int i = 0; i < n; i++) {
    int k = (i + 2) % 4;
    double nq = 0.5 * x[k] + sin(x[i % 4]), dq = 0.5 * v[k] + cos(x[i % 4]) * v[i % 4];
    x[k] = nq, v[k] = dq;
    ds += dq * x[(i + 1) % 4] + nq * v[(i + 1) % 4];
    s += nq * x[(i + 1) % 4];
  }
  memcpy(xo, x, sizeof x);
  memcpy(vo, v, sizeof v);
  (void)s;
  return ds;
}

/* ---- registered forward derivatives ----------------------------------------- */

static int n_primal, n_fwd, n_primal2, n_fwd2;
typedef struct {
  double r, t;
} RT;
double sig(double x) {
  n_primal++;
  return x * x;
}
RT sig_fwd(double x, double dx) {
  n_fwd++;
  RT r = {x * x, (2 * x + 1) * dx}; /* deliberately not 2x */
  return r;
}
void *__enzyme_register_derivative_sig[2] = {(void *)sig, (void *)sig_fwd};

/* s = sum (i + 1) sig(x_i) */
double sig_loop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sig(x[i]) * (i + 1);
  return s;
}
/* t <- sig(t) / 2 + x_i */
double sig_carried(const double *x, int n) {
  double t = 0.5;
  for (int i = 0; i < n; i++)
    t = sig(t) * 0.5 + x[i];
  return t;
}

/* a void function with pointer arguments: dst = src^2 (registered as
 * 3 src[0] dsrc[0], again not the true derivative) */
void sq2(const double *src, double *dst) {
  n_primal2++;
  dst[0] = src[0] * src[0];
}
void sq2_fwd(const double *src, const double *dsrc, double *dst, double *ddst) {
  n_fwd2++;
  dst[0] = src[0] * src[0];
  ddst[0] = 3 * src[0] * dsrc[0];
}
void *__enzyme_register_derivative_sq2[2] = {(void *)sq2, (void *)sq2_fwd};
double sq2_loop(const double *x, int n) {
  double s = 0, t;
  for (int i = 0; i < n; i++) {
    sq2(&x[i], &t);
    s += t * x[i];
  }
  return s;
}

/* ---- checking --------------------------------------------------------------- */

static double fd_dir(double (*f)(const double *, int), const double *x, const double *v,
                     int n) {
  double xp[16], xm[16], h = 1e-6;
  for (int i = 0; i < n; i++)
    xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  return (f(xp, n) - f(xm, n)) / (2 * h);
}
/* along v for through_pick, which reads x[0..4) whatever n is */
static double through_pick_fd(const double *x, const double *v, int n) {
  double xp[4], xm[4], h = 1e-6;
  for (int i = 0; i < 4; i++)
    xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
  return (through_pick(xp, n) - through_pick(xm, n)) / (2 * h);
}
static int cur_n;
static double use_rpow_c(double x) { return use_rpow(x, cur_n); }
static double g_c(double x) { return g(x, cur_n); }

int main(void) {
  char w[96];
  /* rpow */
  for (int n = 0; n <= 6; n += 3) {
    double x = lt_vd(1.3);
    cur_n = n;
    snprintf(w, sizeof w, "recursive x^%d + sin x", n);
    lt_grad(w, x, __enzyme_fwddiff((void *)use_rpow, x, 1.0, n),
            (n ? n * pow(x, n - 1) : 0) + cos(x), lt_fd(use_rpow_c, x), RA, RF);
    D2 r = __enzyme_fwddiff2((void *)use_rpow, enzyme_width, 2, x, 1.0, -3.0, n);
    snprintf(w, sizeof w, "recursive x^%d width 2", n);
    lt_check(w, r.v[0], __enzyme_fwddiff((void *)use_rpow, x, 1.0, n), 1e-14, 0);
    lt_check(w, r.v[1], __enzyme_fwddiff((void *)use_rpow, x, -3.0, n), 1e-14, 0);
  }
  /* tree */
  {
    double x[8], v[8];
    for (int i = 0; i < 8; i++)
      x[i] = lt_vd(0.3 + 0.1 * i), v[i] = (i % 3) - 0.7;
    for (int n = 1; n <= 8; n += 3) {
      double dt;
      tree_t(x, v, 0, n, &dt);
      snprintf(w, sizeof w, "static recursive tree n=%d", n);
      lt_grad(w, x[0], __enzyme_fwddiff((void *)use_tree, x, v, n), 0.5 * dt,
              fd_dir(use_tree, x, v, n), RA, RF);
    }
  }
  /* mutual recursion */
  for (int n = 0; n <= 4; n++) {
    double x = lt_vd(0.45), dy;
    cur_n = n;
    g_t(x, 1.0, n, &dy);
    snprintf(w, sizeof w, "mutual recursion n=%d", n);
    lt_grad(w, x, __enzyme_fwddiff((void *)g, x, 1.0, n), dy, lt_fd(g_c, x), RA, RF);
  }
  /* the large callee */
  {
    double p[4] = {0.8, -0.6, 1.3, 0.4}, q[4] = {-0.9, 0.45, 0.7, 1.1};
    double dp[4] = {0.3, -1.0, 0.5, 0.2}, dq[4] = {1.0, 0.25, -0.5, 0.75};
    static const double zero[4] = {0};
    lt_fill(p, p, 4);
    lt_fill(q, q, 4);
    double s = lt_vd(0.35), ds = -0.6, h = 1e-6;
    double pp[4], pm[4], qp[4], qm[4];
    for (int i = 0; i < 4; i++)
      pp[i] = p[i] + h * dp[i], pm[i] = p[i] - h * dp[i], qp[i] = q[i] + h * dq[i],
      qm[i] = q[i] - h * dq[i];
    lt_grad("large callee, three sites, all varied", s,
            __enzyme_fwddiff((void *)three_sites, p, dp, q, dq, s, ds),
            three_sites_t(p, q, s, dp, dq, ds),
            (three_sites(pp, qp, s + h * ds) - three_sites(pm, qm, s - h * ds)) / (2 * h), RA,
            RF);
    lt_grad("large callee, q const", s,
            __enzyme_fwddiff((void *)three_sites, p, dp, enzyme_const, q, s, ds),
            three_sites_t(p, q, s, dp, zero, ds),
            (three_sites(pp, q, s + h * ds) - three_sites(pm, q, s - h * ds)) / (2 * h), RA, RF);
    lt_grad("large callee, p and s const", s,
            __enzyme_fwddiff((void *)three_sites, enzyme_const, p, q, dq, enzyme_const, s),
            three_sites_t(p, q, s, zero, dq, 0),
            (three_sites(p, qp, s) - three_sites(p, qm, s)) / (2 * h), RA, RF);
    double dp2[4] = {-0.1, 0.4, 0.9, -0.3};
    D2 r = __enzyme_fwddiff2((void *)three_sites, enzyme_width, 2, p, dp, dp2, q, dq, zero, s,
                             ds, 0.5);
    lt_check("large callee width 2 lane 0", r.v[0], three_sites_t(p, q, s, dp, dq, ds), RA, 0);
    lt_check("large callee width 2 lane 1", r.v[1], three_sites_t(p, q, s, dp2, zero, 0.5), RA,
             0);
  }
  /* pointer-returning recursion */
  for (int n = 1; n <= 9; n += 4) {
    double x[4] = {0.7, -0.4, 1.1, 0.25}, v[4] = {1.0, -0.5, 0.3, 0.8}, xo[4], vo[4];
    double x0[4];
    lt_fill(x, x, 4);
    memcpy(x0, x, sizeof x);
    double an = through_pick_t(x, v, n, xo, vo);
    snprintf(w, sizeof w, "recursive pointer return n=%d", n);
    double fd = through_pick_fd(x0, v, n);
    lt_grad(w, x0[0], __enzyme_fwddiff((void *)through_pick, x, v, n), an, fd, RA, RF);
    for (int i = 0; i < 4; i++) {
      snprintf(w, sizeof w, "recursive pointer return n=%d: x[%d], its tangent", n, i);
      lt_check(w, x[i], xo[i], 1e-15, 0);
      lt_check(w, v[i], vo[i], RA, 1e-14);
    }
  }
  /* registered forward derivative in loops */
  {
    enum { N = 7 };
    double x[N] = {0.3, -0.6, 1.1, 0.25, -1.4, 0.8, 0.05}, v[N] = {1, -2, 0.5, 0.3, 1, -1, 2};
    lt_fill(x, x, N);
    n_primal = n_fwd = 0;
    double an = 0;
    for (int i = 0; i < N; i++)
      an += (i + 1) * (2 * x[i] + 1) * v[i];
    lt_check("custom in a loop: tangent (registered sig' = 2x + 1)",
             __enzyme_fwddiff((void *)sig_loop, x, v, lt_vi(N)), an, 1e-14, 0);
    lt_check("custom in a loop: sig_fwd calls", n_fwd, N, 0, 0);
    lt_check("custom in a loop: primal sig calls", n_primal, 0, 0, 0);
    /* width 2: once per lane */
    double v2[N];
    for (int i = 0; i < N; i++)
      v2[i] = 0.5 * i - 1;
    double an2 = 0;
    for (int i = 0; i < N; i++)
      an2 += (i + 1) * (2 * x[i] + 1) * v2[i];
    n_primal = n_fwd = 0;
    D2 r = __enzyme_fwddiff2((void *)sig_loop, enzyme_width, 2, x, v, v2, lt_vi(N));
    lt_check("custom in a loop, width 2: lane 0", r.v[0], an, 1e-14, 0);
    lt_check("custom in a loop, width 2: lane 1", r.v[1], an2, 1e-14, 0);
    lt_check("custom in a loop, width 2: sig_fwd calls (one per lane)", n_fwd, 2 * N, 0, 0);
    lt_check("custom in a loop, width 2: primal sig calls", n_primal, 0, 0, 0);
    /* loop-carried: dt_{i+1} = 0.5 sig'(t_i) dt_i + v_i */
    double t = 0.5, dt = 0;
    for (int i = 0; i < N; i++) {
      dt = 0.5 * (2 * t + 1) * dt + v[i];
      t = t * t * 0.5 + x[i];
    }
    n_primal = n_fwd = 0;
    lt_check("custom carried: tangent",
             __enzyme_fwddiff((void *)sig_carried, x, v, lt_vi(N)), dt, 1e-13, 0);
    lt_check("custom carried: sig_fwd calls", n_fwd, N, 0, 0);
    lt_check("custom carried: primal sig calls", n_primal, 0, 0, 0);
    /* void, pointer arguments */
    an = 0;
    for (int i = 0; i < N; i++)
      an += 3 * x[i] * v[i] * x[i] + x[i] * x[i] * v[i];
    n_primal2 = n_fwd2 = 0;
    lt_check("custom void with shadows: tangent",
             __enzyme_fwddiff((void *)sq2_loop, x, v, lt_vi(N)), an, 1e-14, 0);
    lt_check("custom void with shadows: sq2_fwd calls", n_fwd2, N, 0, 0);
    lt_check("custom void with shadows: primal sq2 calls", n_primal2, 0, 0, 0);
  }
  return lt_done();
}
