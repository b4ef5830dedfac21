// memmove between overlapping ranges of one array, downwards and upwards:
// the adjoint (dsrc += ddst, ddst = 0, element by element) must read each
// element of ddst before it writes it through dsrc, and so must the move
// of shadow pointers (an array of pointers shifted in place). At -O2 the
// copy is taken as one element of five doubles, overlapping itself by one
// field: the fields were processed one by one, and the gradients of the
// shifted elements came back 0 (found by the random tester, --stencil
// --alias --pointers seed 860167, where a copy loop became a memmove).
// A shifting loop that loop-idiom turns into memmove is checked too.
// Against central differences at -O0 and -O2.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
#include "loopcheck.h"
#include <stdio.h>

#define N 8

static double energy(const double *x) {
  double s = 0;
  for (int i = 0; i < N; i++)
    s += (i + 1) * x[i] * x[i] + 0.1 * sin(x[i]);
  return s;
}

double down(double *x) {
  memmove(x + 1, x + 2, 5 * sizeof(double));
  return energy(x);
}

double up(double *x) {
  memmove(x + 2, x + 1, 5 * sizeof(double));
  return energy(x);
}

/* x[i] = x[i + 1] in a loop, three times (memmove at -O1 and up) */
double shift(double *x) {
  for (int t = 0; t < 3; t++) {
    for (int i = 1; i < 6; i++)
      x[i] = x[i + 1] * (1 + 0.1 * x[0]);
    x[6] = sin(x[6]);
  }
  return energy(x);
}

/* shadow pointers moved in place: p[0..4] = p[1..5], then q[2..6] = q[1..5] */
double ptrs(double *x) {
  double *p[N], *q[N];
  for (int i = 0; i < N; i++)
    p[i] = q[i] = x + (i * 3) % N;
  memmove(p, p + 1, 5 * sizeof p[0]);
  memmove(q + 2, q + 1, 5 * sizeof q[0]);
  double s = 0;
  for (int i = 0; i < N; i++)
    s += (i + 1) * *p[i] * *q[i];
  return s;
}

typedef double (*kern)(double *);
static kern K;
static double obj(double *x, void *c) {
  (void)c;
  return K(x);
}

static void check(const char *what, kern k) {
  double x0[N], x[N], g[N] = {0}, fd[N];
  lt_data(x0, N, -0.8, 0.9, 4);
  memcpy(x, x0, sizeof x);
  if (k == down)
    __enzyme_autodiff((void *)down, enzyme_dup, x, g);
  else if (k == up)
    __enzyme_autodiff((void *)up, enzyme_dup, x, g);
  else if (k == shift)
    __enzyme_autodiff((void *)shift, enzyme_dup, x, g);
  else
    __enzyme_autodiff((void *)ptrs, enzyme_dup, x, g);
  K = k;
  lt_fd_grad(obj, x0, N, NULL, fd);
  printf("-- %s\n", what);
  lt_gradv(what, N, g, fd, NULL, 1e-6, 0);
}

int main(void) {
  check("down", down);
  check("up", up);
  check("shift", shift);
  check("ptrs", ptrs);
  return lt_done();
}
