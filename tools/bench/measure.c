/* measure.c: the benchmark's clock, batches, interleaved rounds and load
 * samples (measure.h). Compiled without the plugin; linked into the
 * driver, the call-graph benches and fwdbench. */
#include "measure.h"

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
int bench_groups(void) { return env_int("BENCH_GROUPS", 5, MAXG); }
int bench_reps(void) { return env_int("BENCH_REPS", 9, MAXR); }

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

void rounds(void (*const *f)(void), int nf, double target, rounds_t *out) {
  long b[MAXF];
  for (int j = 0; j < nf; j++)
    b[j] = calibrate(f[j], target);
  out->nf = nf, out->groups = bench_groups(), out->reps = bench_reps();
  for (int g = 0; g < out->groups; g++) {
    load_sample();
    for (int r = 0; r < out->reps; r++)
      for (int j = 0; j < nf; j++)
        out->t[g][r][j] = batch(f[j], b[j]);
  }
}

spread_t spread_of(const rounds_t *r, quantity_t q) {
  double gm[MAXG], v[MAXR];
  for (int g = 0; g < r->groups; g++) {
    for (int k = 0; k < r->reps; k++)
      v[k] = q(r->t[g][k]);
    gm[g] = median(v, r->reps);
  }
  spread_t s = {0, gm[0], gm[0]};
  for (int g = 0; g < r->groups; g++) {
    s.lo = gm[g] < s.lo ? gm[g] : s.lo;
    s.hi = gm[g] > s.hi ? gm[g] : s.hi;
  }
  s.med = median(gm, r->groups);
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
