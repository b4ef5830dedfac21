// The arena keeps its last chunk of 32 MiB or more for the next gradient
// (gen/arenakeep.c): glibc maps so large a block afresh on every malloc,
// and the kernel cleared every page of the tape again each gradient.
// Counted through the linker's --wrap of malloc, free and madvise:
// - after two gradients (the first makes the arena learn the tape's size:
//   at -O2 the unrolled time loop's eight caches are pushed one by one)
//   one block of 32 MiB or more is live, kept, its pages advised
//   MADV_FREE (8); the next gradients malloc no such block and free none;
// - with LEANTAPE_ARENA_KEEP=0 the kept chunk is freed, not used, and
//   every gradient mallocs and frees its own;
// - a limit below the chunk's size keeps nothing either;
// - a thread that computed a gradient frees its kept chunk when it exits
//   (a pthread key's destructor);
// each gradient against the analytic derivative.
// REQUIRES: linux-thp
// RUN: %ltclang -O0 %s -o %t.O0 -lm -pthread -Wl,--wrap=malloc,--wrap=free,--wrap=madvise && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -pthread -Wl,--wrap=malloc,--wrap=free,--wrap=madvise && %t.O2

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <pthread.h>
#include <stdint.h>
#include <stdlib.h>

#define BIG (32u << 20)

void *__real_malloc(size_t);
void __real_free(void *);
int __real_madvise(void *, size_t, int);
static long nbig, nfreebig, nlazy;
static void *bigs[64];
static long nlive; /* large blocks malloced and not freed: bigs[0 .. nlive) */
void *__wrap_malloc(size_t n) {
  void *p = __real_malloc(n);
  if (n >= BIG && p && nlive < 64) {
    bigs[nlive++] = p;
    nbig++;
  }
  return p;
}
void __wrap_free(void *p) {
  for (long k = 0; p && k < nlive; k++)
    if (bigs[k] == p) {
      bigs[k] = bigs[--nlive];
      nfreebig++;
      break;
    }
  __real_free(p);
}
int __wrap_madvise(void *p, size_t n, int advice) {
  nlazy += advice == 8;
  return __real_madvise(p, n, advice);
}

/* sum of x after x[i] <- x[i]^2 + sin x[i], T times: every old x[i] is
 * taped, 8 T n bytes */
#define T 8
double steps(double *x, int n) {
  for (int t = 0; t < T; t++)
    for (int i = 0; i < n; i++)
      x[i] = x[i] * x[i] * 0.5 + sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

enum { N = 6 << 20 >> 3 }; /* 8 T N bytes = 48 MiB of tape */
static double *x, *dx;

static int gradient(void) {
  for (int i = 0; i < N; i++)
    x[i] = 0.3 + 0.2 * sin(0.001 * i), dx[i] = 0;
  __enzyme_autodiff((void *)steps, enzyme_dup, x, dx, enzyme_const, N);
  /* d/dx0 of the T-fold map, for a few elements */
  int bad = 0;
  for (int i = 0; i < N; i += N / 7) {
    double v = 0.3 + 0.2 * sin(0.001 * i), d = 1;
    for (int t = 0; t < T; t++) {
      d *= v + cos(v);
      v = v * v * 0.5 + sin(v);
    }
    bad += fabs(dx[i] - d) > 1e-12 * fabs(d);
  }
  return bad;
}

static void *in_thread(void *arg) {
  (void)arg;
  int bad = gradient();
  return (void *)(intptr_t)(bad + gradient()); /* the second makes the large chunk */
}

int main(void) {
  x = malloc(N * sizeof *x);
  dx = malloc(N * sizeof *dx);
  int bad = gradient() + gradient();
  lt_check("after two gradients one large block is live", (double)nlive, 1, 0, 0);
  lt_check("its pages advised MADV_FREE", (double)(nlazy > 0), 1, 0, 0);
  long b0 = nbig, f0 = nfreebig;
  for (int k = 0; k < 3; k++)
    bad += gradient();
  lt_check("three more gradients malloc no large block", (double)(nbig - b0), 0, 0, 0);
  lt_check("nor free one", (double)(nfreebig - f0), 0, 0, 0);

  setenv("LEANTAPE_ARENA_KEEP", "0", 1);
  b0 = nbig, f0 = nfreebig;
  bad += gradient(); /* frees the kept chunk; mallocs and frees its own */
  bad += gradient();
  lt_check("LEANTAPE_ARENA_KEEP=0: two mallocs", (double)(nbig - b0), 2, 0, 0);
  lt_check("LEANTAPE_ARENA_KEEP=0: three frees", (double)(nfreebig - f0), 3, 0, 0);
  setenv("LEANTAPE_ARENA_KEEP", "16M", 1);
  b0 = nbig, f0 = nfreebig;
  bad += gradient();
  lt_check("a 16M limit: the chunk malloced", (double)(nbig - b0), 1, 0, 0);
  lt_check("a 16M limit: and freed", (double)(nfreebig - f0), 1, 0, 0);
  unsetenv("LEANTAPE_ARENA_KEEP");

  pthread_t th;
  void *r;
  f0 = nfreebig;
  pthread_create(&th, NULL, in_thread, NULL);
  pthread_join(th, &r);
  bad += (int)(intptr_t)r;
  lt_check("a thread's kept chunk is freed when it exits", (double)(nfreebig - f0), 1, 0, 0);
  lt_check("gradients against the analytic derivative", (double)bad, 0, 0, 0);
  free(x);
  free(dx);
  return lt_done();
}
