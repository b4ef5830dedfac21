/* mpicheck.h: helpers for the MPI integration tests (mpi-*.c), next to
 * check.h.
 *
 * A test differentiates an MPI program whose inputs are distributed, n per
 * rank, and checks each rank's gradient (or tangent) against the serial
 * program's (lt_mpi_same) and against central differences of the same MPI
 * program (lt_mpi_fd: the input of one rank moved at a time, the value
 * computed collectively and known on every rank). lt_mpi_watchdog turns a
 * deadlock of the derivative's communication into a failure instead of a
 * hung test. Header-only, static.
 */
#ifndef LT_MPICHECK_H
#define LT_MPICHECK_H

#include "check.h"
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* Kill the process (SIGALRM) if it is still running after s seconds. */
static inline void lt_mpi_watchdog(unsigned s) { alarm(s); }

/* The sum over the ranks of comm. */
static inline double lt_mpi_sum(double v, MPI_Comm comm) {
  double all;
  MPI_Allreduce(&v, &all, 1, MPI_DOUBLE, MPI_SUM, comm);
  return all;
}

/* got[i] (this rank's n values) against want[off + i], want being the
 * serial program's values of the whole domain. */
static inline void lt_mpi_same(const char *what, const double *got, const double *want, int off,
                               int n, double rtol, double atol) {
  for (int i = 0; i < n; i++) {
    char w[96];
    snprintf(w, sizeof w, "%s [%d]", what, i);
    lt_check(w, got[i], want[off + i], rtol, atol);
  }
}

/* A scalar function of this rank's inputs x (n per rank), collective over
 * comm, the same value on every rank. */
typedef double (*lt_mpi_fn)(double *x, void *ctx);

/* For every rank q and every step-th input i of q: the central difference
 * of f in x[i] on rank q, against g[i] there. */
static inline void lt_mpi_fd(const char *what, lt_mpi_fn f, void *ctx, double *x,
                             const double *g, int n, int step, double rtol, double atol,
                             MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  for (int q = 0; q < p; q++)
    for (int i = 0; i < n; i += step) {
      double keep = x[i], h = 1e-6 * fmax(1.0, fabs(keep));
      if (r == q)
        x[i] = keep + h;
      double fp = f(x, ctx);
      if (r == q)
        x[i] = keep - h;
      double fm = f(x, ctx);
      x[i] = keep;
      if (r == q) {
        char w[96];
        snprintf(w, sizeof w, "%s: d/dx[%d] of rank %d vs fd", what, i, q);
        lt_check(w, g[i], (fp - fm) / (2 * h), rtol, atol);
      }
    }
}

/* The scalar tests (mpi-blocking.c, mpi-gather.c, mpi-sendrecv.c,
 * mpi-maxmin.c): f(x, comm) of n inputs per rank, its serial program over
 * all p * n inputs, and these inputs, tangent directions and checks. */
static inline double lt_mpi_init(int r, int i) {
  return 0.3 + 0.1 * r - 0.07 * i + 0.01 * r * i;
}

/* The whole domain's inputs, p ranks of n each (malloc'd). */
static inline double *lt_mpi_domain(int p, int n, double (*init)(int, int)) {
  double *X = malloc((size_t)p * n * sizeof *X);
  for (int q = 0; q < p; q++)
    for (int i = 0; i < n; i++)
      X[q * n + i] = init(q, i);
  return X;
}

/* This rank's part of the tangent direction. */
static inline void lt_mpi_dir(double *v, int n, MPI_Comm comm) {
  int r;
  MPI_Comm_rank(comm, &r);
  for (int i = 0; i < n; i++)
    v[i] = 0.5 - 0.1 * i + 0.05 * r;
}

/* The tangent tf of f along v (lt_mpi_dir) against the gradient dx:
 * F' v is the sum over the ranks of dx . v (checked on rank 0). */
static inline void lt_mpi_fwd_vs_grad(double tf, const double *v, const double *dx, int n,
                                      double rtol, MPI_Comm comm) {
  int r;
  double dot = 0;
  MPI_Comm_rank(comm, &r);
  for (int i = 0; i < n; i++)
    dot += v[i] * dx[i];
  double all = lt_mpi_sum(dot, comm);
  if (r == 0)
    lt_check("fwd vs grad", tf, all, rtol, 1e-12);
}

#endif
