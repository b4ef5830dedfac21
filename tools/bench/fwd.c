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
 * Medians of BENCH_REPS batches (default 15), each batch about 20 ms.
 * Built and run by run.sh (not linked with driver.c: its own main). */
#include "kernels.c"

#include <stdio.h>
#include <stdlib.h>
#include <time.h>

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

#define FWD(tag, P, N, SETUP, CALLARGS, ARGS1, ARGS8)                          \
  static double tag##_f(void) { return tag##_k CALLARGS; }                     \
  static double tag##_t1(void) { return __enzyme_fwddiff((void *)tag##_k, ARGS1); } \
  static tan8_t tag##_t8(void) {                                               \
    return __enzyme_fwddiff8((void *)tag##_k, enzyme_width, W, ARGS8);         \
  }
#define COMMA ,

FWD(sum_sin, S_P, NSUM, sum_setup, (S_P, n_sum),
    enzyme_dup COMMA S_P COMMA D1 COMMA enzyme_const COMMA n_sum,
    enzyme_dupv COMMA STRIDE COMMA S_P COMMA D8 COMMA enzyme_const COMMA n_sum)
FWD(naive_sce, C_P, SC *SC, sce_setup, (C_P, c_n),
    enzyme_dup COMMA C_P COMMA D1 COMMA enzyme_const COMMA c_n,
    enzyme_dupv COMMA STRIDE COMMA C_P COMMA D8 COMMA enzyme_const COMMA c_n)
FWD(kron, K_P, KNP, kron_setup, (K_P, K_P + KM * KM, k_m, k_m, k_m, k_m),
    enzyme_dup COMMA K_P COMMA D1 COMMA enzyme_dup COMMA K_P + KM * KM COMMA
        D1 + KM * KM COMMA enzyme_const COMMA k_m COMMA enzyme_const COMMA k_m COMMA
            enzyme_const COMMA k_m COMMA enzyme_const COMMA k_m,
    enzyme_dupv COMMA STRIDE COMMA K_P COMMA D8 COMMA enzyme_dupv COMMA STRIDE COMMA
        K_P + KM * KM COMMA D8 + KM * KM COMMA enzyme_const COMMA k_m COMMA
            enzyme_const COMMA k_m COMMA enzyme_const COMMA k_m COMMA enzyme_const COMMA k_m)
FWD(mlp, M_P, 2 * MD * MD, mlp_setup, (M_P, M_P + MD * MD, M_X, M_Y, m_d, m_b),
    enzyme_dup COMMA M_P COMMA D1 COMMA enzyme_dup COMMA M_P + MD * MD COMMA
        D1 + MD * MD COMMA enzyme_const COMMA M_X COMMA enzyme_const COMMA M_Y COMMA
            enzyme_const COMMA m_d COMMA enzyme_const COMMA m_b,
    enzyme_dupv COMMA STRIDE COMMA M_P COMMA D8 COMMA enzyme_dupv COMMA STRIDE COMMA
        M_P + MD * MD COMMA D8 + MD * MD COMMA enzyme_const COMMA M_X COMMA
            enzyme_const COMMA M_Y COMMA enzyme_const COMMA m_d COMMA enzyme_const COMMA m_b)
FWD(gp_lml, G_P, 3, gp_setup, (G_P, G_x, G_y, g_n),
    enzyme_dup COMMA G_P COMMA D1 COMMA enzyme_const COMMA G_x COMMA enzyme_const COMMA
        G_y COMMA enzyme_const COMMA g_n,
    enzyme_dupv COMMA STRIDE COMMA G_P COMMA D8 COMMA enzyme_const COMMA G_x COMMA
        enzyme_const COMMA G_y COMMA enzyme_const COMMA g_n)
FWD(block, B_P, 4, block_setup, (B_P), enzyme_dup COMMA B_P COMMA D1,
    enzyme_dupv COMMA STRIDE COMMA B_P COMMA D8)

#define ROW(tag, label, P, N, SETUP) {label, P, N, SETUP, tag##_f, tag##_t1, tag##_t8}
static const fkernel_t fk[] = {
    ROW(sum_sin, "sum_sin_1000", S_P, NSUM, sum_setup),
    ROW(naive_sce, "naive_map_sin_cos_exp", C_P, SC * SC, sce_setup),
    ROW(kron, "kron_sum", K_P, KNP, kron_setup),
    ROW(mlp, "simple_mlp", M_P, 2 * MD * MD, mlp_setup),
    ROW(gp_lml, "gp_lml", G_P, 3, gp_setup),
    ROW(block, "large_single_block", B_P, 4, block_setup),
};

static double now(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}
static int cmpd(const void *a, const void *b) {
  double x = *(const double *)a, y = *(const double *)b;
  return (x > y) - (x < y);
}

static const fkernel_t *cur;
static void run_f(void) { fsink = cur->f(); }
static void run_t1(void) { fsink = cur->t1(); }
static void run_t8(void) { t8sink = cur->t8(); }

/* median over reps batches of the time of one call (s) */
static double timed(void (*g)(void), int reps) {
  long it = 1;
  for (;;) {
    double t0 = now();
    for (long i = 0; i < it; i++)
      g();
    double dt = now() - t0;
    if (dt > 0.005 || it >= (1L << 28)) {
      it = (long)(it * 0.02 / (dt > 0 ? dt : 1e-9)) + 1;
      break;
    }
    it *= 4;
  }
  double v[64];
  for (int r = 0; r < reps; r++) {
    double t0 = now();
    for (long i = 0; i < it; i++)
      g();
    v[r] = (now() - t0) / it;
  }
  qsort(v, reps, sizeof *v, cmpd);
  return v[reps / 2];
}

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
  int reps = getenv("BENCH_REPS") ? atoi(getenv("BENCH_REPS")) : 15;
  if (reps < 1 || reps > 64)
    reps = 15;
  int bad = 0;
  printf("Forward mode (__enzyme_fwddiff, -O2; median of %d batches of ~20 ms):\n\n", reps);
  printf("| kernel | parameters | primal us | tangent/primal (width 1) | width 8 / width 1 "
         "| 8 tangents: width 8 / 8 width-1 passes | tangent ok (rel err vs FD; "
         "width-8 lanes vs width 1) |\n");
  printf("|---|---|---|---|---|---|---|\n");
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
    double tf = timed(run_f, reps), t1 = timed(run_t1, reps), t8 = timed(run_t8, reps);
    printf("| %s | %d | %.2f | %.2f | %.2f | %.2f | %s (%.1e; %.1e) |\n", k->name, k->n,
           tf * 1e6, t1 / tf, t8 / t1, t8 / (8 * t1), ok ? "yes" : "NO", efd, e8);
  }
  return bad;
}
