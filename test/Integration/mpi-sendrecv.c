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

#include "check.h"
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

static double value(double *x, MPI_Comm comm) {
  double v = f(x, comm);
  MPI_Bcast(&v, 1, MPI_DOUBLE, 0, comm);
  return v;
}

static double init(int r, int i) { return 0.3 + 0.1 * r - 0.07 * i + 0.01 * r * i; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = init(r, i);
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, MPI_COMM_WORLD);
  double *X = malloc(p * N * sizeof *X), *dX = calloc(p * N, sizeof *dX);
  for (int q = 0; q < p; q++)
    for (int i = 0; i < N; i++)
      X[q * N + i] = init(q, i);
  __enzyme_autodiff((void *)serial, X, dX, enzyme_const, p);
  for (int i = 0; i < N; i++)
    lt_check("grad vs serial", dx[i], dX[r * N + i], 1e-12, 1e-12);
  for (int q = 0; q < p; q++)
    for (int i = 0; i < N; i++) {
      double h = 1e-6, keep = x[i];
      if (r == q)
        x[i] = keep + h;
      double fp = value(x, MPI_COMM_WORLD);
      if (r == q)
        x[i] = keep - h;
      double fm = value(x, MPI_COMM_WORLD);
      x[i] = keep;
      if (r == q)
        lt_check("grad vs fd", dx[i], (fp - fm) / (2 * h), 1e-6, 1e-7);
    }
  double v[N], dot = 0, all;
  for (int i = 0; i < N; i++) {
    v[i] = 0.5 - 0.1 * i + 0.05 * r;
    dot += v[i] * dx[i];
  }
  MPI_Allreduce(&dot, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double tf = __enzyme_fwddiff((void *)f, x, v, enzyme_const, MPI_COMM_WORLD);
  if (r == 0)
    lt_check("fwd vs grad", tf, all, 1e-12, 1e-12);
  free(X);
  free(dX);
  MPI_Finalize();
  return lt_done();
}
