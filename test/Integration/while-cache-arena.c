// Caches of loops whose trip counts are known only as they run: an
// adaptive time step's `while (t < t_end)` and the counted loops inside it
// (gen/cachegrow.c). Under __enzyme_autodiff such a cache starts with as
// many records as the last gradient of the function asked for (and an
// eighth more), from the arena, and the loops inside reserve room once per
// run; past that room it moves to the heap. Each cache grew by realloc from
// nothing in every gradient before: new pages and copies every time.
// Checked here: gradients against central differences at -O0 and -O2 for
// runs of different lengths in turn (a longer run than the last moves to
// the heap, a shorter one fits), and that a gradient of the same length as
// the last calls neither malloc nor realloc (the arena keeps its chunk
// between gradients, arenakeep.c), through the linker's --wrap.
// RUN: %ltclang -O0 %s -o %t.O0 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O2

#include "loopcheck.h"
#include <stdio.h>
#include <stdlib.h>

static int counting;
static long nmalloc, nrealloc;
void *__real_malloc(size_t);
void *__real_realloc(void *, size_t);
void __real_free(void *);
void *__wrap_malloc(size_t n) {
  nmalloc += counting;
  return __real_malloc(n);
}
void *__wrap_realloc(void *p, size_t n) {
  nrealloc += counting;
  return __real_realloc(p, n);
}
void __wrap_free(void *p) { __real_free(p); }

#define N 48

/* y' = p sin(reversed y) - 0.3 y^3, an Euler step whose size follows an
 * error estimate; w: scratch of n */
double adapt(double *y, const double *p, double *w, int n, double t_end) {
  double t = 0, h = 0.02;
  const double tol = 1e-4;
  while (t < t_end) {
    if (h > t_end - t)
      h = t_end - t;
    for (int i = 0; i < n; i++)
      w[i] = p[i] * sin(y[n - 1 - i]) - 0.3 * y[i] * y[i] * y[i];
    double err = 0;
    for (int i = 0; i < n; i++) {
      double e = h * h * w[i] * y[i];
      err += e * e;
    }
    err = sqrt(err / n) + 1e-12;
    double ok = err <= tol ? 1.0 : 0.0;
    for (int i = 0; i < n; i++)
      y[i] += ok * h * w[i];
    t += ok * h;
    h = h * fmin(2.0, fmax(0.2, 0.9 * sqrt(tol / err)));
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += y[i] * y[i];
  return e;
}

typedef struct {
  double t_end;
  int which; /* 0: d/dy, 1: d/dp */
  const double *y0, *p0;
} ctx;

static double W[N];
static double obj(double *x, void *c) {
  ctx *k = c;
  double y[N], p[N];
  memcpy(y, k->which ? k->y0 : x, sizeof y);
  memcpy(p, k->which ? x : k->p0, sizeof p);
  return adapt(y, p, W, N, k->t_end);
}

static void grad(double t_end, const double *y0, const double *p0, double *dy, double *dp) {
  static double y[N], p[N], w[N], dw[N];
  memcpy(y, y0, sizeof y);
  memcpy(p, p0, sizeof p);
  memset(dy, 0, N * sizeof *dy);
  memset(dp, 0, N * sizeof *dp);
  memset(dw, 0, sizeof dw);
  __enzyme_autodiff((void *)adapt, enzyme_dup, y, dy, enzyme_dup, p, dp, enzyme_dup, w, dw,
                    enzyme_const, lt_vi(N), t_end);
}

int main(void) {
  static double y0[N], p0[N], dy[N], dp[N], fy[N], fp[N];
  lt_data(y0, N, 0.2, 0.9, 3);
  lt_data(p0, N, -1, 1, 4);
  /* lengths in turn: the first gradient, a longer one (moves to the heap),
   * a shorter one and the longer one again (fit) */
  const double ends[4] = {0.5, 2.0, 0.5, 2.0};
  for (int r = 0; r < 4; r++) {
    grad(lt_vd(ends[r]), y0, p0, dy, dp);
    ctx cy = {ends[r], 0, y0, p0}, cp = {ends[r], 1, y0, p0};
    lt_fd_grad(obj, y0, N, &cy, fy);
    lt_fd_grad(obj, p0, N, &cp, fp);
    printf("-- t_end = %g\n", ends[r]);
    lt_gradv("dy", N, dy, fy, NULL, 1e-5, 0);
    lt_gradv("dp", N, dp, fp, NULL, 1e-5, 0);
  }
  if (!LT_AD)
    return lt_done();
  /* the same length as the last: the cache is the arena's kept chunk */
  for (int r = 0; r < 3; r++) {
    nmalloc = nrealloc = 0;
    counting = 1;
    grad(lt_vd(2.0), y0, p0, dy, dp);
    counting = 0;
    printf("-- again: %ld mallocs, %ld reallocs\n", nmalloc, nrealloc);
    lt_check("a gradient as long as the last: no realloc", (double)nrealloc, 0, 0, 0);
    lt_check("a gradient as long as the last: no malloc", (double)nmalloc, 0, 0, 0);
  }
  return lt_done();
}
