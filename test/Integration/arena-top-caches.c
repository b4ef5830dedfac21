// The caches of a gradient's own loop nests (trip counts known at entry)
// come from the last-in first-out arena (arena.c), as callees' tapes do:
// from the third gradient on, one chunk of exactly what the last one held
// holds every cache and the undo log, one malloc and one free per
// gradient, so malloc keeps serving the same memory. (An undo log that
// grows, in the first gradient, by realloc, is sized from the second on by
// what the last one needed, and comes from the arena: the second gradient
// takes one chunk more for it, the arena's size hint, from the first, not
// knowing the log.) Separate blocks whose sum came near glibc's
// trim threshold were given back and faulted in again every gradient (an
// in-place LU of 128 took twice the time). The first gradient, whose
// chunks grow, holds little more than it needs: a cache larger than the
// chunk step gets a chunk of its own size, not twice the last chunk's,
// and a gradient's first chunk is sized by its own last gradient, not by
// whichever gradient ran last.
// Counted through the linker's --wrap of malloc and free, with
// LEANTAPE_ARENA_KEEP=0 (a chunk kept between gradients, arenakeep.c,
// would serve the next without a malloc: arena-reuse.c and arena-keep.c
// test that); the gradient of an in-place LU and Cholesky against central
// differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O2

#include "loopcheck.h"
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static int counting;
static long long live, peak, bytes;
static long nmalloc, nfree;
void *__real_malloc(size_t);
void *__real_realloc(void *, size_t);
void __real_free(void *);
#define HDR 16
void *__wrap_malloc(size_t n) {
  char *p = __real_malloc(n + HDR);
  if (!p)
    return NULL;
  ((uint64_t *)p)[0] = counting ? n : 0;
  if (counting) {
    nmalloc++;
    bytes += (long long)n;
    if ((live += (long long)n) > peak)
      peak = live;
  }
  return p + HDR;
}
void __wrap_free(void *q) {
  if (!q)
    return;
  char *p = (char *)q - HDR;
  uint64_t n = ((uint64_t *)p)[0];
  if (n) {
    live -= (long long)n;
    nfree++;
  }
  __real_free(p);
}
/* caches that grow (at -O0, loops whose trip counts are not known at
 * entry): counted, not part of the arena */
void *__wrap_realloc(void *q, size_t n) {
  if (!q)
    return __wrap_malloc(n);
  char *p = (char *)q - HDR;
  long long old = (long long)((uint64_t *)p)[0];
  char *r = __real_realloc(p, n + HDR);
  if (!r)
    return NULL;
  long long now = old || counting ? (long long)n : 0;
  live += now - old;
  ((uint64_t *)r)[0] = (uint64_t)now;
  if (live > peak)
    peak = live;
  return r + HDR;
}

/* Doolittle, no pivoting, in place */
double lu(double *A, const double *w, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i * n + j] -= A[i * n + k] * A[k * n + j];
      A[i * n + j] /= A[j * n + j];
    }
    for (int j = i; j < n; j++)
      for (int k = 0; k < i; k++)
        A[i * n + j] -= A[i * n + k] * A[k * n + j];
  }
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += w[i] * sin(A[i]);
  return s;
}

double chol(double *A, const double *w, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i * n + j] -= A[i * n + k] * A[j * n + k];
      A[i * n + j] /= A[j * n + j];
    }
    for (int k = 0; k < i; k++)
      A[i * n + i] -= A[i * n + k] * A[i * n + k];
    A[i * n + i] = sqrt(A[i * n + i]);
  }
  double s = 0;
  for (int i = 0; i < n; i++)
    for (int j = 0; j <= i; j++)
      s += w[i * n + j] * A[i * n + j] * A[i * n + j];
  return s;
}

#define NMAX 192
static double W[NMAX * NMAX];
typedef struct {
  int k, n;
} kctx;
static double obj(double *x, void *c) {
  kctx *t = c;
  return t->k ? chol(x, W, t->n) : lu(x, W, t->n);
}
static void data(double *x, int n) {
  lt_data(x, n * n, -0.5, 0.5, 5);
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++)
      x[i * n + j] = x[j * n + i];
    x[i * n + i] += n;
  }
}
/* the same, as gradients of their own (each keeps its own size hint) */
double lu2(double *A, const double *w, int n) { return lu(A, w, n); }
double chol2(double *A, const double *w, int n) { return chol(A, w, n); }
static void grad2(int k, double *x, double *g, int n) {
  memset(g, 0, (size_t)n * n * sizeof *g);
  if (k)
    __enzyme_autodiff((void *)chol2, enzyme_dup, x, g, enzyme_const, W, enzyme_const, n);
  else
    __enzyme_autodiff((void *)lu2, enzyme_dup, x, g, enzyme_const, W, enzyme_const, n);
}
static void grad(int k, double *x, double *g, int n) {
  memset(g, 0, (size_t)n * n * sizeof *g);
  if (k)
    __enzyme_autodiff((void *)chol, enzyme_dup, x, g, enzyme_const, W, enzyme_const, n);
  else
    __enzyme_autodiff((void *)lu, enzyme_dup, x, g, enzyme_const, W, enzyme_const, n);
}

int main(void) {
  setenv("LEANTAPE_ARENA_KEEP", "0", 1);
  static double x0[NMAX * NMAX], x[NMAX * NMAX], g[NMAX * NMAX], fd[NMAX * NMAX];
  static const char *names[2] = {"lu", "cholesky"};
  lt_data(W, NMAX * NMAX, -1, 1, 1);
  for (int k = 0; k < 2; k++) {
    int n = lt_vi(6);
    kctx c = {k, n};
    data(x0, n);
    memcpy(x, x0, (size_t)n * n * sizeof *x);
    grad(k, x, g, n);
    lt_fd_grad(obj, x0, n * n, &c, fd);
    printf("-- %s n = %d\n", names[k], n);
    lt_gradv(names[k], n * n, g, fd, NULL, 1e-6, 0);
  }
  if (!LT_AD)
    return lt_done();
  for (int k = 0; k < 2; k++) {
    int n = lt_vi(NMAX);
    long m[4], fr[4];
    long long pk[4], by[4];
    for (int r = 0; r < 4; r++) {
      data(x, n);
      live = peak = bytes = 0;
      nmalloc = nfree = 0;
      counting = 1;
      grad(k, x, g, n);
      counting = 0;
      m[r] = nmalloc, fr[r] = nfree, pk[r] = peak, by[r] = bytes;
      printf("-- %s n = %d, gradient %d: %ld mallocs, %ld frees, peak %lld bytes, "
             "%lld allocated\n", names[k], n, r + 1, m[r], fr[r], pk[r], by[r]);
    }
    /* the caches are megabytes: a first gradient that allocated twice the
     * last chunk for them would be far past this, and so would Cholesky's
     * first gradient if it took the chunk LU's last one held (each
     * gradient keeps its own size hint) */
    lt_check("first gradient: little more than the caches",
             pk[0] <= pk[3] + pk[3] / 4 + 65536, 1, 0, 0);
    lt_check("first gradient: everything freed", m[0] - fr[0], 0, 0, 0);
    /* The accumulators of the k loops, A[i][j] under A[i][k] and A[k][j],
     * are logged once per run of their loop (gen/undoblock.c), and the
     * entries of the triangular nests are reserved before each run of the
     * nest (gen/undo.c): in the first gradient the log grows by realloc
     * (at -O0 the caches too: their trip counts are not known at entry).
     * The second sizes the log by the first's and takes it from the arena,
     * one chunk more than the arena's hint; from the third on, one chunk
     * holds everything, at -O0 and -O2. */
    lt_check("second gradient: one chunk more at most", m[1] <= 2, 1, 0, 0);
    for (int r = 2; r < 4; r++) {
      lt_check("later gradients: one malloc", m[r], 1, 0, 0);
      lt_check("later gradients: one free", fr[r], 1, 0, 0);
      lt_check("later gradients: the same bytes", (double)by[r], (double)by[2], 0, 0);
    }
    lt_check("the caches hold megabytes", pk[3] > (1 << 20), 1, 0, 0);
  }
#ifdef __OPTIMIZE__
  /* caches of kilobytes (7 KB for LU and Cholesky at n = 12): the second
   * gradient holds one chunk of what the first needed (a minimum chunk of
   * 64 KB held six to ten times that, every gradient; the first gradient
   * takes a first chunk of 64 KB, which holds them all). */
  for (int k = 0; k < 2; k++) {
    int n = lt_vi(12);
    long m[2];
    long long pk[2];
    for (int r = 0; r < 2; r++) {
      data(x, n);
      live = peak = 0;
      nmalloc = 0;
      counting = 1;
      grad2(k, x, g, n);
      counting = 0;
      m[r] = nmalloc, pk[r] = peak;
      printf("-- %s n = %d, gradient %d: %ld mallocs, peak %lld bytes\n", names[k], n, r + 1,
             m[r], pk[r]);
    }
    /* (and the undo log's block, as above) */
    lt_check("small caches, first gradient: one chunk (and the log's)", m[0] <= 2, 1, 0, 0);
    lt_check("small caches, second gradient: one chunk of their size", pk[1] < 16384, 1, 0, 0);
  }
#endif
  return lt_done();
}
