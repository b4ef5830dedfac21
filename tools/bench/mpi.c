/* mpi.c: MPI rows of the benchmark (issue 15, item 6).
 *
 * A 2-D explicit heat equation (NG x NX cells) whose rows are split
 * across the ranks (test/Integration/mpi-heat.c is its 1-D sibling), halo rows
 * exchanged with MPI_Isend/MPI_Irecv and MPI_Waitall each step, the energy
 * summed with MPI_Allreduce; its gradient with respect to the initial field
 * and the conductivity. run.sh runs it under mpirun at 1 and 2 ranks; each
 * run prints one row (the first, with --header, the table's header). Wall
 * clock (MPI_Wtime; a batch's time is the slowest rank's, all ranks start
 * it together after a barrier), interleaved rounds: a round times one
 * batch of the primal and one of the gradient; BENCH_GROUPS groups of
 * BENCH_REPS rounds give the figures, the ratio of the fastest batches, of
 * those with their min-max. The gradient is checked against the serial
 * solver's (1e-12 of its largest entry) and against central differences
 * (1e-4: the energy's rounding over the step). */
#include <leantape.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

#define KERNEL __attribute__((noinline))
#define NG 200 /* rows of the whole domain */
#define NX 200 /* columns */
#define STEPS 10

static int rank_, nranks, nl; /* nl: this rank's rows (nl * NX cells) */

/* One explicit step of the 2-D heat equation on rows [1, n] of u (NX
 * columns, rows 0 and n + 1 the halos, zero outside the domain's sides),
 * into v, then back into u. */
static void step2d(double *u, double *v, double k, int n) {
  for (int i = 1; i <= n; i++)
    for (int j = 0; j < NX; j++) {
      long c = (long)i * NX + j;
      double l = j > 0 ? u[c - 1] : 0, r = j < NX - 1 ? u[c + 1] : 0;
      v[c] = u[c] + k * (u[c - NX] + u[c + NX] + l + r - 4 * u[c]) - 0.01 * sin(u[c]);
    }
  for (long c = NX; c < (long)(n + 1) * NX; c++)
    u[c] = v[c];
}

/* the energy of the field after STEPS steps from u0 (this rank's n rows
 * of NX cells), the domain's rows split over the ranks of comm, halo rows
 * exchanged each step; the total on rank 0 */
KERNEL double heat_k(double *u0, double k, int n, MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  long m = (long)(n + 2) * NX;
  double *u = calloc(m, sizeof *u), *v = calloc(m, sizeof *v);
  for (long c = 0; c < (long)n * NX; c++)
    u[c + NX] = u0[c];
  for (int s = 0; s < STEPS; s++) {
    MPI_Request req[4];
    int nr = 0;
    if (r > 0) {
      MPI_Irecv(&u[0], NX, MPI_DOUBLE, r - 1, 1, comm, &req[nr++]);
      MPI_Isend(&u[NX], NX, MPI_DOUBLE, r - 1, 2, comm, &req[nr++]);
    }
    if (r < p - 1) {
      MPI_Irecv(&u[(long)(n + 1) * NX], NX, MPI_DOUBLE, r + 1, 2, comm, &req[nr++]);
      MPI_Isend(&u[(long)n * NX], NX, MPI_DOUBLE, r + 1, 1, comm, &req[nr++]);
    }
    MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
    step2d(u, v, k, n);
  }
  double e = 0, tot;
  for (long c = NX; c < (long)(n + 1) * NX; c++)
    e += u[c] * u[c];
  MPI_Allreduce(&e, &tot, 1, MPI_DOUBLE, MPI_SUM, comm);
  free(u);
  free(v);
  return r == 0 ? tot : 0.0;
}

/* the same on one process: all NG rows */
KERNEL double heat_serial(double *u0, double k, int n) {
  long m = (long)(n + 2) * NX;
  double *u = calloc(m, sizeof *u), *v = calloc(m, sizeof *v);
  for (long c = 0; c < (long)n * NX; c++)
    u[c + NX] = u0[c];
  for (int s = 0; s < STEPS; s++)
    step2d(u, v, k, n);
  double e = 0;
  for (long c = NX; c < (long)(n + 1) * NX; c++)
    e += u[c] * u[c];
  free(u);
  free(v);
  return e;
}

static double *u0, *du0, K = 0.2, dK;
static volatile double sink;

static double init(int g) { return sin(0.7 * g + 0.3) * 0.5; }
static void primal(void) { sink = heat_k(u0, K, nl, MPI_COMM_WORLD); }
static void grad(void) {
  memset(du0, 0, sizeof(double) * nl * NX);
  dK = __enzyme_autodiff((void *)heat_k, u0, du0, K, enzyme_const, nl, enzyme_const,
                         MPI_COMM_WORLD);
}

static double value(void) {
  double e = heat_k(u0, K, nl, MPI_COMM_WORLD);
  MPI_Bcast(&e, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return e;
}

static double heat_serial_grad(double *U, double *dU) {
  return __enzyme_autodiff((void *)heat_serial, U, dU, K, enzyme_const, NG);
}

/* the largest relative error against the serial gradient, and against
 * central differences of 3 entries and of K; all ranks */
static void check(double *rel_serial, double *rel_fd) {
  grad();
  double dk;
  MPI_Allreduce(&dK, &dk, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  long cells = (long)nl * NX;
  double *U = malloc(sizeof(double) * NG * NX), *dU = calloc((long)NG * NX, sizeof(double));
  for (long g = 0; g < (long)NG * NX; g++)
    U[g] = init(g);
  double dks = heat_serial_grad(U, dU);
  double es = fabs(dk - dks) / fabs(dks), ef = 0;
  /* entries relative to the largest (those near zero carry the other
   * summation order's rounding of the large ones) */
  double big = 0;
  for (long g = 0; g < (long)NG * NX; g++)
    big = fmax(big, fabs(dU[g]));
  for (long i = 0; i < cells; i++)
    es = fmax(es, fabs(du0[i] - dU[rank_ * cells + i]) / big);
  for (int s = 0; s < 3; s++) {
    long g = s * ((long)NG * NX - 1) / 2, i = g % cells;
    int owner = (int)(g / cells);
    double keep = u0[i], h = 1e-6;
    if (rank_ == owner)
      u0[i] = keep + h;
    double fp = value();
    if (rank_ == owner)
      u0[i] = keep - h;
    double fm = value();
    u0[i] = keep;
    double fd = (fp - fm) / (2 * h), got = rank_ == owner ? du0[i] : 0, all;
    MPI_Allreduce(&got, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    ef = fmax(ef, fabs(all - fd) / fmax(fabs(fd), 1e-6));
  }
  free(U);
  free(dU);
  MPI_Allreduce(&es, rel_serial, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  *rel_fd = ef;
}

/* ---- timing: every rank runs a batch together, the slowest one counts */

static double batch_all(void (*f)(void), long it) {
  MPI_Barrier(MPI_COMM_WORLD);
  double t0 = MPI_Wtime();
  for (long i = 0; i < it; i++)
    f();
  double dt = (MPI_Wtime() - t0) / it, all;
  MPI_Allreduce(&dt, &all, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
  return all;
}

static long calibrate_all(void (*f)(void), double target) {
  long it = 1;
  for (;;) {
    double dt = batch_all(f, it) * it;
    if (dt >= target / 4 || it >= (1L << 20)) {
      long b = (long)(it * target / (dt > 0 ? dt : 1e-9));
      return b < 1 ? 1 : b;
    }
    it *= 2;
  }
}

/* a round's quantities from its times per call: primal, gradient */
static double q_primal(const double *t) { return t[0]; }
static double q_ratio(const double *t) { return t[1] / t[0]; }

static rounds_t t;

/* one group of rounds (at its own stack offset: measure.c); b: batch sizes */
static void mgroup(void *ctx, int g) {
  const long *b = ctx;
  for (int r = 0; r < t.reps; r++) {
    t.t[g][r][0] = batch_all(primal, b[0]);
    t.t[g][r][1] = batch_all(grad, b[1]);
  }
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  nl = NG / nranks;
  if (nl * nranks != NG) {
    if (rank_ == 0)
      fprintf(stderr, "mpibench: %d ranks do not divide %d rows\n", nranks, NG);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  u0 = malloc(sizeof(double) * nl * NX), du0 = malloc(sizeof(double) * nl * NX);
  for (long i = 0; i < (long)nl * NX; i++)
    u0[i] = init(rank_ * (long)nl * NX + i);
  int groups = bench_groups(), reps = bench_reps();
  if (rank_ == 0 && argc > 1 && !strcmp(argv[1], "--header")) {
    printf("MPI (wall clock, MPI_Wtime; the slowest rank's time per batch; the fastest batches "
           "(min-max of %d groups of %d interleaved rounds)):\n\n", bench_groups_all(), reps);
    printf("| kernel | ranks | grad ok (vs serial; vs central differences) | primal ms |"
           " grad/primal |\n");
    printf("|---|---|---|---|---|\n");
  }
  double es, ef;
  check(&es, &ef);
  int wrong = !(es <= 1e-12 && ef <= 1e-4);
  long bp = calibrate_all(primal, 0.05), bg = calibrate_all(grad, 0.05);
  t.nf = 2, t.groups = groups, t.reps = reps;
  long b[2] = {bp, bg};
  for (int g = 0; g < groups; g++) {
    at_stack_offset(g, groups, mgroup, b);
    load_sample();
  }
  if (rank_ == 0) { /* rank 0 prints: it alone keeps the passes' groups */
    char label[64];
    snprintf(label, sizeof label, "mpi:np%d", nranks);
    rounds_keep(label, &t);
  }
  spread_t pt = spread_of(&t, q_primal), gp = spread_of(&t, q_ratio);
  if (rank_ == 0)
    printf("| mpi_heat2d_%dx%dx%d | %d | %s (%.1e; %.1e) | %.3f | %.2f (%.2f-%.2f) |\n", NG, NX, STEPS,
           nranks, wrong ? "WRONG" : "ok", es, ef, 1e3 * pt.fig, gp.fig, gp.lo, gp.hi);
  MPI_Finalize();
  return wrong;
}
