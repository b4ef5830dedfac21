// MPI calls inside an OpenMP parallel region (MPI_THREAD_MULTIPLE): each
// rank holds NP rows of a field, each row a 1-D heat equation decomposed
// over the ranks; a `parallel for` over the rows runs each row's whole
// time loop on one thread, exchanging that row's halos with
// MPI_Isend/MPI_Irecv (tags of its own) and MPI_Waitall, so the threads
// push, claim and pop records of nonblocking calls at the same time, in
// the augmented forward pass, the reverse and forward mode. Each thread
// also sends the same shared value (a source term from row 0) with
// MPI_Send, so the reverse adds the adjoints of several threads into one
// shadow location (atomically). Gradient
// checked against the serial solver of every row, central differences of
// the same MPI program, and forward mode against the gradient; np 1 and 2,
// 1 and 2 threads. A longer run (300 steps, no finite differences) with 2
// threads and np 2 keeps thousands of records pending at once; before the
// list had a lock, it hung or gave wrong gradients in about one run of
// three.
// REQUIRES: mpi, openmp
// RUN: %ltclang %openmp %mpiflags -O0 %s -o %t.O0 -lm %mpilibs
// RUN: env OMP_NUM_THREADS=1 %mpirun 1 %t.O0 && env OMP_NUM_THREADS=2 %mpirun 1 %t.O0
// RUN: env OMP_NUM_THREADS=1 %mpirun 2 %t.O0 && env OMP_NUM_THREADS=2 %mpirun 2 %t.O0
// RUN: %ltclang %openmp %mpiflags -O2 %s -o %t.O2 -lm %mpilibs
// RUN: env OMP_NUM_THREADS=1 %mpirun 1 %t.O2 && env OMP_NUM_THREADS=2 %mpirun 1 %t.O2
// RUN: env OMP_NUM_THREADS=1 %mpirun 2 %t.O2 && env OMP_NUM_THREADS=2 %mpirun 2 %t.O2
// RUN: %ltclang %openmp %mpiflags -O2 -DSTEPS=300 -DSTRESS %s -o %t.stress -lm %mpilibs
// RUN: env OMP_NUM_THREADS=2 %mpirun 2 %t.stress && env OMP_NUM_THREADS=2 %mpirun 2 %t.stress
// RUN: env OMP_NUM_THREADS=2 %mpirun 2 %t.stress

#include "mpicheck.h"
#include <leantape.h>
#include <math.h>
#include <omp.h>
#include <stdlib.h>

double __enzyme_fwddiff(void *, ...);

#define NP 4 /* rows */
#define NL 5 /* cells per row and rank */
#ifndef STEPS
#define STEPS 6
#endif
#define W (NL + 2)

/* u0: this rank's NP x NL cells; returns the energy of all rows and ranks
 * (on rank 0; 0 elsewhere). */
double heat(double *u0, double k, MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  double *u = malloc(NP * W * sizeof *u), *v = malloc(NP * W * sizeof *v), e[NP];
  double *src = malloc(sizeof *src); /* shared by the team */
  src[0] = 0.3 * u0[0] * u0[0];
#pragma omp parallel for schedule(static)
  for (int j = 0; j < NP; j++) {
    double *uj = u + j * W, *vj = v + j * W, got = 0;
    for (int i = 0; i < NL; i++)
      uj[i + 1] = u0[j * NL + i];
    uj[0] = uj[NL + 1] = 0;
    if (r < p - 1)
      MPI_Send(src, 1, MPI_DOUBLE, r + 1, 10 * j + 5, comm);
    if (r > 0)
      MPI_Recv(&got, 1, MPI_DOUBLE, r - 1, 10 * j + 5, comm, MPI_STATUS_IGNORE);
    uj[1] += got;
    for (int s = 0; s < STEPS; s++) {
      MPI_Request req[4];
      int nr = 0;
      if (r > 0) {
        MPI_Irecv(&uj[0], 1, MPI_DOUBLE, r - 1, 10 * j + 1, comm, &req[nr++]);
        MPI_Isend(&uj[1], 1, MPI_DOUBLE, r - 1, 10 * j + 2, comm, &req[nr++]);
      }
      if (r < p - 1) {
        MPI_Irecv(&uj[NL + 1], 1, MPI_DOUBLE, r + 1, 10 * j + 2, comm, &req[nr++]);
        MPI_Isend(&uj[NL], 1, MPI_DOUBLE, r + 1, 10 * j + 1, comm, &req[nr++]);
      }
      MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
      for (int i = 1; i <= NL; i++)
        vj[i] = uj[i] + k * (uj[i - 1] - 2 * uj[i] + uj[i + 1]) - 0.01 * sin(uj[i]);
      for (int i = 1; i <= NL; i++)
        uj[i] = vj[i];
    }
    double ej = 0;
    for (int i = 1; i <= NL; i++)
      ej += uj[i] * uj[i];
    e[j] = ej;
  }
  double loc = 0, tot;
  for (int j = 0; j < NP; j++)
    loc += e[j];
  MPI_Allreduce(&loc, &tot, 1, MPI_DOUBLE, MPI_SUM, comm);
  free(u);
  free(v);
  free(src);
  return r == 0 ? tot : 0.0;
}

/* the time loop on one row of n cells u[1..n] (u[0], u[n + 1] zero): the
 * final energy */
static double row(double *u, double *v, double k, int n) {
  for (int s = 0; s < STEPS; s++) {
    for (int i = 1; i <= n; i++)
      v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.01 * sin(u[i]);
    for (int i = 1; i <= n; i++)
      u[i] = v[i];
  }
  double e = 0;
  for (int i = 1; i <= n; i++)
    e += u[i] * u[i];
  return e;
}

/* every row, serially: U0[j * n + g] is cell g of row j (n = NL * p) */
double serial(double *U0, double k, int n) {
  double *u = calloc(n + 2, sizeof *u), *v = malloc((n + 2) * sizeof *v), e = 0;
  for (int j = 0; j < NP; j++) {
    for (int i = 0; i < n; i++)
      u[i + 1] = U0[j * n + i];
    for (int b = NL; b < n; b += NL) /* the source term of the rank before */
      u[b + 1] += 0.3 * U0[b - NL] * U0[b - NL];
    e += row(u, v, k, n);
  }
  free(u);
  free(v);
  return e;
}

static double value(double *x, void *k) {
  double e = heat(x, *(double *)k, MPI_COMM_WORLD);
  MPI_Bcast(&e, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return e;
}

static double value_k(double *k, void *u0) { return value(u0, k); }

static double init(int j, int g) { return sin(0.7 * g + 0.3 + j) + 0.1 * g - 0.05 * j; }

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, &provided);
  lt_mpi_watchdog(300);
  if (provided < MPI_THREAD_MULTIPLE) {
    printf("FAIL this MPI does not provide MPI_THREAD_MULTIPLE\n");
    MPI_Abort(MPI_COMM_WORLD, 1);
  }
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  int team = 0;
#pragma omp parallel
#pragma omp single
  team = omp_get_num_threads();
  const char *want = getenv("OMP_NUM_THREADS");
  lt_check("team size", team, want ? atoi(want) : team, 0, 0);

  double u0[NP * NL], du0[NP * NL] = {0}, k = 0.2;
  for (int j = 0; j < NP; j++)
    for (int i = 0; i < NL; i++)
      u0[j * NL + i] = init(j, r * NL + i);
  double dk = lt_mpi_sum(
      __enzyme_autodiff((void *)heat, u0, du0, k, enzyme_const, MPI_COMM_WORLD), MPI_COMM_WORLD);

  int n = NL * p;
  double *U = malloc(NP * n * sizeof *U), *dU = calloc(NP * n, sizeof *dU);
  for (int j = 0; j < NP; j++)
    for (int g = 0; g < n; g++)
      U[j * n + g] = init(j, g);
  double dks = __enzyme_autodiff((void *)serial, U, dU, k, enzyme_const, n);
  for (int j = 0; j < NP; j++)
    lt_mpi_same("du0 vs serial", du0 + j * NL, dU + j * n, r * NL, NL, 1e-12, 1e-14);
  lt_check("dk vs serial", dk, dks, 1e-12, 1e-14);

#ifndef STRESS /* the long run: many records at once, checked against the serial solver */
  lt_mpi_fd("du0", value, &k, u0, du0, NP * NL, 3, 1e-6, 1e-7, MPI_COMM_WORLD);
  double kp = k + 1e-6, km = k - 1e-6;
  lt_check("dk vs fd", dk, (value_k(&kp, u0) - value_k(&km, u0)) / (kp - km), 1e-6, 1e-7);
#endif

  double w[NP * NL], dot = 0;
  for (int i = 0; i < NP * NL; i++) {
    w[i] = cos(1.3 * (r * NP * NL + i));
    dot += w[i] * du0[i];
  }
  double all = lt_mpi_sum(dot, MPI_COMM_WORLD);
  double t = __enzyme_fwddiff((void *)heat, u0, w, k, 1.0, enzyme_const, MPI_COMM_WORLD);
  if (r == 0)
    lt_check("fwd vs grad", t, all + dk, 1e-11, 1e-12);
  free(U);
  free(dU);
  MPI_Finalize();
  return lt_done();
}
