/* mpi.c: MPI rows of the benchmark (issue 15, item 6).
 *
 * The heat example (test/Integration/mpi-heat.c, larger): a 1-D explicit
 * heat stencil over a fixed global domain split across the ranks, halos
 * exchanged with MPI_Isend/MPI_Irecv and MPI_Waitall each step, the energy
 * summed with MPI_Allreduce; its gradient with respect to the initial field
 * and the conductivity. run.sh runs it under mpirun at 1 and 2 ranks; each
 * run prints one row (the first, with --header, the table's header). Wall
 * clock (MPI_Wtime; a batch's time is the slowest rank's, all ranks start
 * it together after a barrier), interleaved rounds: a round times one
 * batch of the primal and one of the gradient; BENCH_GROUPS groups of
 * BENCH_REPS rounds give group medians, and each figure is the median of
 * those with their min-max. The gradient is checked against the serial
 * solver's (1e-12 relative) and against central differences. */
#include <leantape.h>
#include <math.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "measure.h"

#define KERNEL __attribute__((noinline))
#define NG 40000 /* cells of the whole domain */
#define STEPS 10

static int rank_, nranks, nl; /* nl: this rank's cells */

KERNEL double heat_k(double *u0, double k, int n, MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  double *u = malloc((n + 2) * sizeof *u), *v = malloc((n + 2) * sizeof *v);
  for (int i = 0; i < n; i++)
    u[i + 1] = u0[i];
  u[0] = u[n + 1] = 0;
  for (int s = 0; s < STEPS; s++) {
    MPI_Request req[4];
    int nr = 0;
    if (r > 0) {
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, r - 1, 1, comm, &req[nr++]);
      MPI_Isend(&u[1], 1, MPI_DOUBLE, r - 1, 2, comm, &req[nr++]);
    }
    if (r < p - 1) {
      MPI_Irecv(&u[n + 1], 1, MPI_DOUBLE, r + 1, 2, comm, &req[nr++]);
      MPI_Isend(&u[n], 1, MPI_DOUBLE, r + 1, 1, comm, &req[nr++]);
    }
    MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
    for (int i = 1; i <= n; i++)
      v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.01 * sin(u[i]);
    for (int i = 1; i <= n; i++)
      u[i] = v[i];
  }
  double e = 0, tot;
  for (int i = 1; i <= n; i++)
    e += u[i] * u[i];
  MPI_Allreduce(&e, &tot, 1, MPI_DOUBLE, MPI_SUM, comm);
  free(u);
  free(v);
  return r == 0 ? tot : 0.0;
}

KERNEL double heat_serial(double *u0, double k, int n) {
  double *u = calloc(n + 2, sizeof *u), *v = malloc((n + 2) * sizeof *v);
  for (int i = 0; i < n; i++)
    u[i + 1] = u0[i];
  for (int s = 0; s < STEPS; s++) {
    for (int i = 1; i <= n; i++)
      v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.01 * sin(u[i]);
    for (int i = 1; i <= n; i++)
      u[i] = v[i];
  }
  double e = 0;
  for (int i = 1; i <= n; i++)
    e += u[i] * u[i];
  free(u);
  free(v);
  return e;
}

static double *u0, *du0, K = 0.2, dK;
static volatile double sink;

static double init(int g) { return sin(0.7 * g + 0.3) * 0.5; }
static void primal(void) { sink = heat_k(u0, K, nl, MPI_COMM_WORLD); }
static void grad(void) {
  memset(du0, 0, sizeof(double) * nl);
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
  double *U = malloc(sizeof(double) * NG), *dU = calloc(NG, sizeof(double));
  for (int g = 0; g < NG; g++)
    U[g] = init(g);
  double dks = heat_serial_grad(U, dU);
  double es = fabs(dk - dks) / fabs(dks), ef = 0;
  for (int i = 0; i < nl; i++)
    es = fmax(es, fabs(du0[i] - dU[rank_ * nl + i]) / fmax(fabs(dU[rank_ * nl + i]), 1e-300));
  for (int s = 0; s < 3; s++) {
    int g = s * (NG - 1) / 2, owner = g / nl, i = g % nl;
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

static spread_t spread(double t[MAXG][MAXR][2], int groups, int reps, int ratio) {
  double gm[MAXG], v[MAXR];
  for (int g = 0; g < groups; g++) {
    for (int r = 0; r < reps; r++)
      v[r] = ratio ? t[g][r][1] / t[g][r][0] : t[g][r][0];
    gm[g] = median(v, reps);
  }
  spread_t s;
  s.med = median(gm, groups); /* sorts gm */
  s.lo = gm[0];
  s.hi = gm[groups - 1];
  return s;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank_);
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  nl = NG / nranks;
  if (nl * nranks != NG) {
    if (rank_ == 0)
      fprintf(stderr, "mpibench: %d ranks do not divide %d cells\n", nranks, NG);
    MPI_Abort(MPI_COMM_WORLD, 2);
  }
  u0 = malloc(sizeof(double) * nl), du0 = malloc(sizeof(double) * nl);
  for (int i = 0; i < nl; i++)
    u0[i] = init(rank_ * nl + i);
  int groups = bench_groups(), reps = bench_reps();
  if (rank_ == 0 && argc > 1 && !strcmp(argv[1], "--header")) {
    printf("MPI (wall clock, MPI_Wtime; the slowest rank's time per batch; median (min-max) of "
           "%d group medians of %d interleaved rounds):\n\n", groups, reps);
    printf("| kernel | ranks | grad ok (vs serial; vs central differences) | primal ms |"
           " grad/primal |\n");
    printf("|---|---|---|---|---|\n");
  }
  double es, ef;
  check(&es, &ef);
  int wrong = !(es <= 1e-12 && ef <= 1e-5);
  long bp = calibrate_all(primal, 0.05), bg = calibrate_all(grad, 0.05);
  static double t[MAXG][MAXR][2];
  for (int g = 0; g < groups; g++) {
    for (int r = 0; r < reps; r++) {
      t[g][r][0] = batch_all(primal, bp);
      t[g][r][1] = batch_all(grad, bg);
    }
    load_sample();
  }
  spread_t pt = spread(t, groups, reps, 0), gp = spread(t, groups, reps, 1);
  if (rank_ == 0)
    printf("| mpi_heat_%dx%d | %d | %s (%.1e; %.1e) | %.3f | %.2f (%.2f-%.2f) |\n", NG, STEPS,
           nranks, wrong ? "WRONG" : "ok", es, ef, 1e3 * pt.med, gp.med, gp.lo, gp.hi);
  MPI_Finalize();
  return wrong;
}
