/* driver.c: measures the kernels of kernels.c and adbench.c (not
 * differentiated; compiled
 * without the plugin, linked with -Wl,--wrap=malloc,--wrap=calloc,
 * --wrap=realloc,--wrap=free).
 *
 *   bench                     all kernels: one markdown table row each
 *   bench --only NAME[,NAME]  those kernels (also opt-in ones)
 *   bench --list              name, tag, source, hidden (for run.sh)
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
 * that only runs the primal. Kernels with a hand-written gradient (ADBench)
 * are checked against it and against higher-order finite differences, and
 * it is timed in the same rounds. After the kernel table: the restrict /
 * plain twin table (pairs timed together) and the ADBench table. Compile
 * times come from run.sh (BENCH_CTIME). */
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
/* kernels.c's table, then adbench.c's (weak: absent in the call-graph
 * benches) */
static int nall(void) { return nkernels + (&nadbench ? nadbench : 0); }
static const kernel_t *kat(int i) {
  return i < nkernels ? &kernels[i] : &adbench_kernels[i - nkernels];
}
static const kernel_t *find(const char *name) {
  for (int i = 0; i < nall(); i++)
    if (!strcmp(kat(i)->name, name))
      return kat(i);
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

/* The ADBench objectives (kernels with a hand-written gradient): sixth-
 * order central differences (7-point stencil), step 4e-3 max(1, |p|) (the
 * loss's rounding error dominates at smaller steps), on the kernel's listed
 * coordinates, against both gradients (error relative to |fd| + 1e-3 max|g|
 * over the listed coordinates, tolerance 1e-6), and the two gradients
 * against each other on every coordinate (relative to |g_hand| + 1e-6
 * max|g_hand|, tolerance 1e-6). */
#define HAND_TOL 1e-6
#ifndef FD_H
#define FD_H 4e-3
#endif
static int check_hand(const kernel_t *k, const double *g, const double *gh,
                      double *efd, double *efdh, double *evs) {
  int n = k->nparam;
  double *P = k->param();
  double fd[64], gmax = 0;
  int nc = k->nfd < 64 ? k->nfd : 64;
  for (int c = 0; c < nc; c++) {
    int i = k->fdidx[c];
    double x = P[i], h = FD_H * fmax(1.0, fabs(x)), f[6];
    const double off[6] = {-3, -2, -1, 1, 2, 3};
    for (int m = 0; m < 6; m++) {
      P[i] = x + off[m] * h;
      f[m] = k->loss();
    }
    P[i] = x;
    fd[c] = (-f[0] + 9 * f[1] - 45 * f[2] + 45 * f[3] - 9 * f[4] + f[5]) / (60 * h);
    gmax = fmax(gmax, fmax(fabs(fd[c]), fmax(fabs(g[i]), fabs(gh[i]))));
  }
  int ok = 1;
  *efd = *efdh = *evs = 0;
  for (int c = 0; c < nc; c++) {
    int i = k->fdidx[c];
    double den = 1e-3 * gmax + fabs(fd[c]) + 1e-300;
    double e = fabs(g[i] - fd[c]) / den, eh = fabs(gh[i] - fd[c]) / den;
    *efd = fmax(*efd, e);
    *efdh = fmax(*efdh, eh);
    if (!(e <= HAND_TOL) || !(eh <= HAND_TOL)) {
      ok = 0;
      fprintf(stderr, "  %s: d/dP[%d]: Leantape %.15g hand %.15g FD %.15g\n",
              k->name, i, g[i], gh[i], fd[c]);
    }
  }
  double hmax = 0;
  for (int i = 0; i < n; i++)
    hmax = fmax(hmax, fabs(gh[i]));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double e = fabs(g[i] - gh[i]) / (fabs(gh[i]) + 1e-6 * hmax + 1e-300);
    *evs = fmax(*evs, e);
    if (!(e <= HAND_TOL)) {
      ok = 0;
      if (bad++ < 5)
        fprintf(stderr, "  %s: d/dP[%d]: Leantape %.15g vs hand %.15g\n",
                k->name, i, g[i], gh[i]);
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

/* per-kernel results, for the twin and ADBench tables */
typedef struct {
  int ran, ok, slow;
  double ratio, rlo, rhi, mp, mg, mb_d, mb_g, tone;
  long long peak;
  long calls, reallocs, frees;
  double mh, efd, efdh, evs; /* hand-written gradient: time, check errors */
  const char *tgt;
} result_t;
#define MAXK 256
static result_t res[MAXK];
static char tgts[MAXK][128];

/* compile times from run.sh (BENCH_CTIME: lines "name s_O2 s_plugin") */
static char ctimes[MAXK][3][64];
static int nct;
static void load_ctimes(void) {
  const char *f = getenv("BENCH_CTIME");
  FILE *fp = f ? fopen(f, "r") : NULL;
  if (!fp)
    return;
  while (nct < MAXK && fscanf(fp, "%63s %63s %63s", ctimes[nct][0],
                              ctimes[nct][1], ctimes[nct][2]) == 3)
    nct++;
  fclose(fp);
}
static const char *ctime_of(const char *name, char *buf, size_t n) {
  for (int i = 0; i < nct; i++)
    if (!strcmp(ctimes[i][0], name)) {
      snprintf(buf, n, "%s / %s", ctimes[i][1], ctimes[i][2]);
      return buf;
    }
  return "-";
}

static int run(const kernel_t *k, const char *self, int reps_default,
               result_t *out) {
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
  int ok;
  if (k->hand) {
    double *gh = malloc(k->nparam * sizeof *gh);
    k->hand_fresh(gh);
    ok = check_hand(k, g, gh, &out->efd, &out->efdh, &out->evs);
    free(gh);
  } else
    ok = check_grad(k, g, &worst);
  free(g);
  k->setup();

  /* timing. Normal: R interleaved batches of ~30 ms of primals and of
   * gradients (and of hand-written gradients). A gradient slower than 1 s
   * (normalize with an O(n^2) tape) gets 3 primal runs and two gradient
   * samples: the run above and the one in the RSS process below, to stay
   * within the time budget. */
  int slow = tone > 1.0;
  double tp[64], tg[64], th[64], rr[64];
  int reps = slow ? 3 : reps_default, greps = reps;
  if (!slow) {
    long bp = calibrate(k->primal, 0.03), bg = calibrate(k->grad, 0.03);
    long bh = k->hand ? calibrate(k->hand, 0.03) : 0;
    for (int r = 0; r < reps; r++) {
      tp[r] = batch(k->primal, bp);
      tg[r] = batch(k->grad, bg);
      if (k->hand)
        th[r] = batch(k->hand, bh);
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
  double mh = k->hand && !slow ? median(th, reps) : NAN;
  double ratio = mg / mp;
  double rlo = ratio, rhi = ratio;
  for (int r = 0; r < (slow ? 2 : reps); r++) {
    double q = slow ? tg[r] / mp : rr[r];
    rlo = fmin(rlo, q);
    rhi = fmax(rhi, q);
  }

  char *tgt = tgts[out - res];
  tgt[0] = 0;
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
  if (!miss)
    strcpy(tgt, "met");
  char cbuf[80];
  printf("| %s | %s | %.2f (%.2f-%.2f)%s | %.3g | %lld | %ld (%ld realloc) / %ld | %.1f (%.1f) | "
         "%s | %s |\n",
         k->name, ok ? "ok" : k->hand ? "**FAIL**" : "**WRONG**", ratio, rlo, rhi,
         slow ? " [2 grad runs]" : "", mp * 1e6, peak, calls, reallocs, frees, mb_d, mb_g, tgt,
         ctime_of(k->name, cbuf, sizeof cbuf));
  fflush(stdout);
  if (leaked)
    fprintf(stderr, "  %s: %lld bytes still live after one gradient\n",
            k->name, leaked);
  (void)worst;
  *out = (result_t){1, ok, slow, ratio, rlo, rhi, mp, mg, mb_d, mb_g, tone,
                    peak, calls, reallocs, frees, mh, out->efd, out->efdh,
                    out->evs, tgt};
  return ok;
}

/* a restrict kernel and its plain twin, timed together: R interleaved
 * rounds of [primal_r, grad_r, primal_p, grad_p] batches; q = per-round
 * (grad_p / primal_p) / (grad_r / primal_r) */
static void pair_time(const kernel_t *r, const kernel_t *p, int reps,
                      double *gr, double *gp, double *q, double *qlo,
                      double *qhi) {
  r->setup();
  p->setup();
  long b[4] = {calibrate(r->primal, 0.03), calibrate(r->grad, 0.03),
               calibrate(p->primal, 0.03), calibrate(p->grad, 0.03)};
  void (*f[4])(void) = {r->primal, r->grad, p->primal, p->grad};
  double t[4][64], rr[64], rp[64], qq[64];
  for (int i = 0; i < reps; i++) {
    for (int j = 0; j < 4; j++)
      t[j][i] = batch(f[j], b[j]);
    rr[i] = t[1][i] / t[0][i];
    rp[i] = t[3][i] / t[2][i];
    qq[i] = rp[i] / rr[i];
  }
  *qlo = *qhi = qq[0];
  for (int i = 0; i < reps; i++) {
    *qlo = fmin(*qlo, qq[i]);
    *qhi = fmax(*qhi, qq[i]);
  }
  *gr = median(rr, reps);
  *gp = median(rp, reps);
  *q = median(qq, reps);
}

/* is name one of the comma-separated names in list? */
static int listed(const char *list, const char *name) {
  size_t n = strlen(name);
  for (const char *p = list; *p;) {
    const char *e = strchr(p, ',');
    size_t len = e ? (size_t)(e - p) : strlen(p);
    if (len == n && !strncmp(p, name, n))
      return 1;
    if (!e)
      break;
    p = e + 1;
  }
  return 0;
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "--rss"))
    return rss_mode(argv[2], argv[3], atol(argv[4]));
  if (argc == 2 && !strcmp(argv[1], "--list")) { /* name tag source */
    for (int i = 0; i < nall(); i++)
      printf("%s %s %s %d\n", kat(i)->name, kat(i)->tag ? kat(i)->tag : "-",
             kat(i)->src ? kat(i)->src : "-",
             kat(i)->extra && !getenv("BENCH_EXTRA"));
    return 0;
  }
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0)
    return 2;
  self[len] = 0;
  load_ctimes();
  int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 15;
  if (reps < 1 || reps > 64)
    reps = 15;
  const char *only = argc == 3 && !strcmp(argv[1], "--only") ? argv[2] : NULL;
  printf("| kernel | grad ok | grad/primal median (min-max) | primal us | "
         "tape bytes | allocs (of which realloc) / frees per grad | peak RSS MB: grad-primal "
         "(grad) | issue-4 targets | compile s: -O2 / + plugin |\n");
  printf("|---|---|---|---|---|---|---|---|---|\n");
  fflush(stdout);
  int bad = 0, n = nall() < MAXK ? nall() : MAXK;
  for (int i = 0; i < n; i++) {
    const kernel_t *k = kat(i);
    if (only ? !listed(only, k->name) : k->extra && !getenv("BENCH_EXTRA"))
      continue;
    bad += !run(k, self, reps, &res[i]);
  }

  /* restrict / plain twins */
  int header = 0;
  for (int i = 0; i < n; i++) {
    const kernel_t *p = kat(i);
    int ri = -1;
    for (int j = 0; p->twin && j < n; j++)
      if (!strcmp(kat(j)->name, p->twin))
        ri = j;
    if (ri < 0 || !res[i].ran || !res[ri].ran)
      continue;
    const kernel_t *r = kat(ri);
    const result_t *a = &res[ri], *b = &res[i];
    if (!header) {
      printf("\nRestrict vs plain twins (arrays disjoint). grad/primal of "
             "each timed together, R rounds of interleaved batches [primal, "
             "grad] restrict then plain; plain/restrict = median of the "
             "per-round (grad/primal plain) / (grad/primal restrict); target: "
             "same tape bytes and allocations, plain/restrict within 10%%:\n\n");
      printf("| plain kernel | restrict twin | tape bytes: restrict / plain | "
             "allocs / frees: restrict / plain | grad/primal: restrict / plain | "
             "plain/restrict median (min-max) | primal us: restrict / plain | "
             "peak RSS MB (grad): restrict / plain | twin target |\n");
      printf("|---|---|---|---|---|---|---|---|---|\n");
      header = 1;
    }
    double gr, gp, q, qlo, qhi;
    int paired = !a->slow && !b->slow;
    if (paired)
      pair_time(r, p, reps, &gr, &gp, &q, &qlo, &qhi);
    else
      gr = a->ratio, gp = b->ratio, q = qlo = qhi = gp / gr;
    char tgt[128] = "";
    if (a->peak != b->peak)
      strcat(tgt, "tape differs ");
    if (a->calls != b->calls || a->frees != b->frees)
      strcat(tgt, "allocs differ ");
    if (!(fabs(q - 1) <= 0.10))
      strcat(tgt, "ratio off by >10% ");
    printf("| %s | %s | %lld / %lld | %ld / %ld, %ld / %ld | %.2f / %.2f%s | "
           "%.3f (%.3f-%.3f) | %.3g / %.3g | %.1f / %.1f | %s |\n",
           p->name, r->name, a->peak, b->peak, a->calls, a->frees, b->calls,
           b->frees, gr, gp, paired ? "" : " (main rows)", q, qlo, qhi,
           a->mp * 1e6, b->mp * 1e6, a->mb_g, b->mb_g, tgt[0] ? tgt : "met");
    fflush(stdout);
  }

  /* ADBench: Leantape vs hand-written */
  header = 0;
  for (int i = 0; i < n; i++) {
    const kernel_t *k = kat(i);
    const result_t *r = &res[i];
    if (!k->hand || !r->ran)
      continue;
    if (!header) {
      printf("\nADBench objectives: Leantape (__enzyme_autodiff, combined mode) "
             "vs a hand-written reverse-mode gradient (same interleaved "
             "batches as the table above). grad ok: both gradients against "
             "6th-order central differences (step 4e-3) on the listed coordinates and "
             "against each other on all (relative error <= %.0e):\n\n",
             HAND_TOL);
      printf("| objective | params | grad ok | FD rel err: Leantape / hand | "
             "Leantape vs hand rel diff | primal us | Leantape grad/primal | "
             "hand grad/primal | Leantape / hand | tape bytes | allocs / frees "
             "per grad | peak RSS MB: grad-primal | compile s: -O2 / + plugin |\n");
      printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
      header = 1;
    }
    char cbuf[80];
    printf("| %s | %d | %s | %.1e / %.1e | %.1e | %.3g | %.2f | %.2f | %.2f | "
           "%lld | %ld / %ld | %.1f | %s |\n",
           k->name, k->nparam, r->ok ? "ok" : "**FAIL**", r->efd, r->efdh,
           r->evs, r->mp * 1e6, r->ratio, r->mh / r->mp, r->mg / r->mh,
           r->peak, r->calls, r->frees, r->mb_d,
           ctime_of(k->name, cbuf, sizeof cbuf));
    fflush(stdout);
  }
  return bad ? 1 : 0;
}
