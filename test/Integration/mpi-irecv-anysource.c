// MPI_Irecv from MPI_ANY_SOURCE with MPI_ANY_TAG, reverse mode: the
// augmented forward pass records, at the wait, the source and tag the
// status reports (in statuses of its own under MPI_STATUS(ES)_IGNORE, the
// user's otherwise, which must still read right), and the adjoint goes
// back there. Rank 0 receives every other rank's vector in arrival order
// (MPI_Waitall, statuses ignored), then again with a source only known at
// run time (MPI_ANY_SOURCE passed in) and MPI_Wait with a status it reads;
// a ring receives from MPI_ANY_SOURCE with MPI_Waitall into the user's
// statuses. Checked on every rank against the serial program's gradient
// and central differences. Before, a compile error.
// REQUIRES: mpi
// RUN: %ltclang %mpiflags -O0 %s -o %t.O0 -lm %mpilibs
// RUN: %mpirun 1 %t.O0 && %mpirun 2 %t.O0 && %mpirun 4 %t.O0
// RUN: %ltclang %mpiflags -O2 %s -o %t.O2 -lm %mpilibs
// RUN: %mpirun 1 %t.O2 && %mpirun 2 %t.O2 && %mpirun 4 %t.O2

#include "mpicheck.h"
#include <leantape.h>
#include <math.h>
#include <stdlib.h>

/* the three phases on communicators of their own, so that a wildcard of
 * one phase cannot match a message of another */
double f(double *x, int src, MPI_Comm c1, MPI_Comm c2, MPI_Comm c3) {
  int r, p;
  MPI_Comm_rank(c1, &r);
  MPI_Comm_size(c1, &p);
  double y[2] = {x[0] * x[1], sin(x[0]) + x[1]}, acc = 0, z = 0, zl, zs;
  if (r == 0) {
    double *m = malloc(2 * p * sizeof *m), *q = malloc(2 * p * sizeof *q);
    MPI_Request *rq = malloc(p * sizeof *rq);
    for (int k = 1; k < p; k++)
      MPI_Irecv(&m[2 * k], 2, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, c1, &rq[k - 1]);
    MPI_Waitall(p - 1, rq, MPI_STATUSES_IGNORE);
    for (int k = 1; k < p; k++)
      acc += m[2 * k] * m[2 * k + 1];
    for (int k = 1; k < p; k++) {
      MPI_Status st;
      MPI_Irecv(&q[2 * k], 2, MPI_DOUBLE, src, 20, c2, &rq[0]);
      MPI_Wait(&rq[0], &st);
      acc += (st.MPI_SOURCE + 1) * q[2 * k] + st.MPI_TAG * q[2 * k + 1];
    }
    acc += y[0] * y[1];
    free(m);
    free(q);
    free(rq);
  } else {
    MPI_Request s;
    MPI_Isend(y, 2, MPI_DOUBLE, 0, 10 + r, c1, &s);
    MPI_Wait(&s, MPI_STATUS_IGNORE);
    MPI_Send(y, 2, MPI_DOUBLE, 0, 20, c2);
  }
  MPI_Request rr[2];
  MPI_Status sts[2];
  MPI_Irecv(&z, 1, MPI_DOUBLE, MPI_ANY_SOURCE, MPI_ANY_TAG, c3, &rr[0]);
  MPI_Isend(&y[1], 1, MPI_DOUBLE, (r + 1) % p, 30 + r, c3, &rr[1]);
  MPI_Waitall(2, rr, sts);
  int from = (r - 1 + p) % p;
  /* the user's statuses still say where the message came from */
  zl = z * x[1] * (sts[0].MPI_SOURCE == from && sts[0].MPI_TAG == 30 + from ? 1.0 : 2.0);
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

static double value(double *x, void *unused) {
  (void)unused;
  double v = f(x, MPI_ANY_SOURCE, c1, c2, c3);
  MPI_Bcast(&v, 1, MPI_DOUBLE, 0, c1);
  return v;
}

static double init(int r, int i) { return 0.4 + 0.1 * r - 0.13 * i + 0.02 * r * i; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  lt_mpi_watchdog(120);
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
  lt_mpi_same("grad vs serial", dx, dX, 2 * r, 2, 1e-12, 1e-12);
  lt_mpi_fd("grad", value, NULL, x, dx, 2, 1, 1e-6, 1e-7, c1);
  free(X);
  free(dX);
  MPI_Comm_free(&c1);
  MPI_Comm_free(&c2);
  MPI_Comm_free(&c3);
  MPI_Finalize();
  return lt_done();
}
