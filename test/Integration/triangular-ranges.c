// The run-time test that picks the gradient's version for pointers apart
// bounds each pointer's bytes over the whole run (analysis/range.c); in a
// triangular nest an index such as k - i - 1 with 0 <= i < k spans
// [0, n - 2], not the sum of the counters' intervals [-(n - 2), n - 1]
// (analysis/rangetri.c). Kernels over two plain pointers into one buffer,
// the second placed at every offset from well before the first to well
// past it (so that the exact hulls meet, are one element apart or
// overlap by one), each gradient against central differences:
//  - Levinson-Durbin (PolyBench's durbin: r[k - i - 1], y[k - i - 1]);
//  - a causal convolution updating its input in place (b[k - i], i <= k);
//  - lagged products over a loop that counts down (x[i - k], i >= k);
//  - a do-while whose range may be empty (it then runs once: the last
//    iteration's form does not hold there, and the test must keep the
//    intervals' bound).
// At -O2, Durbin's tape (malloc wrapped) with y just past r is smaller
// than with y overlapping r: the version for pointers apart ran, which
// does not tape r (before rangetri.c the loose hulls met and it did not).
// RUN: %ltclang -O0 %s -o %t.O0 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O3

#include "loopcheck.h"
#include <stdint.h>
#include <stdio.h>

#include "heapcount.h"

#define N 9
#define BASE (N + 3)
#define S (3 * N + 6)

static double weigh(const double *v, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    e += v[i] * (1 + 0.1 * i) + 0.05 * v[i] * v[i];
  return e;
}

double durbin(double *r, double *y, int n) {
  double z[N];
  y[0] = -r[0];
  double beta = 1, alpha = -r[0];
  for (int k = 1; k < n; k++) {
    beta = (1 - alpha * alpha) * beta;
    double sum = 0;
    for (int i = 0; i < k; i++)
      sum += r[k - i - 1] * y[i];
    alpha = -(r[k] + sum) / beta;
    for (int i = 0; i < k; i++)
      z[i] = y[i] + alpha * y[k - i - 1];
    for (int i = 0; i < k; i++)
      y[i] = z[i];
    y[k] = alpha;
  }
  return weigh(y, n) + weigh(r, n);
}

double conv(double *a, double *b, int n) {
  for (int k = 0; k < n; k++) {
    double s = 0;
    for (int i = 0; i <= k; i++)
      s += a[i] * b[k - i];
    a[k] = 0.5 * a[k] + 0.2 * s;
  }
  return weigh(a, n) + weigh(b, n);
}

double lag(double *x, double *y, int n) {
  for (int k = n - 1; k >= 1; k--)
    for (int i = k; i < n; i++)
      y[i - k] += 0.3 * x[i] * x[i - k];
  return weigh(x, n) + weigh(y, n);
}

double dowhile(double *x, double *y, int n, int m) {
  for (int i = 0; i < n; i++) {
    int j = i;
    do {
      y[m - 1 - (j - i)] += 0.25 * x[j] * x[j];
      j++;
    } while (j < m);
  }
  return weigh(x, n) + weigh(y, m);
}

struct ctx { int shape, d; };

static double run(int shape, double *z, int d) {
  double *x = z + BASE, *y = z + BASE + d;
  switch (shape) {
  case 0: return durbin(x, y, N);
  case 1: return conv(x, y, N);
  case 2: return lag(x, y, N);
  default: return dowhile(x, y, N, N / 2);
  }
}

static double fd_obj(double *v, void *p) {
  const struct ctx *cx = p;
  double z[S];
  memcpy(z, v, sizeof z);
  return run(cx->shape, z, cx->d);
}

/* the gradient over the buffer; the tape's peak bytes into *tape */
static void grad(int shape, const double *z0, int d, double *g, long long *tape) {
  double z[S];
  memcpy(z, z0, sizeof z);
  memset(g, 0, S * sizeof *g);
  double *x = z + BASE, *y = z + BASE + d, *dx = g + BASE, *dy = g + BASE + d;
  counting = 1;
  live = peak = 0;
  switch (shape) {
  case 0: __enzyme_autodiff((void *)durbin, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N); break;
  case 1: __enzyme_autodiff((void *)conv, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N); break;
  case 2: __enzyme_autodiff((void *)lag, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N); break;
  default:
    __enzyme_autodiff((void *)dowhile, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, N,
                      enzyme_const, N / 2);
  }
  counting = 0;
  *tape = peak;
}

int main(void) {
  long long tape_apart, tape_over;
  for (int shape = 0; shape <= 3; shape++)
    for (int d = -(N + 2); d <= N + 2; d++) {
      double z[S], fd[S], ad[S];
      struct ctx cx = {shape, d};
      /* Durbin divides by 1 - alpha^2: small reflection coefficients */
      lt_data(z, S, shape ? -1.1 : -0.12, shape ? 1.2 : 0.15, 7 * shape + d + 40);
      lt_fd_grad(fd_obj, z, S, &cx, fd);
      long long tape;
      grad(shape, z, d, ad, &tape);
      char what[48];
      snprintf(what, sizeof what, "shape %d offset %d", shape, d);
      lt_gradv(what, S, ad, fd, NULL, 1e-6, 1e-6);
    }
  /* the arena sizes a gradient's block from the last one's: the second
   * of two gradients at the same placement holds what it needs */
  double z[S], g[S];
  lt_data(z, S, -0.12, 0.15, 3);
  for (int k = 0; k < 2; k++)
    grad(0, z, N, g, &tape_apart);
  for (int k = 0; k < 2; k++)
    grad(0, z, 1, g, &tape_over);
#if defined(__OPTIMIZE__)
  printf("durbin tape: y just past r %lld bytes, overlapping %lld\n", tape_apart, tape_over);
  lt_check("durbin: the version for pointers apart runs with y just past r (tape smaller)",
           tape_apart < tape_over, 1, 0, 0);
#endif
  return lt_done();
}
