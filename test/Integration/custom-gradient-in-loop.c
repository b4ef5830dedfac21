// A registered custom gradient called inside loops, with a tape per
// iteration: sig's augmented function returns {tape, result} where the
// tape is a heap record holding the iteration's argument; the gradient
// checks the record against its own x, logs the order it sees, and frees
// it. The reverse must hand each iteration's tape back, in reverse
// iteration order, exactly once. Loops:
//  - a counted loop over an array (the cache is preallocated);
//  - a loop-carried recurrence t = sig(t) + x[i] (each tape holds that
//    iteration's t);
//  - a loop with a data-dependent exit (the cache grows);
//  - the counted loop in split mode, with two forward passes live.
// The custom derivative is deliberately not the true one (sig(x) = x^2,
// sig' := 2x + 1), so the values prove the registration was used.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stdlib.h>

enum { MAXLOG = 64 };
static int n_primal, n_aug, n_grad, n_bad_tape, live_tapes, nlog;
static double fwd_log[MAXLOG], rev_log[MAXLOG];

typedef struct {
  double *tape;
  double result;
} SigAug;

double sig(double x) {
  n_primal++;
  return x * x;
}
SigAug aug_sig(double x) {
  n_aug++;
  double *t = malloc(sizeof *t);
  *t = x;
  live_tapes++;
  if (n_aug <= MAXLOG)
    fwd_log[n_aug - 1] = x;
  SigAug r = {t, x * x};
  return r;
}
double grad_sig(double x, double dret, double *tape) {
  n_grad++;
  if (*tape != x)
    n_bad_tape++;
  if (nlog < MAXLOG)
    rev_log[nlog++] = *tape;
  double dx = (2.0 * *tape + 1.0) * dret;
  free(tape);
  live_tapes--;
  return dx;
}
void *__enzyme_register_gradient_sig[3] = {(void *)sig, (void *)aug_sig,
                                           (void *)grad_sig};

/* s = sum_i (i + 1) sig(x_i) */
double counted(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += sig(x[i]) * (i + 1);
  return s;
}
/* t_{i+1} = sig(t_i) + x_i, t_0 = 0.5 */
double carried(const double *x, int n) {
  double t = 0.5;
  for (int i = 0; i < n; i++)
    t = sig(t) * 0.5 + x[i];
  return t;
}
/* runs until a negative entry (not counted in) */
double until_negative(const double *x) {
  double s = 0;
  for (int i = 0; x[i] >= 0; i++)
    s += sig(x[i]);
  return s;
}

static void reset(void) {
  n_primal = n_aug = n_grad = n_bad_tape = nlog = 0;
}
/* the reverse sees the forward's arguments, last first */
static void check_order(const char *what, int n) {
  char b[120];
  snprintf(b, sizeof b, "%s: primal calls", what);
  lt_check(b, n_primal, 0, 0, 0);
  snprintf(b, sizeof b, "%s: augmented calls", what);
  lt_check(b, n_aug, n, 0, 0);
  snprintf(b, sizeof b, "%s: gradient calls", what);
  lt_check(b, n_grad, n, 0, 0);
  snprintf(b, sizeof b, "%s: each tape back to its own iteration", what);
  lt_check(b, n_bad_tape, 0, 0, 0);
  snprintf(b, sizeof b, "%s: every tape freed once", what);
  lt_check(b, live_tapes, 0, 0, 0);
  int bad = 0;
  for (int k = 0; k < n && k < MAXLOG; k++)
    bad += rev_log[k] != fwd_log[n - 1 - k];
  snprintf(b, sizeof b, "%s: tapes in reverse iteration order", what);
  lt_check(b, bad, 0, 0, 0);
  reset();
}

int main(void) {
  enum { N = 7 };
  const double x0[N] = {0.3, -0.6, 1.1, 0.25, -1.4, 0.8, 0.05};
  /* counted loop */
  {
    double x[N], dx[N] = {0};
    lt_fill(x, x0, N);
    reset();
    __enzyme_autodiff((void *)counted, enzyme_dup, x, dx, enzyme_const,
                      lt_vi(N));
    for (int i = 0; i < N; i++)
      lt_check("counted: dx (custom)", dx[i], (i + 1) * (2 * x[i] + 1), 1e-15,
               0);
    check_order("counted", N);
  }
  /* loop-carried */
  {
    double x[N], dx[N] = {0}, t[N + 1];
    lt_fill(x, x0, N);
    t[0] = 0.5;
    for (int i = 0; i < N; i++)
      t[i + 1] = t[i] * t[i] * 0.5 + x[i];
    reset();
    __enzyme_autodiff((void *)carried, enzyme_dup, x, dx, enzyme_const,
                      lt_vi(N));
    /* dt_N / dx_i = prod_{j>i} 0.5 sig'(t_j), sig'(t) := 2t + 1 */
    double a = 1.0;
    for (int i = N - 1; i >= 0; i--) {
      lt_check("carried: dx (custom)", dx[i], a, 1e-13, 1e-15);
      a *= 0.5 * (2 * t[i] + 1);
    }
    /* the tapes hold t_0 .. t_{N-1} */
    for (int k = 0; k < N; k++)
      lt_check("carried: forward saw t_k", fwd_log[k], t[k], 1e-15, 0);
    check_order("carried", N);
  }
  /* data-dependent exit: the first 5 entries, then -1 */
  {
    double x[8] = {0.5, 1.5, 0.25, 2.0, 0.75, -1.0, 3.0, 4.0}, dx[8] = {0};
    lt_fill(x, x, 8);
    reset();
    __enzyme_autodiff((void *)until_negative, enzyme_dup, x, dx);
    for (int i = 0; i < 8; i++)
      lt_check("until negative: dx (custom)", dx[i], i < 5 ? 2 * x[i] + 1 : 0,
               1e-15, 0);
    check_order("until negative", 5);
  }
  /* split mode: two forward passes live, reversed in the opposite order */
  {
    double x[N], dx[N] = {0}, u[N], du[N] = {0};
    lt_fill(x, x0, N);
    for (int i = 0; i < N; i++)
      u[i] = lt_vd(x0[i] * -2.0 + 0.1);
    reset();
    void *t1 = __enzyme_augmentfwd((void *)counted, enzyme_dup, x, dx,
                                   enzyme_const, lt_vi(N));
    void *t2 = __enzyme_augmentfwd((void *)counted, enzyme_dup, u, du,
                                   enzyme_const, lt_vi(N));
    lt_check("split: augmented calls", n_aug, 2 * N, 0, 0);
    lt_check("split: tapes live between the halves", live_tapes, 2 * N, 0, 0);
    __enzyme_reverse((void *)counted, enzyme_dup, u, du, enzyme_const,
                     lt_vi(N), lt_vd(2.0), t2);
    __enzyme_reverse((void *)counted, enzyme_dup, x, dx, enzyme_const,
                     lt_vi(N), lt_vd(1.0), t1);
    for (int i = 0; i < N; i++) {
      lt_check("split: dx (custom)", dx[i], (i + 1) * (2 * x[i] + 1), 1e-15, 0);
      lt_check("split: du (custom)", du[i], 2 * (i + 1) * (2 * u[i] + 1), 1e-15,
               0);
    }
    lt_check("split: gradient calls", n_grad, 2 * N, 0, 0);
    lt_check("split: each tape back to its own iteration", n_bad_tape, 0, 0, 0);
    lt_check("split: every tape freed once", live_tapes, 0, 0, 0);
    /* u's pass was reversed first: its N tapes, last first */
    int bad = 0;
    for (int k = 0; k < N; k++)
      bad += rev_log[k] != u[N - 1 - k] || rev_log[N + k] != x[N - 1 - k];
    lt_check("split: tapes in reverse order", bad, 0, 0, 0);
  }
  return lt_done();
}
