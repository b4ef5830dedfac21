// Waits on copies of nonblocking requests: the record of an
// MPI_Isend/Irecv is found by the handle the wait's request holds, not by
// the address the call wrote it to. A 1-D heat equation whose halos go by
// MPI_Isend/MPI_Irecv, waited each step in one of three ways: MPI_Waitall
// on a copy of the request array, MPI_Wait on copies in a struct passed by
// value to a function that is not inlined, and MPI_Wait on a local copy
// (`MPI_Request r2 = r`); the request variables are reused every step, so
// the MPI library hands out the same handle values again. Gradient checked
// on every rank against the serial solver and central differences of the
// same MPI program; forward mode against the gradient. Before, the reverse
// of the wait found no record and the adjoint messages deadlocked (np 2,
// 4), which the watchdog turns into a failure.
// REQUIRES: mpi
// RUN: %ltclang %mpiflags -O0 %s -o %t.O0 -lm %mpilibs
// RUN: %mpirun 1 %t.O0 && %mpirun 2 %t.O0 && %mpirun 4 %t.O0
// RUN: %ltclang %mpiflags -O2 %s -o %t.O2 -lm %mpilibs
// RUN: %mpirun 1 %t.O2 && %mpirun 2 %t.O2 && %mpirun 4 %t.O2

#include "mpicheck.h"
#include <leantape.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

double __enzyme_fwddiff(void *, ...);

#define NL 3 /* cells per rank */
#define STEPS 7

typedef struct {
  MPI_Request recv, send;
} Pair;

/* waits on the copies in p (its own stack slots) */
__attribute__((noinline)) static void finish(Pair p) {
  MPI_Wait(&p.recv, MPI_STATUS_IGNORE);
  MPI_Wait(&p.send, MPI_STATUS_IGNORE);
}

double heat(double *u0, double k, MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  double *u = malloc((NL + 2) * sizeof *u), *v = malloc((NL + 2) * sizeof *v);
  for (int i = 0; i < NL; i++)
    u[i + 1] = u0[i];
  u[0] = u[NL + 1] = 0;
  for (int s = 0; s < STEPS; s++) {
    MPI_Request req[4], copy[4];
    Pair left, right;
    int nr = 0;
    if (r > 0) {
      MPI_Irecv(&u[0], 1, MPI_DOUBLE, r - 1, 1, comm, &left.recv);
      MPI_Isend(&u[1], 1, MPI_DOUBLE, r - 1, 2, comm, &left.send);
      req[nr++] = left.recv;
      req[nr++] = left.send;
    }
    if (r < p - 1) {
      MPI_Irecv(&u[NL + 1], 1, MPI_DOUBLE, r + 1, 2, comm, &right.recv);
      MPI_Isend(&u[NL], 1, MPI_DOUBLE, r + 1, 1, comm, &right.send);
      req[nr++] = right.recv;
      req[nr++] = right.send;
    }
    if (s % 3 == 0) {
      memcpy(copy, req, nr * sizeof *req);
      MPI_Waitall(nr, copy, MPI_STATUSES_IGNORE);
    } else if (s % 3 == 1) {
      if (r > 0)
        finish(left);
      if (r < p - 1)
        finish(right);
    } else {
      for (int q = nr - 1; q >= 0; q--) {
        MPI_Request r2 = req[q];
        MPI_Wait(&r2, MPI_STATUS_IGNORE);
      }
    }
    for (int i = 1; i <= NL; i++)
      v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.02 * u[i] * u[i];
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
      v[i] = u[i] + k * (u[i - 1] - 2 * u[i] + u[i + 1]) - 0.02 * u[i] * u[i];
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

typedef struct {
  double k;
  int of_k; /* differentiate in k (x[0] is k) instead of u0 */
  double *u0;
} Ctx;

static double value(double *x, void *vc) {
  Ctx *c = vc;
  double e = c->of_k ? heat(c->u0, x[0], MPI_COMM_WORLD) : heat(x, c->k, MPI_COMM_WORLD);
  MPI_Bcast(&e, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  return e;
}

static double init(int g) { return sin(0.7 * g + 0.3) + 0.1 * g; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  lt_mpi_watchdog(120);
  int r, p;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &p);
  double u0[NL], du0[NL] = {0}, k = 0.2;
  for (int i = 0; i < NL; i++)
    u0[i] = init(r * NL + i);
  double dk = lt_mpi_sum(
      __enzyme_autodiff((void *)heat, u0, du0, k, enzyme_const, MPI_COMM_WORLD), MPI_COMM_WORLD);

  int n = NL * p;
  double *U = malloc(n * sizeof *U), *dU = calloc(n, sizeof *dU);
  for (int g = 0; g < n; g++)
    U[g] = init(g);
  double dks = __enzyme_autodiff((void *)serial, U, dU, k, enzyme_const, n);
  lt_mpi_same("du0 vs serial", du0, dU, r * NL, NL, 1e-12, 1e-14);
  lt_check("dk vs serial", dk, dks, 1e-12, 1e-14);

  Ctx c = {k, 0, u0};
  lt_mpi_fd("du0", value, &c, u0, du0, NL, 1, 1e-6, 1e-7, MPI_COMM_WORLD);
  Ctx ck = {k, 1, u0}; /* k is every rank's: moved on all of them at once */
  double kp = k + 1e-6, km = k - 1e-6;
  lt_check("dk vs fd", dk, (value(&kp, &ck) - value(&km, &ck)) / (kp - km), 1e-6, 1e-7);

  double w[NL], dot = 0;
  for (int i = 0; i < NL; i++) {
    w[i] = cos(1.3 * (r * NL + i));
    dot += w[i] * du0[i];
  }
  double all = lt_mpi_sum(dot, MPI_COMM_WORLD);
  double t = __enzyme_fwddiff((void *)heat, u0, w, k, 1.0, enzyme_const, MPI_COMM_WORLD);
  if (r == 0)
    lt_check("fwd vs grad", t, all + dk, 1e-11, 1e-12);
  free(U);
  free(dU);
  MPI_Finalize();
  return lt_done();
}
