/* measure.c: the benchmark's clock, batches, interleaved rounds and load
 * samples (measure.h). Compiled without the plugin; linked into the
 * driver, the call-graph benches and fwdbench. */
#include "measure.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
  return l;
}

void load_range(double *lo, double *hi, int *n) {
  *lo = *hi = nls ? lsamples[0] : -1;
  for (int i = 0; i < nls; i++) {
    *lo = lsamples[i] < *lo ? lsamples[i] : *lo;
    *hi = lsamples[i] > *hi ? lsamples[i] : *hi;
  }
  *n = nls;
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
  unsigned off = (unsigned)(g * 4096 / (groups > 0 ? groups : 1)) & ~15u;
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
