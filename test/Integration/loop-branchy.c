// Branchy loop bodies: an early `continue`, relu (v > 0 ? v : 0), fmax with
// a per-element constant, an if / else-if / else chain in the body, and a
// loop-carried running maximum (a select carried around the loop).
// Inputs are kept at least 0.05 away from every kink so finite differences
// are valid. With v = x_i, r = relu(v), m = max(v, c_i):
//   v < -1          : skipped (gradient 0)
//   i % 3 == 0      : sin(v) r          -> cos(v) r + sin(v) [v > 0]
//   else v > 0.5    : m^2               -> 2 m [v > c_i]
//   else            : 0.5 r + exp(v) m  -> 0.5 [v > 0] + exp(v) (m + [v > c_i])
// runmax: M = max_i x_i, f = M^2 -> 2 M at the arg max, 0 elsewhere.
// The data make the first and the last iterations carry gradient, and
// every branch taken (set_branches): x[0] in the i % 3 == 0 branch with
// v > 0, x[1], x[2], x[7] in the last branch (v > 0 and < 0, m = v and
// m = c), x[4] above 0.5, x[5] skipped, the last element in an active
// branch; the running maximum at index 0, 1 and n - 1 in the three sizes
// (runmax's first iteration, i = 1, decides the gradient when the maximum
// is x[1]).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

double branchy(const double *x, const double *c, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    double v = x[i];
    if (v < -1.0)
      continue;
    double r = v > 0 ? v : 0.0;
    double m = fmax(v, c[i]);
    if (i % 3 == 0)
      s += sin(v) * r;
    else if (v > 0.5)
      s += m * m;
    else
      s += 0.5 * r + exp(v) * m;
  }
  return s;
}

double runmax(const double *x, int n) {
  double M = x[0];
  for (int i = 1; i < n; i++)
    if (x[i] > M)
      M = x[i];
  return M * M;
}

typedef struct {
  int n;
  const double *c;
} ctx_t;
static double o_branchy(double *x, void *k) {
  ctx_t *t = k;
  return branchy(x, t->c, t->n);
}
static double o_runmax(double *x, void *k) { return runmax(x, *(int *)k); }

/* every branch and the first and last iterations carry gradient; the
 * maximum (2.5, above all data in [-2, 2)) at index am */
static void set_branches(double *x, double *c, int n, int am) {
  x[0] = 1.3;               /* i % 3 == 0, v > 0: sin(v) r */
  x[1] = 0.3, c[1] = -0.2;  /* last branch, v > 0, m = v */
  x[2] = -0.6, c[2] = 0.1;  /* last branch, v < 0 (r = 0), m = c */
  x[4] = 1.6, c[4] = 0.2;   /* v > 0.5: m^2, m = v */
  x[5] = -1.4;              /* skipped: gradient 0 */
  if (n > 7)
    x[7] = 0.35, c[7] = 0.6; /* last branch, v > 0, m = c */
  x[n - 1] = 0.8, c[n - 1] = 0.4; /* the last iteration: an active branch */
  x[am] = 2.5;
}

static double away(double v, double t) {
  return fabs(v - t) < 0.05 ? v + 0.1 : v;
}

int main(void) {
  enum { NMAX = 45 };
  int ns[3] = {lt_vi(7), lt_vi(20), lt_vi(45)};
  for (int t = 0; t < 3; t++) {
    int n = ns[t];
    double x[NMAX], c[NMAX], dx[NMAX] = {0}, an[NMAX], fd[NMAX];
    lt_data(x, n, -2.0, 2.0, 15);
    lt_data(c, n, -0.5, 1.0, 16);
    for (int i = 0; i < n; i++)
      for (int rep = 0; rep < 3; rep++)
        x[i] = away(away(away(away(x[i], -1.0), 0.0), 0.5), c[i]);
    set_branches(x, c, n, t == 0 ? 0 : t == 1 ? 1 : n - 1);
    int skipped = 0;
    for (int i = 0; i < n; i++) {
      double v = x[i], r = v > 0 ? v : 0, m = fmax(v, c[i]);
      double dr = v > 0, dm = v > c[i];
      if (v < -1.0) {
        an[i] = 0;
        skipped++;
      } else if (i % 3 == 0)
        an[i] = cos(v) * r + sin(v) * dr;
      else if (v > 0.5)
        an[i] = 2 * m * dm;
      else
        an[i] = 0.5 * dr + exp(v) * (m + dm);
    }
    printf("-- branchy n = %d (%d skipped)\n", n, skipped);
    __enzyme_autodiff((void *)branchy, enzyme_dup, x, dx, enzyme_const, c,
                      enzyme_const, n);
    ctx_t k = {n, c};
    lt_fd_grad(o_branchy, x, n, &k, fd);
    lt_gradv("branchy", n, dx, an, fd, 1e-10, 1e-6);

    /* running max */
    double dm[NMAX] = {0};
    int am = 0;
    for (int i = 1; i < n; i++)
      if (x[i] > x[am])
        am = i;
    for (int i = 0; i < n; i++)
      an[i] = i == am ? 2 * x[am] : 0.0;
    __enzyme_autodiff((void *)runmax, enzyme_dup, x, dm, enzyme_const, n);
    lt_fd_grad(o_runmax, x, n, &n, fd);
    printf("-- runmax n = %d (argmax %d)\n", n, am);
    lt_gradv("runmax", n, dm, an, fd, 1e-10, 1e-6);
  }
  return lt_done();
}
