// Receives from MPI_PROC_NULL leave the buffer as it was, so its adjoint
// must stay: halos that hold an active value before a non-periodic
// exchange (h = x[0] on the first rank keeps x[0]). The reverse sent the
// halo's adjoint to MPI_PROC_NULL and zeroed it anyway: the derivative
// through the value kept was lost, silently (fuzz --mpi seeds 3, 13, 21 at
// every -O level). MPI_Sendrecv, MPI_Recv after MPI_Send, and
// MPI_Irecv / MPI_Isend with MPI_Waitall; on 1, 2 and 3 ranks (one rank:
// both ends are MPI_PROC_NULL). Checked against the serial program's
// gradient and central differences; forward mode against the gradient.
// REQUIRES: mpi
// RUN: %ltclang %mpiflags -O0 %s -o %t.O0 -lm %mpilibs
// RUN: %mpirun 1 %t.O0 && %mpirun 2 %t.O0 && %mpirun 3 %t.O0
// RUN: %ltclang %mpiflags -O2 %s -o %t.O2 -lm %mpilibs
// RUN: %mpirun 1 %t.O2 && %mpirun 2 %t.O2 && %mpirun 3 %t.O2

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
  int left = r > 0 ? r - 1 : MPI_PROC_NULL, right = r < p - 1 ? r + 1 : MPI_PROC_NULL;
  /* Sendrecv: x[N-1] to the right, from the left into a halo holding x[0] */
  double hl = x[0] * x[0];
  MPI_Sendrecv(&x[N - 1], 1, MPI_DOUBLE, right, 3, &hl, 1, MPI_DOUBLE, left, 3, comm,
               MPI_STATUS_IGNORE);
  /* blocking: x[0] to the left, from the right into a halo holding sin(x[1]) */
  double hr = sin(x[1]);
  MPI_Send(&x[0], 1, MPI_DOUBLE, left, 4, comm);
  MPI_Recv(&hr, 1, MPI_DOUBLE, right, 4, comm, MPI_STATUS_IGNORE);
  /* nonblocking: both ways at once into halos holding x[2] and x[3]^2 */
  double a = x[2], b = x[3] * x[3], s0 = x[1] * x[2], s1 = x[0] + x[3];
  MPI_Request q[4];
  MPI_Irecv(&a, 1, MPI_DOUBLE, left, 5, comm, &q[0]);
  MPI_Irecv(&b, 1, MPI_DOUBLE, right, 6, comm, &q[1]);
  MPI_Isend(&s0, 1, MPI_DOUBLE, right, 5, comm, &q[2]);
  MPI_Isend(&s1, 1, MPI_DOUBLE, left, 6, comm, &q[3]);
  MPI_Waitall(4, q, MPI_STATUSES_IGNORE);
  double loc = hl * x[1] + hr * x[2] + a * cos(x[0]) + b * x[3];
  double tot;
  MPI_Allreduce(&loc, &tot, 1, MPI_DOUBLE, MPI_SUM, comm);
  return tot;
}

double serial(double *X, int p) {
  double tot = 0;
  for (int r = 0; r < p; r++) {
    double *x = X + r * N, *xl = r > 0 ? X + (r - 1) * N : NULL,
           *xr = r < p - 1 ? X + (r + 1) * N : NULL;
    double hl = xl ? xl[N - 1] : x[0] * x[0];
    double hr = xr ? xr[0] : sin(x[1]);
    double a = xl ? xl[1] * xl[2] : x[2];
    double b = xr ? xr[0] + xr[3] : x[3] * x[3];
    tot += hl * x[1] + hr * x[2] + a * cos(x[0]) + b * x[3];
  }
  return tot;
}

static double value(double *x, void *ctx) { return f(x, *(MPI_Comm *)ctx); }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  lt_mpi_watchdog(60);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  MPI_Comm comm = MPI_COMM_WORLD;
  double x[N], dx[N] = {0}, v[N];
  for (int i = 0; i < N; i++)
    x[i] = lt_mpi_init(r, i);
  /* every rank seeds its own result: the gradient of p times the total */
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, comm);
  for (int i = 0; i < N; i++)
    dx[i] /= p;
  double *X = lt_mpi_domain(p, N, lt_mpi_init), *dX = calloc(p * N, sizeof *dX);
  __enzyme_autodiff((void *)serial, X, dX, enzyme_const, p);
  lt_mpi_same("grad vs serial", dx, dX, r * N, N, 1e-12, 1e-12);
  lt_mpi_fd("grad", value, &comm, x, dx, N, 1, 1e-6, 1e-7, comm);
  lt_mpi_dir(v, N, comm);
  double t = __enzyme_fwddiff((void *)f, x, v, enzyme_const, comm);
  lt_mpi_fwd_vs_grad(t, v, dx, N, 1e-12, comm);
  free(X);
  free(dX);
  MPI_Finalize();
  return lt_done();
}
