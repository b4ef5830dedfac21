// MPI_Sendrecv inside a differentiated function: a periodic ring shift of
// a vector and a non-periodic halo exchange whose ends talk to
// MPI_PROC_NULL (the halo keeps its value there). The reverse of a
// Sendrecv is a Sendrecv with the peers swapped. Checked on every rank
// against the serial program's gradient and central differences; forward
// mode against the gradient.
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

#define N 4

double f(double *x, MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  double y[N], z[N], hl = 0, hr = 0, loc = 0, tot;
  for (int i = 0; i < N; i++)
    y[i] = x[i] * x[i] + sin(x[i]);
  MPI_Sendrecv(y, N, MPI_DOUBLE, (r + 1) % p, 5, z, N, MPI_DOUBLE, (r - 1 + p) % p, 5, comm,
               MPI_STATUS_IGNORE);
  int left = r > 0 ? r - 1 : MPI_PROC_NULL, right = r < p - 1 ? r + 1 : MPI_PROC_NULL;
  MPI_Status st;
  MPI_Sendrecv(&x[N - 1], 1, MPI_DOUBLE, right, 7, &hl, 1, MPI_DOUBLE, left, 7, comm, &st);
  MPI_Sendrecv(&x[0], 1, MPI_DOUBLE, left, 8, &hr, 1, MPI_DOUBLE, right, 8, comm, &st);
  for (int i = 0; i < N; i++)
    loc += z[i] * x[i];
  loc += hl * x[0] * x[0] + hr * sin(x[N - 1]);
  MPI_Allreduce(&loc, &tot, 1, MPI_DOUBLE, MPI_SUM, comm);
  return r == 0 ? tot : 0.0;
}

double serial(double *X, int p) {
  double tot = 0;
  for (int r = 0; r < p; r++) {
    double *x = X + r * N, *xf = X + ((r - 1 + p) % p) * N;
    for (int i = 0; i < N; i++)
      tot += (xf[i] * xf[i] + sin(xf[i])) * x[i];
    double hl = r > 0 ? X[(r - 1) * N + N - 1] : 0, hr = r < p - 1 ? X[(r + 1) * N] : 0;
    tot += hl * x[0] * x[0] + hr * sin(x[N - 1]);
  }
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
