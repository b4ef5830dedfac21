// MPI_Gather, MPI_Scatter and MPI_Allgather inside a differentiated
// function: every rank's vector gathered on the root, products of its
// elements scattered back two per rank, and those allgathered. Reverse:
// a Scatter of the root's adjoint, a Gather, a reduce-scatter of the
// adjoints. Checked on every rank against the serial program's gradient
// and central differences; forward mode against the gradient.
// REQUIRES: mpi
// RUN: %ltclang %mpiflags -O0 %s -o %t.O0 -lm %mpilibs
// RUN: %mpirun 1 %t.O0 && %mpirun 2 %t.O0 && %mpirun 4 %t.O0
// RUN: %ltclang %mpiflags -O2 %s -o %t.O2 -lm %mpilibs
// RUN: %mpirun 1 %t.O2 && %mpirun 2 %t.O2 && %mpirun 4 %t.O2

#include "mpicheck.h"
#include <leantape.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

double __enzyme_fwddiff(void *, ...);

#define N 3
#define M 2 /* scattered per rank */

double f(double *x, MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  double y[N], back[M], loc = 0, tot;
  double *all = malloc(p * N * sizeof *all), *w = malloc(p * M * sizeof *w),
         *g = malloc(p * M * sizeof *g);
  for (int i = 0; i < N; i++)
    y[i] = x[i] * x[i] + sin(x[i]);
  MPI_Gather(y, N, MPI_DOUBLE, all, N, MPI_DOUBLE, 0, comm);
  if (r == 0)
    for (int k = 0; k < p * M; k++)
      w[k] = all[k % (p * N)] * all[(3 * k + 1) % (p * N)];
  MPI_Scatter(w, M, MPI_DOUBLE, back, M, MPI_DOUBLE, 0, comm);
  MPI_Allgather(back, M, MPI_DOUBLE, g, M, MPI_DOUBLE, comm);
  for (int k = 0; k < p * M; k++)
    loc += g[k] * x[k % N] * (1 + 0.1 * k);
  loc += back[0] * x[1];
  MPI_Allreduce(&loc, &tot, 1, MPI_DOUBLE, MPI_SUM, comm);
  free(all);
  free(w);
  free(g);
  return r == 0 ? tot : 0.0;
}

double serial(double *X, int p) {
  double *all = malloc(p * N * sizeof *all), *w = malloc(p * M * sizeof *w), tot = 0;
  for (int j = 0; j < p * N; j++)
    all[j] = X[j] * X[j] + sin(X[j]);
  for (int k = 0; k < p * M; k++)
    w[k] = all[k % (p * N)] * all[(3 * k + 1) % (p * N)];
  for (int r = 0; r < p; r++) {
    for (int k = 0; k < p * M; k++)
      tot += w[k] * X[r * N + k % N] * (1 + 0.1 * k);
    tot += w[r * M] * X[r * N + 1];
  }
  free(all);
  free(w);
  return tot;
}

/* f's value, on every rank */
static double value(double *x, void *ctx) {
  MPI_Comm comm = *(MPI_Comm *)ctx;
  double v = f(x, comm);
  MPI_Bcast(&v, 1, MPI_DOUBLE, 0, comm);
  return v;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm comm = MPI_COMM_WORLD;
  double x[N], dx[N] = {0}, v[N];
  for (int i = 0; i < N; i++)
    x[i] = lt_mpi_init(r, i);
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, comm);
  double *X = lt_mpi_domain(p, N, lt_mpi_init), *dX = calloc(p * N, sizeof *dX);
  __enzyme_autodiff((void *)serial, X, dX, enzyme_const, p);
  lt_mpi_same("grad vs serial", dx, dX, r * N, N, 1e-12, 1e-12);
  lt_mpi_fd("grad", value, &comm, x, dx, N, 1, 1e-6, 1e-7, comm);
  lt_mpi_dir(v, N, comm);
  lt_mpi_fwd_vs_grad(__enzyme_fwddiff((void *)f, x, v, enzyme_const, comm), v, dx, N, 1e-12,
                     comm);
  free(X);
  free(dX);
  MPI_Finalize();
  return lt_done();
}
