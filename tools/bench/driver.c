/* driver.c: measures the kernels of kernels.c (not differentiated; compiled
 * without the plugin, linked with -Wl,--wrap=malloc,--wrap=calloc,
 * --wrap=realloc,--wrap=free).
 *
 *   bench                     all kernels: one markdown table row each
 *   bench --only NAME         one kernel (also an opt-in one)
 *   BENCH_EXTRA=1 bench       all kernels including the opt-in ones
 *   bench --rss NAME MODE K   run NAME's MODE (primal|grad) K times after
 *                             setup, print ru_maxrss in KB (used by the
 *                             default mode, in a fresh process each)
 *
 * Per kernel: gradient against central finite differences on a few
 * coordinates; heap allocation calls and peak live heap bytes during one
 * gradient (the counting wrappers below); the median over R repetitions of
 * the per-call time of a batch (~30 ms) of primals and of gradients,
 * interleaved; peak RSS of a process that only runs the gradient minus one
 * that only runs the primal. */
#define _GNU_SOURCE
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

/* ---- counting allocator (--wrap) --------------------------------------- */
void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void __real_free(void *);

#define HDR 16 /* keeps 16-byte alignment */
#define MAGIC 0x4C5442454E434821ULL

static struct {
  int on;
  long calls, reallocs, frees;
  long long requested, live, peak;
} mc;

static void note(long long delta) {
  if (!mc.on)
    return;
  mc.live += delta;
  if (mc.live > mc.peak)
    mc.peak = mc.live;
}
static void *tag(char *raw, size_t n) {
  if (!raw)
    return NULL;
  ((uint64_t *)raw)[0] = n;
  ((uint64_t *)raw)[1] = MAGIC;
  return raw + HDR;
}
/* a pointer not made by us (libc-internal) has no header: pass through */
static char *ours(void *p) {
  if (!p)
    return NULL;
  char *raw = (char *)p - HDR;
  return ((uint64_t *)raw)[1] == MAGIC ? raw : NULL;
}
void *__wrap_malloc(size_t n) {
  if (mc.on) {
    mc.calls++;
    mc.requested += n;
  }
  note(n);
  return tag(__real_malloc(n + HDR), n);
}
void *__wrap_calloc(size_t k, size_t n) {
  size_t b = k * n;
  if (mc.on) {
    mc.calls++;
    mc.requested += b;
  }
  note(b);
  return tag(__real_calloc(1, b + HDR), b);
}
void __wrap_free(void *p) {
  if (!p)
    return;
  char *raw = ours(p);
  if (!raw) {
    __real_free(p);
    return;
  }
  if (mc.on)
    mc.frees++;
  note(-(long long)((uint64_t *)raw)[0]);
  ((uint64_t *)raw)[1] = 0;
  __real_free(raw);
}
void *__wrap_realloc(void *p, size_t n) {
  if (!p)
    return __wrap_malloc(n);
  char *raw = ours(p);
  if (!raw)
    return __real_realloc(p, n);
  size_t old = ((uint64_t *)raw)[0];
  if (mc.on) {
    mc.calls++;
    mc.reallocs++;
    mc.requested += n > old ? n - old : 0;
  }
  note((long long)n - (long long)old);
  return tag(__real_realloc(raw, n + HDR), n);
}

/* ---- helpers ------------------------------------------------------------ */
static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}
static double median(double *v, int n) {
  qsort(v, n, sizeof *v, cmpd);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}
static const kernel_t *find(const char *name) {
  for (int i = 0; i < nkernels; i++)
    if (!strcmp(kernels[i].name, name))
      return &kernels[i];
  return NULL;
}

/* calls per batch so that a batch takes about `target` seconds */
static long calibrate(void (*f)(void), double target) {
  long it = 1;
  for (;;) {
    double t0 = now();
    for (long i = 0; i < it; i++)
      f();
    double dt = now() - t0;
    if (dt >= target / 4 || it >= (1L << 30)) {
      long b = (long)(it * target / (dt > 0 ? dt : 1e-9));
      return b < 1 ? 1 : b;
    }
    it *= 4;
  }
}
static double batch(void (*f)(void), long it) {
  double t0 = now();
  for (long i = 0; i < it; i++)
    f();
  return (now() - t0) / it;
}

/* central finite differences on up to 4 coordinates */
static int check_grad(const kernel_t *k, const double *g, double *worst) {
  int n = k->nparam;
  double *P = k->param();
  int idx[4] = {0, n / 3, (2 * n) / 3, n - 1}, nc = n < 4 ? n : 4;
  if (n < 4)
    for (int i = 0; i < n; i++)
      idx[i] = i;
  double fd[4], gmax = 0;
  for (int c = 0; c < nc; c++) {
    int i = idx[c];
    double x = P[i], h = 1e-6 * fmax(1.0, fabs(x));
    volatile double xp = x + h, xm = x - h;
    P[i] = xp;
    double fp = k->loss();
    P[i] = xm;
    double fm = k->loss();
    P[i] = x;
    fd[c] = (fp - fm) / (xp - xm);
    gmax = fmax(gmax, fmax(fabs(fd[c]), fabs(g[i])));
  }
  int ok = 1;
  *worst = 0;
  for (int c = 0; c < nc; c++) {
    double err = fabs(g[idx[c]] - fd[c]) / (1e-3 * gmax + fabs(fd[c]) + 1e-12);
    if (err > *worst)
      *worst = err;
    if (!(err <= 1e-4)) {
      ok = 0;
      fprintf(stderr, "  %s: d/dP[%d]: AD %.12g vs FD %.12g\n", k->name,
              idx[c], g[idx[c]], fd[c]);
    }
  }
  return ok;
}

/* fresh process: ru_maxrss (KB) after setup + K runs of primal or grad */
static long rss_child(const char *self, const char *name, const char *mode,
                      long K, double *per_call) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' --rss '%s' %s %ld", self, name, mode, K);
  FILE *p = popen(cmd, "r");
  long kb = -1;
  *per_call = NAN;
  if (!p || fscanf(p, "%ld %lf", &kb, per_call) != 2)
    kb = -1;
  if (p)
    pclose(p);
  return kb;
}

static int rss_mode(const char *name, const char *mode, long K) {
  const kernel_t *k = find(name);
  if (!k)
    return 2;
  k->setup();
  void (*f)(void) = !strcmp(mode, "grad") ? k->grad : k->primal;
  double t0 = now();
  for (long i = 0; i < K; i++)
    f();
  double dt = (now() - t0) / K;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("%ld %.9g\n", ru.ru_maxrss, dt);
  return 0;
}

static int run(const kernel_t *k, const char *self, int reps_default) {
  k->setup();
  /* one gradient from zeroed shadows: counted, timed, checked by FD */
  double *g = malloc(k->nparam * sizeof *g);
  memset(&mc, 0, sizeof mc);
  mc.on = 1;
  double t0 = now();
  k->grad_fresh(g);
  double tone = now() - t0;
  mc.on = 0;
  long calls = mc.calls, reallocs = mc.reallocs, frees = mc.frees;
  long long peak = mc.peak, leaked = mc.live;
  double worst;
  int ok = check_grad(k, g, &worst);
  free(g);
  k->setup();

  /* timing. Normal: R interleaved batches of ~30 ms of primals and of
   * gradients. A gradient slower than 1 s (normalize with an O(n^2) tape)
   * gets 3 primal runs and two gradient samples: the run above and the
   * one in the RSS process below, to stay within the time budget. */
  int slow = tone > 1.0;
  double tp[64], tg[64], rr[64];
  int reps = slow ? 3 : reps_default, greps = reps;
  if (!slow) {
    long bp = calibrate(k->primal, 0.03), bg = calibrate(k->grad, 0.03);
    for (int r = 0; r < reps; r++) {
      tp[r] = batch(k->primal, bp);
      tg[r] = batch(k->grad, bg);
      rr[r] = tg[r] / tp[r];
    }
  } else {
    for (int r = 0; r < reps; r++)
      tp[r] = batch(k->primal, 1);
  }

  /* peak RSS: a process that only runs the gradient K times minus one that
   * only runs the primal K times (~0.2 s of gradients, at least one) */
  long K = (long)(0.2 / fmax(tone, 1e-9));
  K = K < 1 ? 1 : K > 100000 ? 100000 : K;
  double cg, cp;
  long rg = rss_child(self, k->name, "grad", K, &cg);
  long rp = rss_child(self, k->name, "primal", K, &cp);
  double mb_g = rg / 1024.0, mb_d = (rg - rp) / 1024.0;
  if (slow) {
    tg[0] = tone;
    tg[1] = isnan(cg) ? tone : cg;
    greps = 2;
  }
  double mp = median(tp, reps), mg = median(tg, greps);
  double ratio = mg / mp;
  double rlo = ratio, rhi = ratio;
  for (int r = 0; r < (slow ? 2 : reps); r++) {
    double q = slow ? tg[r] / mp : rr[r];
    rlo = fmin(rlo, q);
    rhi = fmax(rhi, q);
  }

  char tgt[128] = "";
  int miss = 0;
  if (ratio > 4.0) {
    strcat(tgt, "ratio>4 ");
    miss = 1;
  }
  if ((k->target == TGT_NOTAPE || k->target == TGT_NORMALIZE) && ratio > 2.0) {
    strcat(tgt, "ratio>2 ");
    miss = 1;
  }
  if (k->target == TGT_NOTAPE && peak > 0) {
    strcat(tgt, "tape>0 ");
    miss = 1;
  }
  if (k->target == TGT_NORMALIZE && mb_g > 64) {
    strcat(tgt, "RSS>64MB ");
    miss = 1;
  }
  if (leaked) {
    strcat(tgt, "LEAK ");
    miss = 1;
  }
  printf("| %s | %s | %.2f (%.2f-%.2f)%s | %.3g | %lld | %ld (%ld realloc) / %ld | %.1f (%.1f) | "
         "%s |\n",
         k->name, ok ? "ok" : "**WRONG**", ratio, rlo, rhi,
         slow ? " [2 grad runs]" : "", mp * 1e6, peak, calls, reallocs, frees, mb_d, mb_g, miss ? tgt : "met");
  fflush(stdout);
  if (leaked)
    fprintf(stderr, "  %s: %lld bytes still live after one gradient\n",
            k->name, leaked);
  (void)worst;
  return ok;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "--rss"))
    return rss_mode(argv[2], argv[3], atol(argv[4]));
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0)
    return 2;
  self[len] = 0;
  int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 15;
  if (reps < 1 || reps > 64)
    reps = 15;
  const char *only = argc == 3 && !strcmp(argv[1], "--only") ? argv[2] : NULL;
  printf("| kernel | grad ok | grad/primal median (min-max) | primal us | "
         "tape bytes | allocs (of which realloc) / frees per grad | peak RSS MB: grad-primal "
         "(grad) | issue-4 targets |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  fflush(stdout);
  int bad = 0;
  for (int i = 0; i < nkernels; i++) {
    if (only ? strcmp(only, kernels[i].name) != 0
             : kernels[i].extra && !getenv("BENCH_EXTRA"))
      continue;
    bad += !run(&kernels[i], self, reps);
  }
  return bad ? 1 : 0;
}
