// Reverse loops of stencils add into neighbouring elements of one shadow;
// gen/gather.c makes that one addition per element, the rest carried in
// registers, and the elements still owed after the loop get theirs there
// (issue 17, item 4). Each kernel's objective is a weighted sum of what it
// writes; its gradient is checked against central differences, with the
// shapes the rewrite must get right or leave alone:
//  - 3-point (offsets -1, 0, +1), restrict and plain pointers, and the
//    plain kernel called in place (t = u + 1: the rewrite must not run);
//  - a gap (offsets -1 and +1 only) at n = 3, 4 and 9: the element between
//    is written only when an iteration reached it; a shadow element no
//    iteration touches must keep its -0.0 (adding 0 would make it +0.0);
//  - 5-point in float, a primal loop that runs downwards (the reverse runs
//    upwards), a stride of two elements, a 2-D 5-point stencil (rows apart
//    by n: one row's group beside two other rows' single additions);
//  - an in-place Gauss-Seidel sweep, whose reverse reads the shadow it adds
//    into (left alone);
//  - split mode over plain pointers (its derivative is not versioned as a
//    whole): the loop runs rewritten when a run-time test finds du apart
//    from dt, and as it was (a copy) when called in place (t = u + 1).
// Sizes are odd so that vector loops have remainders.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O1 %s -o %t1 -lm && %t1
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O3 -march=x86-64-v3 %s -o %t3 -lm && %t3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

#define NI __attribute__((noinline))
#define MAXN 64

NI void s3_restrict(const double *restrict u, double *restrict t, int n) {
  for (int i = 1; i < n - 1; i++)
    t[i] = u[i] * (u[i + 1] - u[i - 1]) + 0.3 * (u[i + 1] - 2 * u[i] + u[i - 1]);
}
NI void s3_plain(const double *u, double *t, int n) {
  for (int i = 1; i < n - 1; i++)
    t[i] = u[i] * (u[i + 1] - u[i - 1]) + 0.3 * (u[i + 1] - 2 * u[i] + u[i - 1]);
}
NI void gap(const double *restrict u, double *restrict t, int n) {
  for (int i = 1; i < n - 1; i++)
    t[i] = u[i + 1] * u[i + 1] * u[i - 1] - 0.5 * u[i - 1];
}
NI void s5f(const float *restrict u, float *restrict t, int n) {
  for (int i = 2; i < n - 2; i++)
    t[i] = u[i - 2] * u[i + 2] + u[i - 1] * u[i] - 0.25f * u[i + 1] * u[i + 1];
}
NI void down(const double *restrict u, double *restrict t, int n) {
  for (int i = n - 2; i >= 1; i--)
    t[i] = u[i - 1] * u[i + 1] + u[i] * u[i];
}
NI void stride2(const double *restrict u, double *restrict t, int n) {
  for (int i = 0; 2 * i + 2 < n; i++)
    t[i] = u[2 * i] * u[2 * i + 2] - u[2 * i + 1];
}
NI void s2d(const double *restrict a, double *restrict b, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++)
      b[i * n + j] = a[i * n + j] * (a[i * n + j - 1] + a[i * n + j + 1]) +
                     0.2 * (a[(i - 1) * n + j] + a[(i + 1) * n + j]);
}
NI void sweep(double *u, int n) {
  for (int i = 1; i < n - 1; i++)
    u[i] = 0.5 * (u[i - 1] + u[i + 1]) * u[i];
}

static double W[MAXN * MAXN];
static int N, which;

/* The objective of case `which` at x (N inputs; MAXN*MAXN scratch each) */
static double work[MAXN * MAXN], out[MAXN * MAXN];
static float fwork[MAXN], fout[MAXN];

static int outputs(void) { return which == 7 ? N * N : N; }

static double objective(const double *x) {
  int no = outputs(), nin = which == 7 ? N * N : N;
  memset(out, 0, sizeof out);
  memcpy(work, x, nin * sizeof *x);
  switch (which) {
  case 0: s3_restrict(work, out, N); break;
  case 1: s3_plain(work, out, N); break;
  case 2: /* in place: t = u + 1, the result read back from work */
    s3_plain(work, work + 1, N - 1);
    memcpy(out, work, N * sizeof *out);
    break;
  case 3: gap(work, out, N); break;
  case 4:
    for (int i = 0; i < N; i++)
      fwork[i] = (float)x[i], fout[i] = 0;
    s5f(fwork, fout, N);
    for (int i = 0; i < N; i++)
      out[i] = fout[i];
    break;
  case 5: down(work, out, N); break;
  case 6: stride2(work, out, N); break;
  case 7: s2d(work, out, N); break;
  case 8:
    sweep(work, N);
    memcpy(out, work, N * sizeof *out);
    break;
  case 9: s3_plain(work, out, N); break;
  case 10:
    s3_plain(work, work + 1, N - 1);
    memcpy(out, work, N * sizeof *out);
    break;
  }
  double s = 0;
  for (int i = 0; i < no; i++)
    s += W[i] * out[i];
  return s;
}

static double dwork[MAXN * MAXN], dout[MAXN * MAXN];
static float dfwork[MAXN], dfout[MAXN];

/* The gradient by AD into g; dwork's untouched elements start at -0.0 */
static void gradient(const double *x, double *g) {
  int no = outputs(), nin = which == 7 ? N * N : N;
  memcpy(work, x, nin * sizeof *x);
  memset(out, 0, sizeof out);
  for (int i = 0; i < MAXN * MAXN; i++)
    dwork[i] = -0.0;
  memcpy(dout, W, no * sizeof *W);
  switch (which) {
  case 0:
    __enzyme_autodiff((void *)s3_restrict, enzyme_dup, work, dwork, enzyme_dup, out, dout,
                      enzyme_const, N);
    break;
  case 1:
    __enzyme_autodiff((void *)s3_plain, enzyme_dup, work, dwork, enzyme_dup, out, dout,
                      enzyme_const, N);
    break;
  case 2:
    memcpy(dwork, W, N * sizeof *W);
    __enzyme_autodiff((void *)s3_plain, enzyme_dup, work, dwork, enzyme_dup, work + 1,
                      dwork + 1, enzyme_const, N - 1);
    break;
  case 3:
    __enzyme_autodiff((void *)gap, enzyme_dup, work, dwork, enzyme_dup, out, dout, enzyme_const,
                      N);
    break;
  case 4:
    for (int i = 0; i < N; i++)
      fwork[i] = (float)x[i], fout[i] = 0, dfwork[i] = -0.0f, dfout[i] = (float)W[i];
    __enzyme_autodiff((void *)s5f, enzyme_dup, fwork, dfwork, enzyme_dup, fout, dfout,
                      enzyme_const, N);
    for (int i = 0; i < N; i++)
      dwork[i] = dfwork[i];
    break;
  case 5:
    __enzyme_autodiff((void *)down, enzyme_dup, work, dwork, enzyme_dup, out, dout, enzyme_const,
                      N);
    break;
  case 6:
    __enzyme_autodiff((void *)stride2, enzyme_dup, work, dwork, enzyme_dup, out, dout,
                      enzyme_const, N);
    break;
  case 7:
    __enzyme_autodiff((void *)s2d, enzyme_dup, work, dwork, enzyme_dup, out, dout, enzyme_const,
                      N);
    break;
  case 8:
    memcpy(dwork, W, N * sizeof *W);
    __enzyme_autodiff((void *)sweep, enzyme_dup, work, dwork, enzyme_const, N);
    break;
  case 9: {
    void *tape = __enzyme_augmentfwd((void *)s3_plain, enzyme_dup, work, dwork, enzyme_dup, out,
                                     dout, enzyme_const, N);
    __enzyme_reverse((void *)s3_plain, enzyme_dup, work, dwork, enzyme_dup, out, dout,
                     enzyme_const, N, tape);
    break;
  }
  case 10: {
    memcpy(dwork, W, N * sizeof *W);
    void *tape = __enzyme_augmentfwd((void *)s3_plain, enzyme_dup, work, dwork, enzyme_dup,
                                     work + 1, dwork + 1, enzyme_const, N - 1);
    __enzyme_reverse((void *)s3_plain, enzyme_dup, work, dwork, enzyme_dup, work + 1, dwork + 1,
                     enzyme_const, N - 1, tape);
    break;
  }
  }
  memcpy(g, dwork, nin * sizeof *g);
}

static const char *names[] = {"s3_restrict", "s3_plain", "s3_plain in place", "gap",
                              "s5f (float)", "down",     "stride2",           "s2d",
                              "sweep",       "s3_plain split", "s3_plain split in place"};

static void run(int w, int n) {
  which = w;
  N = n;
  int nin = w == 7 ? n * n : n;
  static double x[MAXN * MAXN], g[MAXN * MAXN];
  for (int i = 0; i < nin; i++)
    x[i] = lt_vd(0.4 + 0.3 * sin(1.7 * i + w));
  for (int i = 0; i < MAXN * MAXN; i++)
    W[i] = lt_vd(0.5 + 0.25 * cos(0.9 * i + n));
  gradient(x, g);
  double rtol = w == 4 ? 2e-3 : 1e-6;
  for (int k = 0; k < nin; k++) {
    double h = (w == 4 ? 1e-3 : 1e-6) * fmax(1.0, fabs(x[k]));
    double xk = x[k];
    volatile double xp = xk + h, xm = xk - h;
    x[k] = xp;
    double fp = objective(x);
    x[k] = xm;
    double fm = objective(x);
    x[k] = xk;
    char what[96];
    snprintf(what, sizeof what, "%s n=%d d/dx[%d]", names[w], n, k);
    lt_check(what, g[k], (fp - fm) / (xp - xm), rtol, rtol);
  }
  /* the shadow beyond the inputs is untouched: still -0.0 */
  if (w != 2 && w != 4 && w != 8 && w != 10) {
    int untouched = 1;
    for (int i = nin; i < MAXN; i++)
      untouched &= signbit(dwork[i]) && dwork[i] == 0;
    char what[96];
    snprintf(what, sizeof what, "%s n=%d: shadow past the inputs untouched", names[w], n);
    lt_check(what, untouched, 1, 0, 0);
  }
}

int main(void) {
  for (int w = 0; w <= 10; w++) {
    if (w == 7) {
      run(w, 7);
      continue;
    }
    int sizes[] = {3, 4, 5, 9, 33};
    for (int k = 0; k < 5; k++)
      if (!(w == 4 && sizes[k] < 5))
        run(w, sizes[k]);
  }
  /* gap at n = 3: one iteration; dx[1] is no input of t (t[1] reads x[0]
   * and x[2]), so its shadow element keeps -0.0 */
  which = 3;
  N = 3;
  double x[3] = {0.5, 0.75, 1.25}, g[3];
  gradient(x, g);
  lt_check("gap n=3: the element between kept -0.0", signbit(g[1]) && g[1] == 0, 1, 0, 0);
  return lt_done();
}
