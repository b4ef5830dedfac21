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

#include "check.h"
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
