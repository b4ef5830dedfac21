// Receives from MPI_ANY_SOURCE with MPI_ANY_TAG: the reverse sends the
// adjoint to the rank (and with the tag) the status reported, recorded in
// the augmented forward pass (in a status of Leantape's own when the user
// passes MPI_STATUS_IGNORE). Rank 0 receives every other rank's vector in
// arrival order (ignoring the status), then again with a source only known
// at run time (MPI_ANY_SOURCE passed in) and a status it reads; a ring of
// MPI_Sendrecv receives from MPI_ANY_SOURCE too. Checked on every rank
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

/* the three phases on communicators of their own, so that a wildcard of
 * one phase cannot match a message of another */
double f(double *x, int src, MPI_Comm c1, MPI_Comm c2, MPI_Comm c3) {
  int r, p;
  MPI_Comm_rank(c1, &r);
  MPI_Comm_size(c1, &p);
  double y[2] = {x[0] * x[1], sin(x[0]) + x[1]}, acc = 0, z = 0, zl, zs;
  if (r == 0) {
    for (int k = 1; k < p; k++) {
      double m[2];
      MPI_Recv(m, 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, c1, MPI_STATUS_IGNORE);
      acc += m[0] * m[1];
    }
    for (int k = 1; k < p; k++) {
      double m[2];
      MPI_Status st;
      MPI_Recv(m, 2, MPI_DOUBLE, src, 20, c2, &st);
      acc += (st.MPI_SOURCE + 1) * m[0] + st.MPI_TAG * m[1];
    }
    acc += y[0] * y[1];
  } else {
    MPI_Send(y, 2, MPI_DOUBLE, 0, 10 + r, c1);
    MPI_Send(y, 2, MPI_DOUBLE, 0, 20, c2);
  }
  MPI_Sendrecv(&y[1], 1, MPI_DOUBLE, (r + 1) % p, 30 + r, &z, 1, MPI_DOUBLE, MPI_ANY_SOURCE,
               MPI_ANY_TAG, c3, MPI_STATUS_IGNORE);
  zl = z * x[1];
  MPI_Allreduce(&zl, &zs, 1, MPI_DOUBLE, MPI_SUM, c3);
  return r == 0 ? acc + zs : 0.0;
}

double serial(double *X, int p) {
  double acc = X[0] * X[1] * (sin(X[0]) + X[1]);
  for (int k = 1; k < p; k++) {
    double y0 = X[2 * k] * X[2 * k + 1], y1 = sin(X[2 * k]) + X[2 * k + 1];
    acc += y0 * y1 + (k + 1) * y0 + 20 * y1;
  }
  for (int k = 0; k < p; k++) {
    int from = (k - 1 + p) % p;
    acc += (sin(X[2 * from]) + X[2 * from + 1]) * X[2 * k + 1];
  }
  return acc;
}

static MPI_Comm c1, c2, c3;

static double value(double *x) {
  double v = f(x, MPI_ANY_SOURCE, c1, c2, c3);
  MPI_Bcast(&v, 1, MPI_DOUBLE, 0, c1);
  return v;
}

static double init(int r, int i) { return 0.4 + 0.1 * r - 0.13 * i + 0.02 * r * i; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  int r, p;
  MPI_Comm_dup(MPI_COMM_WORLD, &c1);
  MPI_Comm_dup(MPI_COMM_WORLD, &c2);
  MPI_Comm_dup(MPI_COMM_WORLD, &c3);
  MPI_Comm_rank(c1, &r);
  MPI_Comm_size(c1, &p);
  double x[2], dx[2] = {0};
  for (int i = 0; i < 2; i++)
    x[i] = init(r, i);
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, MPI_ANY_SOURCE, enzyme_const, c1,
                    enzyme_const, c2, enzyme_const, c3);
  double *X = malloc(p * 2 * sizeof *X), *dX = calloc(p * 2, sizeof *dX);
  for (int q = 0; q < p; q++)
    for (int i = 0; i < 2; i++)
      X[q * 2 + i] = init(q, i);
  __enzyme_autodiff((void *)serial, X, dX, enzyme_const, p);
  for (int i = 0; i < 2; i++)
    lt_check("grad vs serial", dx[i], dX[r * 2 + i], 1e-12, 1e-12);
  for (int q = 0; q < p; q++)
    for (int i = 0; i < 2; i++) {
      double h = 1e-6, keep = x[i];
      if (r == q)
        x[i] = keep + h;
      double fp = value(x);
      if (r == q)
        x[i] = keep - h;
      double fm = value(x);
      x[i] = keep;
      if (r == q)
        lt_check("grad vs fd", dx[i], (fp - fm) / (2 * h), 1e-6, 1e-7);
    }
  double v[2] = {0.7 - 0.1 * r, 0.3 + 0.05 * r}, dot = v[0] * dx[0] + v[1] * dx[1], all;
  MPI_Allreduce(&dot, &all, 1, MPI_DOUBLE, MPI_SUM, c1);
  double tf = __enzyme_fwddiff((void *)f, x, v, enzyme_const, MPI_ANY_SOURCE, enzyme_const, c1,
                               enzyme_const, c2, enzyme_const, c3);
  if (r == 0)
    lt_check("fwd vs grad", tf, all, 1e-12, 1e-12);
  free(X);
  free(dX);
  MPI_Comm_free(&c1);
  MPI_Comm_free(&c2);
  MPI_Comm_free(&c3);
  MPI_Finalize();
  return lt_done();
}
