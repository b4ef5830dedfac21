// Forward mode through loops of every shape: a sum, a nested double sum, a
// triangular nest, while loops with a data-dependent trip count (Newton for
// sqrt(a) and for the root of x^3 + p x - q), break and continue, an early
// return from a single and from a nested loop, in-place updates
// x[i] = f(x[i], x[i-1]) (one sweep, and repeated Gauss-Seidel sweeps of a
// stencil), scalar and array recurrences (the logistic map, y[i] = a y[i-1]
// + x[i]), a do-while count-down, and a pointer-bumping loop. Forward mode
// needs no tape, so the tangents ride along in PHIs; the tangent of each
// result along a direction v is checked against a central finite
// difference along v and against the analytic value (or a hand-written
// tangent of the same loop where the closed form is messy). One nest is
// also run with enzyme_width 4 (the loop-carried tangents are <4 x double>)
// and must match four width-1 calls.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include "check.h"
#include "testutil.h"
#include <math.h>
#include <string.h>

extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_width, enzyme_dupv;
double __enzyme_fwddiff(void *, ...);
void __enzyme_fwddiff_v(void *, ...);
typedef struct {
  double v[4];
} D4;
D4 __enzyme_fwddiff4(void *, ...);

#define RA 1e-11
#define RF 1e-6
enum { NMAX = 32 };

/* ---- the loops ------------------------------------------------------------ */

/* s = sum x_i^2 sin x_i */
double sum_loop(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * sin(x[i]);
  return s;
}

/* s = sum_i sum_j x_i x_j / (1 + i + j) */
double nested(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++)
      s += x[i] * x[j] / (1.0 + i + j);
  return s;
}

/* s = sum_i x_i sum_{j <= i} cos(x_j) */
double triangular(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double t = 0;
    for (int j = 0; j <= i; j++)
      t += cos(x[j]);
    s += x[i] * t;
  }
  return s;
}

double newton_sqrt(double a) {
  double x = a > 1 ? a : 1.0;
  int it = 0;
  while (fabs(x * x - a) > 1e-14 * a && it < 100) {
    x = 0.5 * (x + a / x);
    it++;
  }
  return x;
}

double cubic_root(double p, double q) {
  double x = q / p, f = x * x * x + p * x - q;
  int it = 0;
  while (fabs(f) > 1e-13 * (fabs(q) + 1) && it < 100) {
    x -= f / (3 * x * x + p);
    f = x * x * x + p * x - q;
    it++;
  }
  return x;
}

/* negative entries are skipped; stops once s > thr (after adding) */
double brk_cont(const double *x, int n, double thr) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    if (x[i] < 0)
      continue;
    s += x[i] * exp(0.3 * x[i]);
    if (s > thr)
      break;
  }
  return s * s;
}

double first_over(const double *x, int n, double thr) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    if (s > thr)
      return s * x[i];
  }
  return -s;
}

double first_pair(const double *x, int n, double thr) {
  for (int i = 0; i < n; i++)
    for (int j = i + 1; j < n; j++)
      if (x[i] * x[j] > thr)
        return sin(x[i]) * x[j];
  return 0.0;
}

/* in place: x[i] = sin(x[i]) + 0.5 x[i] x[i-1] */
void inplace(double *x, int n) {
  for (int i = 1; i < n; i++)
    x[i] = sin(x[i]) + 0.5 * x[i] * x[i - 1];
}

/* Gauss-Seidel sweeps of u[i] = (u[i-1] + u[i+1] + h2 f[i]) / 2 with
 * u[0], u[n-1] fixed; returns sum u_i^2 */
double gauss_seidel(double *u, const double *f, int n, int sweeps) {
  for (int s = 0; s < sweeps; s++)
    for (int i = 1; i < n - 1; i++)
      u[i] = 0.5 * (u[i - 1] + u[i + 1] + 0.01 * f[i]);
  double r = 0;
  for (int i = 0; i < n; i++)
    r += u[i] * u[i];
  return r;
}

/* the logistic map t <- r t (1 - t), n steps */
double logistic(double r, double t, int n) {
  for (int k = 0; k < n; k++)
    t = r * t * (1 - t);
  return t;
}

/* y[0] = x[0], y[i] = a y[i-1] + x[i] (y written, never read before) */
void linrec(const double *x, double *y, double a, int n) {
  y[0] = x[0];
  for (int i = 1; i < n; i++)
    y[i] = a * y[i - 1] + x[i];
}

/* do-while, counting down: s = sum_{i=n-1..0} x_i / (i + 1) * s_prev-ish */
double countdown(const double *x, int n) {
  double s = 1;
  int i = n;
  do {
    i--;
    s = s * 0.5 + x[i] * x[i] / (i + 1);
  } while (i > 0);
  return s;
}

/* pointer bumping to the end */
double bump(const double *x, int n) {
  const double *p = x, *end = x + n;
  double s = 0, w = 1;
  while (p < end) {
    s += w * tanh(*p++);
    w *= 0.9;
  }
  return s;
}

/* ---- checking ------------------------------------------------------------- */

typedef double (*afn)(const double *, int);
static double THR;
static double bc_fn(const double *x, int n) { return brk_cont(x, n, THR); }
static double fo_fn(const double *x, int n) { return first_over(x, n, THR); }
static double fp_fn(const double *x, int n) { return first_pair(x, n, THR); }

/* (f(x + h v) - f(x - h v)) / 2h */
static double fd_dir(afn f, const double *x, const double *v, int n,
                     double h) {
  double xp[NMAX], xm[NMAX];
  for (int i = 0; i < n; i++) {
    xp[i] = x[i] + h * v[i];
    xm[i] = x[i] - h * v[i];
  }
  return (f(xp, n) - f(xm, n)) / (2 * h);
}

static void fill(double *a, int n, double lo, double hi, int seed) {
  for (int i = 0; i < n; i++) {
    double t = fmod(0.6180339887 * (i + 1) * (seed + 1), 1.0);
    a[i] = lt_vd(lo + (hi - lo) * t);
  }
}

static void dir_check(const char *what, double ad, double an, double fd,
                      double rtol_fd) {
  char b[120];
  snprintf(b, sizeof b, "%s: AD vs analytic", what);
  lt_check(b, ad, an, RA, RA * (fabs(an) + 1) * 1e-3);
  snprintf(b, sizeof b, "%s: AD vs FD along v", what);
  lt_check(b, ad, fd, rtol_fd, rtol_fd * 1e-2);
  snprintf(b, sizeof b, "%s: analytic vs FD along v", what);
  lt_check(b, an, fd, rtol_fd, rtol_fd * 1e-2);
}

int main(void) {
  int sizes[3] = {lt_vi(1), lt_vi(7), lt_vi(24)};
  for (int t = 0; t < 3; t++) {
    int n = sizes[t];
    double x[NMAX], v[NMAX], xcopy[NMAX];
    char w[80];
    fill(x, n, -1.5, 1.8, 1);
    fill(v, n, -1.0, 1.0, 2);
    memcpy(xcopy, x, sizeof x);
    printf("-- n = %d\n", n);

    /* sum */
    double an = 0;
    for (int i = 0; i < n; i++)
      an += v[i] * (2 * x[i] * sin(x[i]) + x[i] * x[i] * cos(x[i]));
    snprintf(w, sizeof w, "sum n=%d", n);
    dir_check(w, __enzyme_fwddiff((void *)sum_loop, enzyme_dup, x, v, enzyme_const, n),
              an, fd_dir(sum_loop, x, v, n, 1e-6), RF);

    /* nested: 2 sum_i v_i sum_j x_j/(1+i+j) */
    an = 0;
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++)
        an += 2 * v[i] * x[j] / (1.0 + i + j);
    snprintf(w, sizeof w, "nested n=%d", n);
    dir_check(w, __enzyme_fwddiff((void *)nested, x, v, n), an,
              fd_dir(nested, x, v, n, 1e-6), RF);

    /* triangular: d = sum_i v_i T_i - sum_i x_i sum_{j<=i} sin(x_j) v_j */
    an = 0;
    for (int i = 0; i < n; i++) {
      double T = 0, dT = 0;
      for (int j = 0; j <= i; j++) {
        T += cos(x[j]);
        dT -= sin(x[j]) * v[j];
      }
      an += v[i] * T + x[i] * dT;
    }
    snprintf(w, sizeof w, "triangular n=%d", n);
    dir_check(w, __enzyme_fwddiff((void *)triangular, enzyme_dup, x, v, enzyme_const, n),
              an, fd_dir(triangular, x, v, n, 1e-6), RF);

    /* break/continue: thr between partial sums (chosen from the data) */
    {
      double s = 0, parts[NMAX];
      int np = 0;
      for (int i = 0; i < n; i++)
        if (x[i] >= 0) {
          s += x[i] * exp(0.3 * x[i]);
          parts[np++] = s;
        }
      THR = np >= 2 ? 0.5 * (parts[np / 2 - 1] + parts[np / 2]) : 1e9;
      double S = 0;
      an = 0;
      for (int i = 0; i < n; i++) {
        if (x[i] < 0)
          continue;
        S += x[i] * exp(0.3 * x[i]);
        an += v[i] * exp(0.3 * x[i]) * (1 + 0.3 * x[i]);
        if (S > THR)
          break;
      }
      an *= 2 * S;
      snprintf(w, sizeof w, "break/continue n=%d", n);
      dir_check(w, __enzyme_fwddiff((void *)brk_cont, enzyme_dup, x, v, enzyme_const, n,
                                    enzyme_const, THR),
                an, fd_dir(bc_fn, x, v, n, 1e-6), RF);
      /* the threshold as an active scalar (a zero tangent: s > thr only
       * decides the path) */
      lt_check("break/continue: d/dthr", __enzyme_fwddiff((void *)brk_cont, enzyme_const, x,
                                                          enzyme_const, n, THR, 1.0),
               0, 0, 0);
    }

    /* early return from a loop: threshold between partial sums */
    {
      double s = 0;
      int K = -1;
      for (int i = 0; i < n; i++)
        s += x[i] * x[i];
      THR = n >= 2 ? 0.6 * s : 1e9; /* strictly between partial sums? checked below */
      s = 0;
      for (int i = 0; i < n; i++) {
        double s2 = s + x[i] * x[i];
        if (s2 > THR) {
          K = i;
          break;
        }
        s = s2;
      }
      if (K >= 0) {
        double S = s + x[K] * x[K];
        an = 0;
        for (int i = 0; i < K; i++)
          an += v[i] * 2 * x[i] * x[K];
        an += v[K] * (2 * x[K] * x[K] + S);
      } else {
        an = 0;
        for (int i = 0; i < n; i++)
          an -= 2 * x[i] * v[i];
      }
      snprintf(w, sizeof w, "early return (K=%d) n=%d", K, n);
      dir_check(w, __enzyme_fwddiff((void *)first_over, enzyme_dup, x, v, enzyme_const, n,
                                    enzyme_const, THR),
                an, fd_dir(fo_fn, x, v, n, 1e-6), RF);
    }
    /* early return from a nested loop */
    {
      THR = 0.8;
      int I = -1, J = -1;
      for (int i = 0; i < n && I < 0; i++)
        for (int j = i + 1; j < n; j++)
          if (x[i] * x[j] > THR) {
            I = i, J = j;
            break;
          }
      an = I < 0 ? 0 : v[I] * cos(x[I]) * x[J] + sin(x[I]) * v[J];
      snprintf(w, sizeof w, "early return nested (%d,%d) n=%d", I, J, n);
      dir_check(w, __enzyme_fwddiff((void *)first_pair, enzyme_dup, x, v, enzyme_const, n,
                                    enzyme_const, THR),
                an, fd_dir(fp_fn, x, v, n, 1e-6), RF);
    }

    /* in place: the shadow holds the tangent of the new x afterwards */
    {
      double y[NMAX], dy[NMAX], yp[NMAX], ym[NMAX], ty[NMAX], tdy[NMAX];
      double h = 1e-6;
      memcpy(y, x, sizeof y);
      memcpy(dy, v, sizeof dy);
      for (int i = 0; i < n; i++) {
        yp[i] = x[i] + h * v[i];
        ym[i] = x[i] - h * v[i];
      }
      inplace(yp, n);
      inplace(ym, n);
      /* hand-written tangent of the sweep */
      memcpy(ty, x, sizeof ty);
      memcpy(tdy, v, sizeof tdy);
      for (int i = 1; i < n; i++) {
        tdy[i] = cos(ty[i]) * tdy[i] + 0.5 * (tdy[i] * ty[i - 1] + ty[i] * tdy[i - 1]);
        ty[i] = sin(ty[i]) + 0.5 * ty[i] * ty[i - 1];
      }
      __enzyme_fwddiff_v((void *)inplace, enzyme_dup, y, dy, enzyme_const, n);
      for (int i = 0; i < n; i++) {
        snprintf(w, sizeof w, "in place x[%d] n=%d", i, n);
        lt_check(w, y[i], ty[i], 1e-15, 0); /* the primal ran too */
        dir_check(w, dy[i], tdy[i], (yp[i] - ym[i]) / (2 * h), RF);
      }
    }

    /* Gauss-Seidel sweeps: u and f both dup */
    if (n >= 3) {
      double u[NMAX], du[NMAX], f[NMAX], df[NMAX], up[NMAX], um[NMAX], fp[NMAX], fm[NMAX];
      double tu[NMAX], tdu[NMAX], h = 1e-6;
      fill(f, n, -3, 3, 5);
      fill(df, n, -1, 1, 6);
      memcpy(u, x, sizeof u);
      memcpy(du, v, sizeof du);
      for (int i = 0; i < n; i++) {
        up[i] = x[i] + h * v[i], um[i] = x[i] - h * v[i];
        fp[i] = f[i] + h * df[i], fm[i] = f[i] - h * df[i];
      }
      double fdv = (gauss_seidel(up, fp, n, 5) - gauss_seidel(um, fm, n, 5)) / (2 * h);
      memcpy(tu, x, sizeof tu);
      memcpy(tdu, v, sizeof tdu);
      for (int s = 0; s < 5; s++)
        for (int i = 1; i < n - 1; i++) {
          tdu[i] = 0.5 * (tdu[i - 1] + tdu[i + 1] + 0.01 * df[i]);
          tu[i] = 0.5 * (tu[i - 1] + tu[i + 1] + 0.01 * f[i]);
        }
      an = 0;
      for (int i = 0; i < n; i++)
        an += 2 * tu[i] * tdu[i];
      snprintf(w, sizeof w, "Gauss-Seidel n=%d", n);
      dir_check(w, __enzyme_fwddiff((void *)gauss_seidel, u, du, f, df, n, 5), an, fdv, RF);
      for (int i = 0; i < n; i++) {
        snprintf(w, sizeof w, "Gauss-Seidel du[%d] n=%d", i, n);
        lt_check(w, du[i], tdu[i], RA, 1e-14);
      }
    }

    /* y[i] = a y[i-1] + x[i] through an output array (dupnoneed), with a
     * active too: dy_i = a dy_{i-1} + y_{i-1} da + dx_i */
    {
      double y[NMAX], dy[NMAX], a = lt_vd(0.8), da = 0.25, yy = 0, dyy = 0;
      __enzyme_fwddiff_v((void *)linrec, enzyme_dup, x, v, enzyme_dupnoneed, y, dy, a, da,
                         enzyme_const, n);
      double h = 1e-6, xp[NMAX], xm[NMAX], yp[NMAX], ym[NMAX];
      for (int i = 0; i < n; i++)
        xp[i] = x[i] + h * v[i], xm[i] = x[i] - h * v[i];
      linrec(xp, yp, a + h * da, n);
      linrec(xm, ym, a - h * da, n);
      for (int i = 0; i < n; i++) {
        double ny = i ? a * yy + x[i] : x[i], ndy = i ? a * dyy + yy * da + v[i] : v[i];
        yy = ny, dyy = ndy;
        snprintf(w, sizeof w, "linear recurrence y[%d] n=%d", i, n);
        dir_check(w, dy[i], dyy, (yp[i] - ym[i]) / (2 * h), RF);
      }
    }

    /* do-while count-down: hand-written tangent */
    {
      double s = 1, ds = 0;
      int i = n;
      do {
        i--;
        ds = ds * 0.5 + 2 * x[i] * v[i] / (i + 1);
        s = s * 0.5 + x[i] * x[i] / (i + 1);
      } while (i > 0);
      snprintf(w, sizeof w, "do-while count-down n=%d", n);
      dir_check(w, __enzyme_fwddiff((void *)countdown, enzyme_dup, x, v, enzyme_const, n),
                ds, fd_dir(countdown, x, v, n, 1e-6), RF);
    }

    /* pointer bumping */
    an = 0;
    {
      double wt = 1;
      for (int i = 0; i < n; i++) {
        double c = cosh(x[i]);
        an += wt * v[i] / (c * c);
        wt *= 0.9;
      }
    }
    snprintf(w, sizeof w, "pointer bump n=%d", n);
    dir_check(w, __enzyme_fwddiff((void *)bump, enzyme_dup, x, v, enzyme_const, n), an,
              fd_dir(bump, x, v, n, 1e-6), RF);

    /* width 4 through the triangular nest (dupv: 4 directions NMAX apart) */
    {
      double dirs[4][NMAX];
      for (int k = 0; k < 4; k++)
        fill(dirs[k], n, -1, 1, 10 + k);
      D4 r = __enzyme_fwddiff4((void *)triangular, enzyme_width, 4, enzyme_dupv,
                               sizeof dirs[0], x, dirs, enzyme_const, n);
      for (int k = 0; k < 4; k++) {
        double one = __enzyme_fwddiff((void *)triangular, enzyme_dup, x, dirs[k],
                                      enzyme_const, n);
        snprintf(w, sizeof w, "triangular width 4 lane %d vs width 1 n=%d", k, n);
        lt_check(w, r.v[k], one, 1e-14, 1e-15);
        snprintf(w, sizeof w, "triangular width 4 lane %d vs FD n=%d", k, n);
        lt_check(w, r.v[k], fd_dir(triangular, x, dirs[k], n, 1e-6), RF, RF * 1e-2);
      }
      /* width 4 with four separate tangents for the scalar recurrence */
      D4 q = __enzyme_fwddiff4((void *)logistic, enzyme_width, 4, lt_vd(3.2), 1.0, 0.0, 0.5,
                               -1.0, lt_vd(0.3), 0.0, 1.0, 0.5, 2.0, enzyme_const, n);
      double dr = __enzyme_fwddiff((void *)logistic, lt_vd(3.2), 1.0, lt_vd(0.3), 0.0, n);
      double dt = __enzyme_fwddiff((void *)logistic, lt_vd(3.2), 0.0, lt_vd(0.3), 1.0, n);
      double want[4] = {dr, dt, 0.5 * dr + 0.5 * dt, -dr + 2 * dt};
      for (int k = 0; k < 4; k++) {
        snprintf(w, sizeof w, "logistic width 4 lane %d n=%d", k, n);
        lt_check(w, q.v[k], want[k], 1e-13, 1e-15);
      }
    }

    for (int i = 0; i < n; i++)
      if (x[i] != xcopy[i])
        lt_check("x unchanged by the read-only loops", x[i], xcopy[i], 0, 0);
  }

  /* while loops (Newton): implicit-function derivatives; FD with a larger
   * step (the trip count may differ at a +- h, both converged) */
  static const double as[5] = {0.3, 2.0, 17.5, 1234.5, 0.0071};
  for (int k = 0; k < 5; k++) {
    double a = lt_vd(as[k]), h = 1e-5 * a;
    double ad = __enzyme_fwddiff((void *)newton_sqrt, a, 1.0);
    lt_grad("newton sqrt", a, ad, 1 / (2 * sqrt(a)),
            (newton_sqrt(a + h) - newton_sqrt(a - h)) / (2 * h), 1e-10, 1e-6);
  }
  static const double ps[3] = {1.0, 0.25, 4.0}, qs[3] = {2.0, -3.5, 10.0};
  for (int k = 0; k < 3; k++) {
    double p = lt_vd(ps[k]), q = lt_vd(qs[k]), x = cubic_root(p, q), den = 3 * x * x + p;
    double tp = 0.6, tq = -1.1, h = 1e-5;
    double ad = __enzyme_fwddiff((void *)cubic_root, enzyme_dup, p, tp, enzyme_dup, q, tq);
    double an = -x / den * tp + tq / den;
    double fd = (cubic_root(p + h * tp, q + h * tq) - cubic_root(p - h * tp, q - h * tq)) /
                (2 * h);
    lt_grad("cubic root along (0.6, -1.1)", p, ad, an, fd, 1e-10, 1e-6);
  }

  /* the logistic map, hand-written tangent in r and t0 */
  for (int n = 1; n <= 40; n += 13) {
    double r = lt_vd(3.2), t0 = lt_vd(0.3), tr = 0.7, tt = -0.4;
    double t = t0, dt = tt;
    for (int k = 0; k < n; k++) {
      dt = tr * t * (1 - t) + r * dt * (1 - 2 * t);
      t = r * t * (1 - t);
    }
    double h = 1e-7;
    double fd = (logistic(r + h * tr, t0 + h * tt, n) - logistic(r - h * tr, t0 - h * tt, n)) /
                (2 * h);
    char w[60];
    snprintf(w, sizeof w, "logistic n=%d", n);
    lt_grad(w, r, __enzyme_fwddiff((void *)logistic, r, tr, t0, tt, enzyme_const, n), dt, fd,
            1e-10, 1e-5);
  }
  return lt_done();
}
