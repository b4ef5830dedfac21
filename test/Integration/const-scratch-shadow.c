// enzyme_const memory that the function stores active values in and reads
// back: a recurrent state updated in place from the parameters (the LSTM
// of Enzyme's benchmarks passes its `state` so), a buffer read before it
// is overwritten, one updated in place element by element. Its
// derivatives would be lost (it has no shadow), and that was an error;
// under __enzyme_autodiff the gradient now gives such a parameter a shadow
// of its own, zeros reserved as address space around it (reads at
// negative offsets included), dropped when the gradient returns
// (analysis/scratch.c, gen/scratchshadow.c): the derivatives flow through
// it and none goes to the caller; in forward mode likewise a tangent of
// its own. Gradients against central differences
// at -O0 and -O2, the primal's effect on the const memory kept; the
// remark; split mode still refuses it (its halves share no frame to keep
// such a shadow in). Stores by a callee kept as a call (recursive) count
// too: the caller's reads of the buffer then get the shadow (at -O0 the
// gradient was 0, silently), and into a global without a shadow they are
// an error. A function that loads a pointer from enzyme_dup memory keeps
// the error: that pointer may address the const array with a shadow of its
// own (a struct the caller aims into it), and the derivatives would go
// apart, silently.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O2 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REM
// RUN: not %ltclang -O2 -DSPLIT -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not %ltclang -O0 -DGLOBAL -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// RUN: not %ltclang -O2 -DALIAS -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SPLIT
// REM-DAG: remark: parameter 2 of 'rnn' is enzyme_const, but the function stores active values in its memory and reads them back: the gradient gives it a shadow of its own
// REM-DAG: remark: parameter 2 of 'rnn' is enzyme_const, but the function stores active values in its memory and reads them back: the tangent function gives it a tangent of its own
// REM-DAG: remark: parameter 2 of 'middle' is enzyme_const
// REM-DAG: remark: parameter 2 of 'two' is enzyme_const
// REM-DAG: remark: parameter 3 of 'two' is enzyme_const
// REM-DAG: remark: parameter 4 of 'two' is enzyme_const
// SPLIT: error: leantape: this reads back an active value that was stored to memory that has no shadow

#include "loopcheck.h"
#include <stdio.h>

#define T 6
#define N 5

#ifndef NO_AD
double __enzyme_fwddiff(void *, ...);
#else
double __enzyme_fwddiff(void *f, ...) {
  (void)f;
  return 0;
}
#endif

/* a recurrent state: h <- tanh(w h + x_t) elementwise, in place */
double rnn(const double *w, double *state, const double *x, int t, int n) {
  for (int s = 0; s < t; s++)
    for (int i = 0; i < n; i++)
      state[i] = tanh(w[i] * state[i] + w[n + i] * x[s * n + i]);
  double e = 0;
  for (int i = 0; i < n; i++)
    e += state[i] * state[i];
  return e;
}

/* mid points into the middle of its array: reads and writes on both
 * sides of it */
double middle(const double *w, double *mid, int n) {
  for (int i = -n; i < n; i++)
    mid[i] = sin(w[0] * mid[i] + mid[i - 1]) + w[1];
  double e = 0;
  for (int i = -n; i < n; i++)
    e += mid[i] * w[2];
  return e;
}

/* read before it is overwritten; and, in a second buffer, copied in and
 * read back through memcpy */
double two(const double *w, double *a, double *b, double *c, int n) {
  double s = a[0];
  a[0] = s * w[0];
  double tmp[N];
  for (int i = 0; i < n; i++)
    tmp[i] = w[i] * w[i];
  memcpy(b, tmp, (size_t)n * sizeof *b);
  double e = s * w[0] * w[0];
  for (int i = 0; i < n; i++) {
    double old = c[i];
    c[i] = old * w[i];
    e += b[i] * old + b[(i + 1) % n] * c[i];
  }
  return e;
}

/* a recursive callee (kept as a call) stores into the const buffer, its
 * caller reads it back: a gradient of 0 at -O0 before, silently (the
 * caller never saw the stores; analysis/paramstores.c); into a global
 * without a shadow it is an error */
void fill(double *c, const double *w, int k) {
  if (k <= 0)
    return;
  c[k - 1] = sin(w[0] * k);
  fill(c, w, k - 1);
}
#ifdef ALIAS
/* a pointer loaded from enzyme_dup memory may address the const array
 * with a shadow of its own (here it does): the error stays */
struct S {
  const double *p;
};
double aliased(const double *w, double *c, const struct S *sp, int n) {
  for (int i = 0; i < n; i++)
    c[i] = sin(w[i]);
  double e = 0;
  for (int i = 0; i < n; i++)
    e += c[i] * c[i];
  return e + sp->p[0] * w[1];
}
void h(const double *w, double *dw, double *c, double *dc) {
  struct S s = {c}, ds = {dc};
  __enzyme_autodiff((void *)aliased, enzyme_dup, w, dw, enzyme_const, c, enzyme_dup, &s, &ds,
                    enzyme_const, N);
}
#endif
#ifdef GLOBAL
double G[N];
double viafill(const double *w, int n) {
  fill(G, w, n);
  double e = 0;
  for (int i = 0; i < n; i++)
    e += G[i] * G[i];
  return e;
}
void g(const double *w, double *dw) {
  __enzyme_autodiff((void *)viafill, enzyme_dup, w, dw, enzyme_const, N);
}
#endif
double viafill_c(const double *w, double *c, int n) {
  fill(c, w, n);
  double e = 0;
  for (int i = 0; i < n; i++)
    e += c[i] * c[i];
  return e;
}

#ifdef SPLIT
void *split(const double *w, double *dw, double *state, const double *x) {
  void *tape = __enzyme_augmentfwd((void *)rnn, enzyme_dup, w, dw, enzyme_const, state,
                                   enzyme_const, x, enzyme_const, T, enzyme_const, N);
  __enzyme_reverse((void *)rnn, enzyme_dup, w, dw, enzyme_const, state, enzyme_const, x,
                   enzyme_const, T, enzyme_const, N, 1.0, tape);
  return tape;
}
#else

static double S0[N], X[T * N], A0[3 * N + 2];
static double rnn_obj(double *w, void *c) {
  (void)c;
  double s[N];
  memcpy(s, S0, sizeof s);
  return rnn(w, s, X, T, N);
}
static double middle_obj(double *w, void *c) {
  (void)c;
  double a[3 * N + 2];
  memcpy(a, A0, sizeof a);
  return middle(w, a + N + 1, N);
}
static double two_obj(double *w, void *c) {
  (void)c;
  double a[1] = {A0[0]}, b[N], cc[N];
  memcpy(cc, A0 + 1, sizeof cc);
  return two(w, a, b, cc, N);
}

int main(void) {
  double w[2 * N], dw[2 * N], fd[2 * N];
  lt_data(w, 2 * N, -0.8, 0.8, 1);
  lt_data(S0, N, -0.5, 0.5, 2);
  lt_data(X, T * N, -1, 1, 3);
  lt_data(A0, 3 * N + 2, -0.6, 0.6, 4);

  /* the recurrent state */
  double s[N], s2[N];
  memcpy(s, S0, sizeof s);
  memcpy(s2, S0, sizeof s2);
  memset(dw, 0, sizeof dw);
  __enzyme_autodiff((void *)rnn, enzyme_dup, w, dw, enzyme_const, s, enzyme_const, X,
                    enzyme_const, T, enzyme_const, N);
  rnn(w, s2, X, T, N);
  lt_fd_grad(rnn_obj, w, 2 * N, NULL, fd);
  lt_gradv("rnn dw", 2 * N, dw, fd, NULL, 1e-6, 0);
  for (int i = 0; LT_AD && i < N; i++)
    lt_check("rnn: the state as the primal leaves it", s[i], s2[i], 1e-15, 0);
  /* forward mode: the tangent along a direction is the gradient's dot
   * product with it (the tangent function gives the state a tangent of
   * its own) */
  double dir[2 * N], dd = 0;
  lt_data(dir, 2 * N, -1, 1, 5);
  for (int k = 0; k < 2 * N; k++)
    dd += dw[k] * dir[k];
  memcpy(s, S0, sizeof s);
  double tan = __enzyme_fwddiff((void *)rnn, enzyme_dup, w, dir, enzyme_const, s,
                                enzyme_const, X, enzyme_const, T, enzyme_const, N);
  lt_check_ad("rnn: tangent along dir", tan, dd, 1e-12, 1e-12);

  /* offsets on both sides */
  double a[3 * N + 2];
  memcpy(a, A0, sizeof a);
  memset(dw, 0, sizeof dw);
  __enzyme_autodiff((void *)middle, enzyme_dup, w, dw, enzyme_const, a + N + 1, enzyme_const,
                    N);
  lt_fd_grad(middle_obj, w, 3, NULL, fd);
  lt_gradv("middle dw", 3, dw, fd, NULL, 1e-6, 0);

  /* read first; copied in; updated in place */
  double a1[1] = {A0[0]}, b[N], c[N];
  memcpy(c, A0 + 1, sizeof c);
  memset(dw, 0, sizeof dw);
  __enzyme_autodiff((void *)two, enzyme_dup, w, dw, enzyme_const, a1, enzyme_const, b,
                    enzyme_const, c, enzyme_const, N);
  lt_fd_grad(two_obj, w, N, NULL, fd);
  lt_gradv("two dw", N, dw, fd, NULL, 1e-6, 0);

  /* stored by a kept callee */
  double cf[N] = {0}, want = 0;
  memset(dw, 0, sizeof dw);
  __enzyme_autodiff((void *)viafill_c, enzyme_dup, w, dw, enzyme_const, cf, enzyme_const, N);
  for (int k = 1; k <= N; k++)
    want += 2 * sin(w[0] * k) * cos(w[0] * k) * k;
  lt_check_ad("kept callee's stores: dw[0]", dw[0], want, 1e-12, 1e-12);
  return lt_done();
}
#endif
