// MPI_Allreduce with MPI_MAX and MPI_Reduce with MPI_MIN of active data:
// the adjoint of each element goes to the rank whose value won (ties to
// the lowest rank, as MPI_MAXLOC/MINLOC break them), and a float
// MPI_Allreduce(MPI_MIN). Checked on every rank against the serial
// program's gradient (whose max/min loops keep the first rank on ties),
// against central differences away from the tie, and forward mode
// against the gradient.
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
#define TIE 3 /* x[TIE] is the same on every rank */

static double y_of(double x) { return x * x + sin(x); }

/* F = sum_r sum_i max_i x_r[i] + sum_i (min_i)^2 + min_r (float)(x_r[0] x_r[1]) */
double f(double *x, MPI_Comm comm) {
  int r;
  MPI_Comm_rank(comm, &r);
  double y[N], mx[N], mn[N], loc = 0, tot;
  for (int i = 0; i < N; i++)
    y[i] = y_of(x[i]);
  MPI_Allreduce(y, mx, N, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Reduce(y, mn, N, MPI_DOUBLE, MPI_MIN, 0, comm);
  float a = (float)(x[0] * x[1]), amin;
  MPI_Allreduce(&a, &amin, 1, MPI_FLOAT, MPI_MIN, comm);
  for (int i = 0; i < N; i++)
    loc += mx[i] * x[i];
  MPI_Allreduce(&loc, &tot, 1, MPI_DOUBLE, MPI_SUM, comm);
  double q = 0;
  for (int i = 0; i < N; i++)
    q += mn[i] * mn[i];
  return r == 0 ? tot + q + (double)amin : 0.0;
}

double serial(double *X, int p) {
  double tot = 0, q = 0;
  for (int i = 0; i < N; i++) {
    double mx = y_of(X[i]), mn = mx;
    for (int r = 1; r < p; r++) {
      double v = y_of(X[r * N + i]);
      if (v > mx)
        mx = v;
      if (v < mn)
        mn = v;
    }
    for (int r = 0; r < p; r++)
      tot += mx * X[r * N + i];
    q += mn * mn;
  }
  float amin = (float)(X[0] * X[1]);
  for (int r = 1; r < p; r++) {
    float a = (float)(X[r * N] * X[r * N + 1]);
    if (a < amin)
      amin = a;
  }
  return tot + q + (double)amin;
}

static double value(double *x, MPI_Comm comm) {
  double v = f(x, comm);
  MPI_Bcast(&v, 1, MPI_DOUBLE, 0, comm);
  return v;
}

/* odd elements grow with the rank, even ones shrink: MAX and MIN have
 * different winners */
static double init(int r, int i) {
  return i == TIE ? 0.5 : 0.3 + 0.07 * i + (i % 2 ? 0.1 : -0.08) * r;
}

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double x[N], dx[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = init(r, i);
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, MPI_COMM_WORLD);

  double *X = lt_mpi_domain(p, N, init), *dX = calloc(p * N, sizeof *dX);
  __enzyme_autodiff((void *)serial, X, dX, enzyme_const, p);
  lt_mpi_same("grad vs serial", dx, dX, r * N, N, 1e-12, 1e-12);

  /* central differences; the float part and the tie are left out */
  for (int q = 0; q < p; q++)
    for (int i = 2; i < N; i++) {
      if (i == TIE)
        continue;
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

  double v[N];
  lt_mpi_dir(v, N, MPI_COMM_WORLD);
  /* the float term's tangent is a float: 1e-7 */
  lt_mpi_fwd_vs_grad(__enzyme_fwddiff((void *)f, x, v, enzyme_const, MPI_COMM_WORLD), v, dx, N,
                     1e-7, MPI_COMM_WORLD);
  free(X);
  free(dX);
  MPI_Finalize();
  return lt_done();
}
