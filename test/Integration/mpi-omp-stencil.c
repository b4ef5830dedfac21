// MPI across ranks and OpenMP inside each rank: a 1-D explicit heat
// stencil whose local update is a `#pragma omp parallel for` and whose
// halo exchange is MPI_Sendrecv (MPI_PROC_NULL at the outer ends), the
// energy summed by an OpenMP reduction and MPI_Allreduce. Differentiated
// with respect to the initial field and the conductivity, at np 1 and 2
// with 1 and 2 threads per rank; checked against the serial solver of the
// whole domain (1e-12 relative), central differences of the same MPI
// program, and forward mode against the gradient.
// REQUIRES: mpi, openmp
// RUN: %ltclang %openmp %mpiflags -O0 %s -o %t.O0 -lm %mpilibs
// RUN: env OMP_NUM_THREADS=1 %mpirun 1 %t.O0 && env OMP_NUM_THREADS=2 %mpirun 1 %t.O0
// RUN: env OMP_NUM_THREADS=1 %mpirun 2 %t.O0 && env OMP_NUM_THREADS=2 %mpirun 2 %t.O0
// RUN: %ltclang %openmp %mpiflags -O2 %s -o %t.O2 -lm %mpilibs
// RUN: env OMP_NUM_THREADS=1 %mpirun 1 %t.O2 && env OMP_NUM_THREADS=2 %mpirun 1 %t.O2
// RUN: env OMP_NUM_THREADS=1 %mpirun 2 %t.O2 && env OMP_NUM_THREADS=2 %mpirun 2 %t.O2

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <mpi.h>
#include <stdlib.h>

double __enzyme_fwddiff(void *, ...);

#define NL 16 /* cells per rank */
#define STEPS 5

double heat(double *u0, double k, MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  int left = r > 0 ? r - 1 : MPI_PROC_NULL, right = r < p - 1 ? r + 1 : MPI_PROC_NULL;
  double *u = malloc((NL + 2) * sizeof *u), *v = malloc((NL + 2) * sizeof *v);
  for (int i = 0; i < NL; i++)
    u[i + 1] = u0[i];
  u[0] = u[NL + 1] = 0;
  for (int s = 0; s < STEPS; s++) {
    MPI_Sendrecv(&u[NL], 1, MPI_DOUBLE, right, 1, &u[0], 1, MPI_DOUBLE, left, 1, comm,
                 MPI_STATUS_IGNORE);
    MPI_Sendrecv(&u[1], 1, MPI_DOUBLE, left, 2, &u[NL + 1], 1, MPI_DOUBLE, right, 2, comm,
                 MPI_STATUS_IGNORE);
#pragma omp parallel for schedule(static)
    for (int i = 1; i <= NL; i++)
      v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.01 * sin(u[i]);
#pragma omp parallel for schedule(static)
    for (int i = 1; i <= NL; i++)
      u[i] = v[i];
  }
  double e = 0, tot;
#pragma omp parallel for reduction(+ : e) schedule(static)
  for (int i = 1; i <= NL; i++)
    e += u[i] * u[i];
  MPI_Allreduce(&e, &tot, 1, MPI_DOUBLE, MPI_SUM, comm);
  free(u);
  free(v);
  return r == 0 ? tot : 0.0;
}

double serial(double *u0, double k, int n) {
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

static double value(double *u0, double k) {
  double e = heat(u0, k, MPI_COMM_WORLD);
  MPI_Bcast(&e, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return e;
}

static double init(int g) { return sin(0.7 * g + 0.3) + 0.1 * g; }

int main(int argc, char **argv) {
  int provided;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double u0[NL], du0[NL] = {0}, k = 0.2;
  for (int i = 0; i < NL; i++)
    u0[i] = init(r * NL + i);
  double dkl = __enzyme_autodiff((void *)heat, u0, du0, k, enzyme_const, MPI_COMM_WORLD), dk;
  MPI_Allreduce(&dkl, &dk, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

  int n = NL * p;
  double *U = malloc(n * sizeof *U), *dU = calloc(n, sizeof *dU);
  for (int g = 0; g < n; g++)
    U[g] = init(g);
  double dks = __enzyme_autodiff((void *)serial, U, dU, k, enzyme_const, n);
  for (int i = 0; i < NL; i++)
    lt_check("du0 vs serial", du0[i], dU[r * NL + i], 1e-12, 1e-14);
  lt_check("dk vs serial", dk, dks, 1e-12, 1e-14);

  for (int q = 0; q < p; q++)
    for (int i = 0; i < NL; i += 5) {
      double h = 1e-6, keep = u0[i];
      if (r == q)
        u0[i] = keep + h;
      double fp = value(u0, k);
      if (r == q)
        u0[i] = keep - h;
      double fm = value(u0, k);
      u0[i] = keep;
      if (r == q)
        lt_check("du0 vs fd", du0[i], (fp - fm) / (2 * h), 1e-6, 1e-7);
    }
  double h = 1e-6;
  lt_check("dk vs fd", dk, (value(u0, k + h) - value(u0, k - h)) / (2 * h), 1e-6, 1e-7);

  double w[NL], dot = 0, all, tk = 1.0;
  for (int i = 0; i < NL; i++) {
    w[i] = cos(1.3 * (r * NL + i));
    dot += w[i] * du0[i];
  }
  MPI_Allreduce(&dot, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double t = __enzyme_fwddiff((void *)heat, u0, w, k, tk, enzyme_const, MPI_COMM_WORLD);
  if (r == 0)
    lt_check("fwd vs grad", t, all + dk, 1e-11, 1e-12);
  free(U);
  free(dU);
  MPI_Finalize();
  return lt_done();
}
