// MPI inside a differentiated function, blocking calls: a ring of
// MPI_Send/MPI_Recv (even ranks send first) on a duplicated communicator,
// MPI_Allreduce, MPI_Bcast and MPI_Reduce with MPI_SUM, and integer data
// (no derivative). The gradient on each rank is checked against the
// serial program's gradient and against central differences computed by
// the same MPI program; forward mode against the gradient.
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

#define N 5

/* F = sum_r sum_i z_r[i] x_r[i] * s + sum_r x_r[N-1]^2, where
 * y = x^2 + sin x, z_r = y_{r-1} (ring), s = x_0[0]; returned on rank 0. */
double f(double *x, MPI_Comm comm) {
  int r, p, cnt = N;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  double *y = malloc(N * sizeof *y), *z = malloc(N * sizeof *z);
  for (int i = 0; i < N; i++)
    y[i] = x[i] * x[i] + sin(x[i]);
  int to = (r + 1) % p, from = (r - 1 + p) % p;
  if (p == 1) {
    for (int i = 0; i < N; i++)
      z[i] = y[i];
  } else if (r % 2 == 0) {
    MPI_Send(y, N, MPI_DOUBLE, to, 3, comm);
    MPI_Recv(z, N, MPI_DOUBLE, from, 3, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Status st;
    MPI_Recv(z, N, MPI_DOUBLE, from, 3, comm, &st);
    MPI_Send(y, N, MPI_DOUBLE, to, 3, comm);
  }
  /* integer data: no derivative */
  MPI_Bcast(&cnt, 1, MPI_INT, 0, comm);
  double loc = 0, tot, q = x[cnt - 1] * x[cnt - 1], qs = 0;
  for (int i = 0; i < N; i++)
    loc += z[i] * x[i];
  MPI_Allreduce(&loc, &tot, 1, MPI_DOUBLE, MPI_SUM, comm);
  double s = x[0];
  MPI_Bcast(&s, 1, MPI_DOUBLE, 0, comm);
  MPI_Reduce(&q, &qs, 1, MPI_DOUBLE, MPI_SUM, 0, comm);
  free(y);
  free(z);
  return r == 0 ? tot * s + qs : 0.0;
}

/* The same on all ranks' data X[p][N], serially. */
double serial(double *X, int p) {
  double tot = 0, qs = 0;
  for (int r = 0; r < p; r++)
    for (int i = 0; i < N; i++) {
      double *xf = X + ((r - 1 + p) % p) * N;
      tot += (xf[i] * xf[i] + sin(xf[i])) * X[r * N + i];
    }
  for (int r = 0; r < p; r++)
    qs += X[r * N + N - 1] * X[r * N + N - 1];
  return tot * X[0] + qs;
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
  MPI_Comm comm;
  MPI_Comm_dup(MPI_COMM_WORLD, &comm);
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
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
  MPI_Comm_free(&comm);
  MPI_Finalize();
  return lt_done();
}
