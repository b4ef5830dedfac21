/* fwd.c: forward-mode rows of the benchmark (issue 10's targets).
 *
 * The kernels of kernels.c (included whole, so that each kernel is defined
 * in this module and __enzyme_fwddiff may take it) differentiated in
 * forward mode along seeded directions of their active parameter vector
 * P: one tangent (width 1), and eight tangents in one pass (enzyme_width 8,
 * the directions as one buffer of eight lanes with enzyme_dupv). Printed
 * per kernel: primal time, tangent / primal (goal <= 1.5), width-8 time /
 * width-1 time (goal < 4: cheaper than four width-1 passes), and the check
 * of the tangents: width 1 against a central difference along the
 * direction, each width-8 lane against the width-1 tangent along it.
 * Timed in interleaved rounds (measure.h, linked with measure.c); built
 * and run by run.sh (not linked with driver.c: its own main). The width-8
 * figures depend on the machine's vector width. */
#include "kernels.c"

#include <stdio.h>
#include <stdlib.h>

#include "measure.h"

extern int enzyme_width, enzyme_dupv;
double __enzyme_fwddiff(void *, ...);
typedef struct {
  double t[8];
} tan8_t;
tan8_t __enzyme_fwddiff8(void *, ...);

#define W 8
#define MAXP (2 * MD * MD > KNP ? 2 * MD * MD : KNP)
/* D1: one direction; D8: eight, lane k at D8 + k * MAXP */
static double D1[MAXP], D8[W * MAXP];
static const long STRIDE = MAXP * sizeof(double);
static volatile double fsink;
static tan8_t t8sink;

/* per kernel: its parameter vector, its size, primal, width-1 and width-8
 * tangents along D1 and D8 */
typedef struct {
  const char *name;
  double *P;
  int n;
  void (*setup)(void);
  double (*f)(void);
  double (*t1)(void);
  tan8_t (*t8)(void);
} fkernel_t;

/* each kernel's arguments once, for a marker DUP and shadows S: width 1
 * is (DUP1, D1), width 8 (DUP8, D8), eight lanes MAXP doubles apart */
#define DUP1 enzyme_dup
#define DUP8 enzyme_dupv, STRIDE
#define FWD(tag, CALLARGS, ARGS)                                               \
  static double tag##_f(void) { return tag##_k CALLARGS; }                     \
  static double tag##_t1(void) {                                               \
    return __enzyme_fwddiff((void *)tag##_k, ARGS(DUP1, D1));                  \
  }                                                                            \
  static tan8_t tag##_t8(void) {                                               \
    return __enzyme_fwddiff8((void *)tag##_k, enzyme_width, W, ARGS(DUP8, D8)); \
  }
#define SUM_SIN_ARGS(DUP, S) DUP, S_P, S, enzyme_const, n_sum
#define SCE_ARGS(DUP, S) DUP, C_P, S, enzyme_const, c_n
#define KRON_ARGS(DUP, S)                                                      \
  DUP, K_P, S, DUP, K_P + KM * KM, S + KM * KM, enzyme_const, k_m,             \
      enzyme_const, k_m, enzyme_const, k_m, enzyme_const, k_m
#define MLP_ARGS(DUP, S)                                                       \
  DUP, M_P, S, DUP, M_P + MD * MD, S + MD * MD, enzyme_const, M_X,             \
      enzyme_const, M_Y, enzyme_const, m_d, enzyme_const, m_b
#define GP_ARGS(DUP, S) DUP, G_P, S, enzyme_const, G_x, enzyme_const, G_y, enzyme_const, g_n
#define BLOCK_ARGS(DUP, S) DUP, B_P, S

FWD(sum_sin, (S_P, n_sum), SUM_SIN_ARGS)
FWD(naive_sce, (C_P, c_n), SCE_ARGS)
FWD(kron, (K_P, K_P + KM * KM, k_m, k_m, k_m, k_m), KRON_ARGS)
FWD(mlp, (M_P, M_P + MD * MD, M_X, M_Y, m_d, m_b), MLP_ARGS)
FWD(gp_lml, (G_P, G_x, G_y, g_n), GP_ARGS)
FWD(block, (B_P), BLOCK_ARGS)

#define ROW(tag, label, P, N, SETUP) {label, P, N, SETUP, tag##_f, tag##_t1, tag##_t8}
static const fkernel_t fk[] = {
    ROW(sum_sin, "sum_sin_1000", S_P, NSUM, sum_setup),
    ROW(naive_sce, "naive_map_sin_cos_exp", C_P, SC * SC, sce_setup),
    ROW(kron, "kron_sum", K_P, KNP, kron_setup),
    ROW(mlp, "simple_mlp", M_P, 2 * MD * MD, mlp_setup),
    ROW(gp_lml, "gp_lml", G_P, 3, gp_setup),
    ROW(block, "large_single_block", B_P, 4, block_setup),
};

static const fkernel_t *cur;
static void run_f(void) { fsink = cur->f(); }
static void run_t1(void) { fsink = cur->t1(); }
static void run_t8(void) { t8sink = cur->t8(); }

/* per round: the times of [primal, width 1, width 8] */
static double q_t1(const double *t) { return t[1] / t[0]; }
static double q_t8(const double *t) { return t[2] / t[1]; }
static double q_8x(const double *t) { return t[2] / (8 * t[1]); }

/* seeded directions: lane k of D8, and D1 = lane 0 */
static void directions(int n) {
  unsigned long long s = 0x2545F4914F6CDD1DULL;
  for (int k = 0; k < W; k++)
    for (int i = 0; i < MAXP; i++) {
      s = s * 6364136223846793005ULL + 1442695040888963407ULL;
      D8[k * MAXP + i] = i < n ? (double)(s >> 11) * 0x1.0p-53 - 0.5 : 0;
    }
  memcpy(D1, D8, sizeof D1);
}

/* worst relative error: width 1 vs central difference, width 8 vs width 1 */
static int check(const fkernel_t *k, double *efd, double *e8) {
  double *P = k->P, save[MAXP];
  memcpy(save, P, k->n * sizeof *P);
  double h = 1e-6, t1 = k->t1();
  for (int i = 0; i < k->n; i++)
    P[i] = save[i] + h * D1[i];
  double fp = k->f();
  for (int i = 0; i < k->n; i++)
    P[i] = save[i] - h * D1[i];
  double fm = k->f();
  memcpy(P, save, k->n * sizeof *P);
  double fd = (fp - fm) / (2 * h);
  *efd = fabs(t1 - fd) / fmax(1e-8, fabs(fd));
  tan8_t t8 = k->t8();
  *e8 = 0;
  for (int l = 0; l < W; l++) {
    memcpy(D1, D8 + l * MAXP, sizeof D1);
    double tl = k->t1();
    *e8 = fmax(*e8, fabs(t8.t[l] - tl) / fmax(1e-12, fabs(tl)));
  }
  memcpy(D1, D8, sizeof D1);
  return *efd < 1e-5 && *e8 < 1e-12;
}

int main(int argc, char **argv) {
  const char *only = argc > 2 && !strcmp(argv[1], "--only") ? argv[2] : NULL;
  int bad = 0;
  printf("Forward mode (__enzyme_fwddiff, -O2): rounds of [primal, width 1, width 8] "
         "batches of ~20 ms; the fastest batches (min-max of %d groups of %d rounds); a goal "
         "is met when the whole spread meets it:\n\n", bench_groups_all(), bench_reps());
  printf("| kernel | parameters | primal us | tangent/primal (width 1) | width 8 / width 1 "
         "(vector width) | 8 tangents: width 8 / 8 width-1 passes | goals: width 1 <= 1.5, "
         "width 8 / width 1 < 4 | tangent ok (rel err vs FD; width-8 lanes vs width 1) |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
  for (size_t i = 0; i < sizeof fk / sizeof fk[0]; i++) {
    const fkernel_t *k = &fk[i];
    if (only && !strstr(only, k->name))
      continue;
    cur = k;
    k->setup();
    directions(k->n);
    double efd, e8;
    int ok = check(k, &efd, &e8);
    bad |= !ok;
    static rounds_t R;
    void (*f[3])(void) = {run_f, run_t1, run_t8};
    rounds(f, 3, 0.02, &R);
    char label[256];
    snprintf(label, sizeof label, "fwd:%s", k->name);
    rounds_keep(label, &R);
    spread_t a = spread_of(&R, q_t1), b = spread_of(&R, q_t8), c = spread_of(&R, q_8x);
    char goal[128] = "";
    if (a.hi > 1.5)
      strcat(goal, a.fig > 1.5 ? "width 1 > 1.5" : "width 1 > 1.5 in part of the spread");
    if (b.hi >= 4)
      strcat(goal, b.fig >= 4 ? "; width 8 >= 4" : "; width 8 >= 4 in part of the spread");
    printf("| %s | %d | %.2f | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %.2f (%.2f-%.2f) | %s | "
           "%s (%.1e; %.1e) |\n", k->name, k->n, median_time(&R, 0) * 1e6, a.fig, a.lo, a.hi,
           b.fig, b.lo, b.hi, c.fig, c.lo, c.hi, goal[0] ? goal + 2 * (goal[0] == ';') : "met", ok ? "yes" : "NO",
           efd, e8);
    fflush(stdout);
  }
  double lo, hi;
  int n;
  load_range(&lo, &hi, &n);
  printf("\nLoad average (1 min) during the forward table: %.2f-%.2f (%d samples).\n", lo, hi, n);
  return bad;
}
