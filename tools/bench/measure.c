/* measure.c: the benchmark's clock, batches, interleaved rounds and load
 * samples (measure.h). Compiled without the plugin; linked into the
 * driver, the call-graph benches and fwdbench. */
#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* the thread's CPU time: on a shared machine the time slices other
 * processes take do not count (what they do to the caches still does) */
double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

double median(double *v, int n) {
  qsort(v, n, sizeof *v, cmpd);
  return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

static int env_int(const char *name, int dflt, int max) {
  const char *s = getenv(name);
  int v = s ? atoi(s) : dflt;
  return v < 1 || v > max ? dflt : v;
}
int bench_groups(void) { return env_int("BENCH_GROUPS", 16, MAXG); }
int bench_reps(void) { return env_int("BENCH_REPS", 5, MAXR); }
int bench_passes(void) { return env_int("BENCH_PASSES", 1, MAXG); }
int bench_pass(void) {
  int p = env_int("BENCH_PASS", 1, MAXG);
  return p > bench_passes() ? bench_passes() : p;
}
int last_pass(void) { return bench_pass() == bench_passes(); }
int bench_groups_all(void) {
  int n = bench_groups() * bench_passes();
  return n > MAXG ? MAXG : n;
}

long calibrate(void (*f)(void), double target) {
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

double batch(void (*f)(void), long it) {
  double t0 = now();
  for (long i = 0; i < it; i++)
    f();
  return (now() - t0) / it;
}

static double lsamples[4096];
static int nls;

double load_sample(void) {
  double l = -1;
  FILE *fp = fopen("/proc/loadavg", "r");
  if (fp) {
    if (fscanf(fp, "%lf", &l) != 1)
      l = -1;
    fclose(fp);
  }
  if (l >= 0 && nls < 4096)
    lsamples[nls++] = l;
  const char *raw = getenv("BENCH_RAW");
  FILE *fr = l >= 0 && raw ? fopen(raw, "a") : NULL;
  if (fr) {
    fprintf(fr, "L %.2f\n", l);
    fclose(fr);
  }
  return l;
}

/* the next record of a BENCH_RAW file: its kind ('L' or 'R'), or 0 at the
 * end */
static int raw_record(FILE *fp, char *label, size_t n, int *nf, int *reps) {
  char kind[4];
  if (fscanf(fp, "%3s", kind) != 1)
    return 0;
  if (kind[0] == 'L')
    return 'L';
  char fmt[32];
  snprintf(fmt, sizeof fmt, "%%%zus %%d %%d", n - 1);
  return fscanf(fp, fmt, label, nf, reps) == 3 ? 'R' : 0;
}

void load_range(double *lo, double *hi, int *n) {
  const char *raw = getenv("BENCH_RAW");
  FILE *fp = raw ? fopen(raw, "r") : NULL;
  if (fp) { /* every pass's samples, this one's among them */
    nls = 0;
    char label[256];
    int nf, reps, k;
    double v;
    while ((k = raw_record(fp, label, sizeof label, &nf, &reps)))
      if (k == 'L' && fscanf(fp, "%lf", &v) == 1 && nls < 4096)
        lsamples[nls++] = v;
      else if (k == 'R')
        for (int i = 0; i < nf * reps && fscanf(fp, "%lf", &v) == 1; i++)
          ;
    fclose(fp);
  }
  *lo = *hi = nls ? lsamples[0] : -1;
  for (int i = 0; i < nls; i++) {
    *lo = lsamples[i] < *lo ? lsamples[i] : *lo;
    *hi = lsamples[i] > *hi ? lsamples[i] : *hi;
  }
  *n = nls;
}

/* Passes. Within one run the noise is not only seconds long: in two quiet
 * runs of the same plugin the first kernels of one run never reached the
 * fast state that the other run and six processes of `--only` reached
 * (kron_sum 0.57 against 0.83, sum_1000 0.14 against 0.20), as if a
 * neighbour had been busy for the minutes those kernels took. One window
 * per kernel is one draw from the machine's states; run.sh now measures
 * every kernel in BENCH_PASSES short windows spread over the whole run,
 * each a separate process (so also at a fresh address-space layout), and
 * the last pass computes every figure over the groups of all of them. */
void rounds_keep(const char *label, rounds_t *r) {
  const char *raw = getenv("BENCH_RAW");
  if (!raw)
    return;
  int own = r->groups;
  FILE *fp = fopen(raw, "r");
  if (fp) {
    char l[256];
    int nf, reps, k;
    double v;
    while ((k = raw_record(fp, l, sizeof l, &nf, &reps))) {
      if (k == 'L') {
        if (fscanf(fp, "%lf", &v) != 1)
          break;
        continue;
      }
      int take = !strcmp(l, label) && nf == r->nf && reps == r->reps && r->groups < MAXG;
      for (int i = 0; i < nf * reps; i++) {
        if (fscanf(fp, "%lf", &v) != 1)
          break;
        if (take)
          r->t[r->groups][i / nf][i % nf] = v;
      }
      r->groups += take;
    }
    fclose(fp);
  }
  if (last_pass() || !(fp = fopen(raw, "a")))
    return;
  for (int g = 0; g < own; g++) {
    fprintf(fp, "R %s %d %d", label, r->nf, r->reps);
    for (int k = 0; k < r->reps; k++)
      for (int j = 0; j < r->nf; j++)
        fprintf(fp, " %.9e", r->t[g][k][j]);
    fputc('\n', fp);
  }
  fclose(fp);
}

/* Where the stack sits modulo a page changes a kernel's speed by up to 50%
 * on this machine (the frames' spills against the arrays: kron_sum measured
 * 0.58 in one process and 1.03 in the next, and inplace_add_4096 2.05 or
 * 2.48 as the environment's size moved the stack with ASLR off). One process
 * sees one offset, so a figure was one draw from the layouts. Group g now
 * runs with the stack moved down by g/groups of a page, and the median over
 * the groups is a median over layouts (six processes then gave kron_sum
 * 0.87-0.97 and inplace_add_4096 2.07-2.10). */
void at_stack_offset(int g, int groups, void (*body)(void *, int), void *ctx) {
  /* the groups of all passes (rounds_keep) at offsets of their own */
  int all = (groups > 0 ? groups : 1) * bench_passes();
  unsigned off = (unsigned)(((bench_pass() - 1) * groups + g) * 4096 / all) & ~15u;
  char *pad = __builtin_alloca(off + 16);
  __asm__ volatile("" : : "r"(pad) : "memory");
  body(ctx, g);
  __asm__ volatile("" : : "r"(pad) : "memory");
}

typedef struct {
  void (*const *f)(void);
  const long *b;
  rounds_t *out;
} group_t;

static void group(void *ctx, int g) {
  group_t *c = ctx;
  for (int r = 0; r < c->out->reps; r++)
    for (int j = 0; j < c->out->nf; j++)
      c->out->t[g][r][j] = batch(c->f[j], c->b[j]);
}

void rounds(void (*const *f)(void), int nf, double target, rounds_t *out) {
  long b[MAXF];
  for (int j = 0; j < nf; j++)
    b[j] = calibrate(f[j], target);
  out->nf = nf, out->groups = bench_groups(), out->reps = bench_reps();
  group_t c = {f, b, out};
  for (int g = 0; g < out->groups; g++) {
    load_sample();
    at_stack_offset(g, out->groups, group, &c);
  }
}

/* The quantity of the fastest batches: q of each function's least time per
 * call over all rounds; the spread, q of each group's least times, their
 * min-max. The machines this runs on are shared virtual ones, whose noise
 * only adds time, and not evenly: for seconds at a time a neighbour slows
 * one kernel more than another (kron_sum's gradient/primal was 0.57 in
 * some groups and 0.9 in others of one process, in runs of either kind),
 * so that a median over groups moved by half between two runs. The least
 * times are what the code costs when nothing interferes; over 16 groups
 * of 5 rounds, six runs of the noisiest kernels agreed within 10%
 * (kron_sum 0.57-0.61, hot_pw_10000 3.38-3.44). */
spread_t spread_of(const rounds_t *r, quantity_t q) {
  double all[MAXF], gm[MAXF];
  spread_t s = {0, 0, 0};
  for (int j = 0; j < r->nf; j++)
    all[j] = INFINITY;
  for (int g = 0; g < r->groups; g++) {
    for (int j = 0; j < r->nf; j++) {
      gm[j] = INFINITY;
      for (int k = 0; k < r->reps; k++)
        gm[j] = fmin(gm[j], r->t[g][k][j]);
      all[j] = fmin(all[j], gm[j]);
    }
    double v = q(gm);
    s.lo = g == 0 ? v : fmin(s.lo, v);
    s.hi = g == 0 ? v : fmax(s.hi, v);
  }
  s.fig = q(all);
  return s;
}

double median_time(const rounds_t *r, int j) {
  static double v[MAXG * MAXR];
  int n = 0;
  for (int g = 0; g < r->groups; g++)
    for (int k = 0; k < r->reps; k++)
      v[n++] = r->t[g][k][j];
  return median(v, n);
}
