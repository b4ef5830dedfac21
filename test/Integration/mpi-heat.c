// The flagship MPI example: a 1-D heat equation u_t = k u_xx (explicit
// Euler, fixed ends) decomposed over ranks, halos exchanged with
// MPI_Isend/MPI_Irecv and MPI_Waitall every step, the energy summed with
// MPI_Allreduce; differentiated with respect to the initial field (dup)
// and the conductivity (active scalar, summed over ranks). Checked on
// every rank against the serial solver's gradient and central differences
// of the same MPI program; forward mode against the gradient.
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
#include <string.h>

double __enzyme_fwddiff(void *, ...);

#define NL 4    /* cells per rank */
#define STEPS 6

/* u: this rank's NL cells; returns sum of u^2 over all ranks at the end
 * (on rank 0; 0 elsewhere). */
double heat(double *u0, double k, MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  double *u = malloc((NL + 2) * sizeof *u), *v = malloc((NL + 2) * sizeof *v);
  for (int i = 0; i < NL; i++)
    u[i + 1] = u0[i];
  u[0] = u[NL + 1] = 0; /* fixed ends at the outer boundary */
  for (int s = 0; s < STEPS; s++) {
    MPI_Request req[4];
    int nr = 0;
    if (r > 0) {
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, r - 1, 1, comm, &req[nr++]);
      MPI_Isend(&u[1], 1, MPI_DOUBLE, r - 1, 2, comm, &req[nr++]);
    }
    if (r < p - 1) {
      MPI_Irecv(&u[NL + 1], 1, MPI_DOUBLE, r + 1, 2, comm, &req[nr++]);
      MPI_Isend(&u[NL], 1, MPI_DOUBLE, r + 1, 1, comm, &req[nr++]);
    }
    MPI_Waitall(nr, req, MPI_STATUSES_IGNORE);
    for (int i = 1; i <= NL; i++)
      v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]);
    for (int i = 1; i <= NL; i++)
      u[i] = v[i];
  }
  double e = 0, tot;
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
      v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]);
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

static double value(double *u0, double k, MPI_Comm comm) {
  double e = heat(u0, k, comm);
  MPI_Bcast(&e, 1, MPI_DOUBLE, 0, comm);
  return e;
}

static double init(int g) { return sin(0.7 * g + 0.3) + 0.1 * g; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double u0[NL], du0[NL] = {0}, k = 0.2;
  for (int i = 0; i < NL; i++)
    u0[i] = init(r * NL + i);
  double dk_local = __enzyme_autodiff((void *)heat, u0, du0, k, enzyme_const, MPI_COMM_WORLD);
  double dk;
  MPI_Allreduce(&dk_local, &dk, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);

  int n = NL * p;
  double *U = malloc(n * sizeof *U), *dU = calloc(n, sizeof *dU);
  for (int g = 0; g < n; g++)
    U[g] = init(g);
  double dks = __enzyme_autodiff((void *)serial, U, dU, k, enzyme_const, n);
  for (int i = 0; i < NL; i++)
    lt_check("du0 vs serial", du0[i], dU[r * NL + i], 1e-11, 1e-12);
  lt_check("dk vs serial", dk, dks, 1e-11, 1e-12);

  for (int q = 0; q < p; q++)
    for (int i = 0; i < NL; i++) {
      double h = 1e-6, keep = u0[i];
      if (r == q)
        u0[i] = keep + h;
      double fp = value(u0, k, MPI_COMM_WORLD);
      if (r == q)
        u0[i] = keep - h;
      double fm = value(u0, k, MPI_COMM_WORLD);
      u0[i] = keep;
      if (r == q)
        lt_check("du0 vs fd", du0[i], (fp - fm) / (2 * h), 1e-6, 1e-7);
    }
  double h = 1e-6;
  double fk = (value(u0, k + h, MPI_COMM_WORLD) - value(u0, k - h, MPI_COMM_WORLD)) / (2 * h);
  lt_check("dk vs fd", dk, fk, 1e-6, 1e-7);

  /* forward mode: tangent of u0 along w, of k (shared by all ranks)
   * along 1 */
  double w[NL], dot = 0, all;
  for (int i = 0; i < NL; i++) {
    w[i] = cos(1.3 * (r * NL + i));
    dot += w[i] * du0[i];
  }
  MPI_Allreduce(&dot, &all, 1, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
  double tk = 1.0;
  double t = __enzyme_fwddiff((void *)heat, u0, w, k, tk, enzyme_const, MPI_COMM_WORLD);
  if (r == 0)
    lt_check("fwd vs grad", t, all + dk, 1e-11, 1e-12);
  free(U);
  free(dU);
  MPI_Finalize();
  return lt_done();
}
