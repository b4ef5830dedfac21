/* driver.c: measures the kernels of kernels.c and adbench.c (not
 * differentiated; compiled without the plugin, linked with alloc.c's
 * counting allocator, checks.c and measure.c).
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
 * gradient; grad/primal in interleaved rounds (measure.h: the ratio of the
 * fastest batches, min-max of the same per group; targets met only when the
 * whole spread meets them); peak RSS of a process that only runs the
 * gradient minus one that only runs the primal. Kernels with a
 * hand-written gradient (ADBench) are checked against it and timed in the
 * same rounds. After the kernel table: the restrict / plain twin table
 * (pairs timed together) and the ADBench table. Compile times come from
 * run.sh (BENCH_CTIME). */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "alloc.h"
#include "driver.h"
#include "measure.h"

#define BATCH 0.02 /* seconds per timed batch */

/* per-kernel results, for the twin and ADBench tables */
typedef struct {
  int ran, ok, slow;
  spread_t ratio, hand, vs_hand; /* grad/primal, hand/primal, grad/hand */
  double mp, mb_d, mb_g, tone;
  long long peak;
  long calls, reallocs, frees;
  double efd, efdh, evs; /* hand-written gradient: check errors */
} result_t;
#define MAXK 256
static result_t res[MAXK];

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

static double q_grad(const double *t) { return t[1] / t[0]; }
static double q_hand(const double *t) { return t[2] / t[0]; }
static double q_vs_hand(const double *t) { return t[1] / t[2]; }
static double q_twin(const double *t) { return (t[3] / t[2]) / (t[1] / t[0]); }

static char *trim(char *s) {
  size_t n = strlen(s);
  while (n && s[n - 1] == ' ')
    s[--n] = 0;
  return s;
}

/* the miss of a ratio target x: none when the whole spread meets it */
static void target(char *buf, spread_t s, double x) {
  char m[64];
  if (s.fig > x)
    snprintf(m, sizeof m, "ratio>%g ", x);
  else if (s.hi > x)
    snprintf(m, sizeof m, "ratio>%g in part of the spread ", x);
  else
    return;
  strcat(buf, m);
}

static int run(const kernel_t *k, const char *self, result_t *out) {
  k->setup();
  /* one gradient from zeroed shadows: counted, timed, checked by FD; the
   * arena keeps no chunk for the next one (LEANTAPE_ARENA_KEEP=0), so
   * that what it allocated is freed and counted as its own */
  double *g = malloc(k->nparam * sizeof *g);
  static unsigned window;
  memset(&mc, 0, sizeof mc);
  setenv("LEANTAPE_ARENA_KEEP", "0", 1);
  mc.window = ++window;
  mc.on = 1;
  double t0 = now();
  k->grad_fresh(g);
  double tone = now() - t0;
  mc.on = 0;
  unsetenv("LEANTAPE_ARENA_KEEP");
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

  /* timing: interleaved rounds of [primal, grad(, hand)] batches. A
   * gradient slower than 1 s (normalize with an O(n^2) tape) gets 3
   * primal runs and two gradient samples (the run above and the one in
   * the RSS process below), to stay within the time budget. */
  int slow = tone > 1.0;
  static rounds_t R;
  double mp = 0, tp[3];
  if (!slow) {
    void (*f[3])(void) = {k->primal, k->grad, k->hand};
    rounds(f, k->hand ? 3 : 2, BATCH, &R);
    rounds_keep(k->name, &R);
    mp = median_time(&R, 0);
    out->ratio = spread_of(&R, q_grad);
    if (k->hand) {
      out->hand = spread_of(&R, q_hand);
      out->vs_hand = spread_of(&R, q_vs_hand);
    }
  } else {
    for (int r = 0; r < 3; r++)
      tp[r] = batch(k->primal, 1);
    mp = median(tp, 3);
  }

  /* peak RSS: a process that only runs the gradient K times minus one that
   * only runs the primal K times (~0.2 s of gradients, at least one) */
  long K = (long)(0.2 / fmax(tone, 1e-9));
  K = K < 1 ? 1 : K > 100000 ? 100000 : K;
  double cg = NAN, cp;
  long rg = 0, rp = 0;
  if (last_pass()) { /* only the last pass prints (measure.h) */
    rg = rss_child(self, k->name, "grad", K, &cg);
    rp = rss_child(self, k->name, "primal", K, &cp);
  }
  double mb_g = rg / 1024.0, mb_d = (rg - rp) / 1024.0;
  if (slow) {
    double a = tone / mp, b = (isnan(cg) ? tone : cg) / mp;
    out->ratio = (spread_t){0.5 * (a + b), fmin(a, b), fmax(a, b)};
  }

  char tgt[128] = "";
  target(tgt, out->ratio, 4.0);
  if (k->target == TGT_NOTAPE || k->target == TGT_NORMALIZE)
    target(tgt, out->ratio, 2.0);
  if (k->target == TGT_NOTAPE && peak > 0)
    strcat(tgt, "tape>0 ");
  if (k->target == TGT_NORMALIZE && mb_g > 64)
    strcat(tgt, "RSS>64MB ");
  if (leaked)
    strcat(tgt, "LEAK ");
  char cbuf[80];
  printf("| %s | %s | %.2f (%.2f-%.2f)%s | %.3g | %lld | %ld (%ld realloc) / %ld | %.1f (%.1f) | "
         "%s | %s | %s |\n",
         k->name, ok ? "ok" : k->hand ? "**FAIL**" : "**WRONG**", out->ratio.fig,
         out->ratio.lo, out->ratio.hi, slow ? " [2 grad runs]" : "", mp * 1e6, peak,
         calls, reallocs, frees, mb_d, mb_g, tgt[0] ? trim(tgt) : "met",
         k->machine ? k->machine : "-", ctime_of(k->name, cbuf, sizeof cbuf));
  fflush(stdout);
  if (leaked)
    fprintf(stderr, "  %s: %lld bytes still live after one gradient\n",
            k->name, leaked);
  (void)worst;
  out->ran = 1, out->ok = ok, out->slow = slow, out->mp = mp, out->mb_d = mb_d;
  out->mb_g = mb_g, out->tone = tone, out->peak = peak, out->calls = calls;
  out->reallocs = reallocs, out->frees = frees;
  return ok;
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

static void print_load(void) {
  double lo, hi;
  int n;
  load_range(&lo, &hi, &n);
  printf("\nLoad average (1 min) during these tables: %.2f-%.2f (%d samples, one per "
         "group of rounds).\n", lo, hi, n);
}

/* a restrict kernel and its plain twin, timed together: rounds of
 * [primal_r, grad_r, primal_p, grad_p] batches */
static void twin_row(const kernel_t *r, const kernel_t *p, const result_t *a,
                     const result_t *b) {
  spread_t gr = a->ratio, gp = b->ratio, q;
  int paired = !a->slow && !b->slow;
  if (paired) {
    static rounds_t R;
    r->setup();
    p->setup();
    void (*f[4])(void) = {r->primal, r->grad, p->primal, p->grad};
    rounds(f, 4, BATCH, &R);
    char label[256];
    snprintf(label, sizeof label, "twin:%s", p->name);
    rounds_keep(label, &R);
    gr = spread_of(&R, q_grad);
    q = spread_of(&R, q_twin);
    /* plain's own grad/primal: the same rounds, functions 2 and 3 */
    for (int g = 0; g < R.groups; g++)
      for (int k = 0; k < R.reps; k++)
        R.t[g][k][0] = R.t[g][k][2], R.t[g][k][1] = R.t[g][k][3];
    gp = spread_of(&R, q_grad);
  } else
    q = (spread_t){gp.fig / gr.fig, gp.lo / gr.hi, gp.hi / gr.lo};
  char tgt[128] = "";
  if (a->peak != b->peak)
    strcat(tgt, "tape differs ");
  if (a->calls != b->calls || a->frees != b->frees)
    strcat(tgt, "allocs differ ");
  if (!(fabs(q.lo - 1) <= 0.10 && fabs(q.hi - 1) <= 0.10))
    strcat(tgt, fabs(q.fig - 1) <= 0.10 ? "ratio off by >10% in part of the spread "
                                        : "ratio off by >10% ");
  printf("| %s | %s | %lld / %lld | %ld / %ld, %ld / %ld | %.2f / %.2f%s | "
         "%.3f (%.3f-%.3f) | %.3g / %.3g | %.1f / %.1f | %s |\n",
         p->name, r->name, a->peak, b->peak, a->calls, a->frees, b->calls, b->frees,
         gr.fig, gp.fig, paired ? "" : " (main rows)", q.fig, q.lo, q.hi, a->mp * 1e6,
         b->mp * 1e6, a->mb_g, b->mb_g, tgt[0] ? trim(tgt) : "met");
  fflush(stdout);
}

static void adbench_row(const kernel_t *k, const result_t *r) {
  char cbuf[80];
  printf("| %s | %d | %s | %.1e / %.1e | %.1e | %.3g | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | "
         "%.2f (%.2f-%.2f) | %lld | %ld / %ld | %.1f | %s | %s |\n",
         k->name, k->nparam, r->ok ? "ok" : "**FAIL**", r->efd, r->efdh, r->evs, r->mp * 1e6,
         r->ratio.fig, r->ratio.lo, r->ratio.hi, r->hand.fig, r->hand.lo, r->hand.hi,
         r->vs_hand.fig, r->vs_hand.lo, r->vs_hand.hi, r->peak, r->calls, r->frees, r->mb_d,
         k->machine ? k->machine : "-", ctime_of(k->name, cbuf, sizeof cbuf));
  fflush(stdout);
}

int main(int argc, char **argv) {
  if (argc == 5 && !strcmp(argv[1], "--rss"))
    return rss_mode(argv[2], argv[3], atol(argv[4]));
  if (argc == 2 && !strcmp(argv[1], "--list")) { /* name tag source */
    for (int i = 0; i < nall(); i++)
      printf("%s %s %s %d\n", kat(i)->name, kat(i)->tag ? kat(i)->tag : "-",
             kat(i)->src ? kat(i)->src : "-", kat(i)->extra && !getenv("BENCH_EXTRA"));
    return 0;
  }
  char self[4096];
  ssize_t len = readlink("/proc/self/exe", self, sizeof self - 1);
  if (len <= 0)
    return 2;
  self[len] = 0;
  load_ctimes();
  const char *only = argc == 3 && !strcmp(argv[1], "--only") ? argv[2] : NULL;
  printf("| kernel | grad ok | grad/primal fastest (min-max of %d groups) | primal us | "
         "tape bytes | allocs (of which realloc) / frees per grad | peak RSS MB: grad-primal "
         "(grad) | issue-4 targets (met: the whole spread) | machine-dependent | "
         "compile s: -O2 / + plugin |\n", bench_groups_all());
  printf("|---|---|---|---|---|---|---|---|---|---|\n");
  fflush(stdout);
  int bad = 0, n = nall() < MAXK ? nall() : MAXK;
  for (int i = 0; i < n; i++) {
    const kernel_t *k = kat(i);
    if (only ? !listed(only, k->name) : k->extra && !getenv("BENCH_EXTRA"))
      continue;
    bad += !run(k, self, &res[i]);
  }

  int header = 0;
  for (int i = 0; i < n; i++) {
    const kernel_t *p = kat(i);
    int ri = -1;
    for (int j = 0; p->twin && j < n; j++)
      if (!strcmp(kat(j)->name, p->twin))
        ri = j;
    if (ri < 0 || !res[i].ran || !res[ri].ran)
      continue;
    if (!header) {
      printf("\nRestrict vs plain twins (arrays disjoint), timed together: rounds of "
             "[primal, grad] batches of the restrict kernel then of the plain one; "
             "plain/restrict per round = (grad/primal plain) / (grad/primal restrict), "
             "fastest batches, min-max of the groups; target: same tape bytes and "
             "allocations, the whole plain/restrict spread within 10%%:\n\n");
      printf("| plain kernel | restrict twin | tape bytes: restrict / plain | "
             "allocs / frees: restrict / plain | grad/primal: restrict / plain | "
             "plain/restrict fastest (min-max) | primal us: restrict / plain | "
             "peak RSS MB (grad): restrict / plain | twin target |\n");
      printf("|---|---|---|---|---|---|---|---|---|\n");
      header = 1;
    }
    twin_row(kat(ri), p, &res[ri], &res[i]);
  }

  header = 0;
  for (int i = 0; i < n; i++) {
    if (!kat(i)->hand || !res[i].ran)
      continue;
    if (!header) {
      printf("\nADBench and GradBench objectives: Leantape (__enzyme_autodiff, combined mode) "
             "vs a hand-written reverse-mode gradient (timed in the same rounds as "
             "primal and gradient: fastest batches (min-max of the groups)). grad ok: "
             "both gradients against 6th-order central differences (step 4e-3) on "
             "the listed coordinates and against each other on all (relative error "
             "<= %.0e):\n\n", HAND_TOL);
      printf("| objective | params | grad ok | FD rel err: Leantape / hand | "
             "Leantape vs hand rel diff | primal us | Leantape grad/primal | "
             "hand grad/primal | Leantape / hand | tape bytes | allocs / frees "
             "per grad | peak RSS MB: grad-primal | machine-dependent | "
             "compile s: -O2 / + plugin |\n");
      printf("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|\n");
      header = 1;
    }
    adbench_row(kat(i), &res[i]);
  }
  print_load();
  return bad ? 1 : 0;
}
