/* measure.h: how the benchmark times (driver.c and fwd.c, measure.c).
 *
 * A ratio (gradient / primal, tangent / primal, ...) is measured in
 * interleaved rounds: each round runs one batch (~20 ms, calibrated once)
 * of every function being compared, one after the other; BENCH_GROUPS
 * groups (default 16) of BENCH_REPS rounds (default 5), each group at its
 * own stack offset within a page. run.sh runs every benchmark program in
 * BENCH_PASSES passes spread over the whole run (pass p of them all, then
 * pass p+1): each pass measures its groups, keeps them in the file
 * BENCH_RAW (rounds_keep), and the last pass prints the tables over the
 * groups of all passes. The figure is the ratio of the fastest
 * batches (each function's least time per call over all rounds), and its
 * spread the min-max of the same ratio per group (measure.c says why not
 * a median). A target counts as met only when the whole spread meets it.
 * Every group also samples the 1-minute load average, reported with the
 * tables. The clock is the thread's CPU time (CLOCK_THREAD_CPUTIME_ID), so
 * that time slices taken by other
 * processes on a shared machine do not count. */
#ifndef LT_BENCH_MEASURE_H
#define LT_BENCH_MEASURE_H

#define MAXF 4      /* functions timed together */
#define MAXG 32     /* groups */
#define MAXR 64     /* rounds per group */

typedef struct {
  double fig, lo, hi; /* the fastest batches' ratio; per group: min, max */
} spread_t;

/* the times per call (s) of every batch: t[g][r][j], function j in round r
 * of group g */
typedef struct {
  int nf, groups, reps;
  double t[MAXG][MAXR][MAXF];
} rounds_t;

/* a quantity of one round from its times per call, e.g. t[1] / t[0] */
typedef double (*quantity_t)(const double *t);

double now(void);
double median(double *v, int n);
int bench_groups(void);
int bench_reps(void);
/* the groups of all passes together */
int bench_groups_all(void);
/* calls per batch so that a batch takes about target seconds */
long calibrate(void (*f)(void), double target);
double batch(void (*f)(void), long it);
/* body(ctx, g) with the stack moved down by g/groups of a page: group g of
 * the rounds runs at its own stack offset (measure.c says why) */
void at_stack_offset(int g, int groups, void (*body)(void *, int), void *ctx);
/* time f[0..nf) in interleaved rounds (batches of ~target s each), group g
 * at_stack_offset g */
void rounds(void (*const *f)(void), int nf, double target, rounds_t *out);
/* q of the fastest batches, and the min-max of q of each group's fastest */
spread_t spread_of(const rounds_t *r, quantity_t q);
/* the median time per call of function j over all rounds */
double median_time(const rounds_t *r, int j);
/* this process's pass, 1..bench_passes() (BENCH_PASS, BENCH_PASSES); the
 * last pass prints the tables */
int bench_pass(void);
int bench_passes(void);
int last_pass(void);
/* add the groups that earlier passes kept under label to r (after r's
 * own, up to MAXG in all), and keep r's own for the later passes; without
 * BENCH_RAW, nothing. Call it once per label and process, right after the
 * rounds are measured. */
void rounds_keep(const char *label, rounds_t *r);
/* the 1-minute load average now (also kept as a sample, in BENCH_RAW too),
 * and the range of all samples so far (of every pass) */
double load_sample(void);
void load_range(double *lo, double *hi, int *n);

#endif
