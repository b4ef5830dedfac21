// Forward mode of width > 1 (enzyme_width 2 and 4, enzyme_dupv) through
// every supported MPI call: MPI_Send/MPI_Recv, MPI_Isend/MPI_Irecv with
// MPI_Wait and MPI_Waitall, MPI_Sendrecv, MPI_Bcast, MPI_Reduce and
// MPI_Allreduce with MPI_SUM, MPI_MAX and MPI_MIN, MPI_Gather,
// MPI_Scatter and MPI_Allgather, on doubles and floats. Each lane against
// width 1 along the same direction (the same operations: 1e-14), and width
// 1 against central differences of the same MPI program along the
// direction, on every rank's outputs.
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

extern int enzyme_width, enzyme_dupv;
void __enzyme_fwddiff_v(void *, ...);

#define N 4  /* inputs per rank */
#define M 12 /* outputs per rank */

void f(const double *x, double *out, MPI_Comm comm) {
  int r, p;
  MPI_Comm_rank(comm, &r);
  MPI_Comm_size(comm, &p);
  int to = (r + 1) % p, from = (r - 1 + p) % p;
  double y[N], z[N], w[N], v[2];
  for (int i = 0; i < N; i++)
    y[i] = x[i] * x[i] + sin(x[i]);
  /* blocking ring (even ranks send first) */
  if (p == 1)
    memcpy(z, y, sizeof z);
  else if (r % 2 == 0) {
    MPI_Send(y, N, MPI_DOUBLE, to, 1, comm);
    MPI_Recv(z, N, MPI_DOUBLE, from, 1, comm, MPI_STATUS_IGNORE);
  } else {
    MPI_Recv(z, N, MPI_DOUBLE, from, 1, comm, MPI_STATUS_IGNORE);
    MPI_Send(y, N, MPI_DOUBLE, to, 1, comm);
  }
  /* nonblocking the other way round, with MPI_Wait and MPI_Waitall */
  MPI_Request rq[2], rr[2];
  MPI_Irecv(w, N, MPI_DOUBLE, to, 2, comm, &rq[0]);
  MPI_Isend(y, N, MPI_DOUBLE, from, 2, comm, &rq[1]);
  MPI_Wait(&rq[0], MPI_STATUS_IGNORE);
  MPI_Wait(&rq[1], MPI_STATUS_IGNORE);
  MPI_Irecv(v, 2, MPI_DOUBLE, from, 3, comm, &rr[0]);
  MPI_Isend((double *)x + 2, 2, MPI_DOUBLE, to, 3, comm, &rr[1]);
  MPI_Waitall(2, rr, MPI_STATUSES_IGNORE);
  /* single precision */
  float fs = (float)(x[0] * x[3]), fr;
  MPI_Sendrecv(&fs, 1, MPI_FLOAT, to, 4, &fr, 1, MPI_FLOAT, from, 4, comm, MPI_STATUS_IGNORE);
  double s;
  MPI_Sendrecv(&y[2], 1, MPI_DOUBLE, to, 5, &s, 1, MPI_DOUBLE, from, 5, comm, MPI_STATUS_IGNORE);
  double b[2] = {x[1], x[2] * x[3]};
  MPI_Bcast(b, 2, MPI_DOUBLE, p - 1, comm);
  double q[2] = {x[0] * y[1], x[3]}, qs[2] = {0, 0}, mx[2], mn, rm = 0;
  MPI_Reduce(q, qs, 2, MPI_DOUBLE, MPI_SUM, p - 1, comm);
  double a[2] = {x[0] + 0.3 * y[2], x[1] * x[2]}, as;
  MPI_Allreduce(a, mx, 2, MPI_DOUBLE, MPI_MAX, comm);
  MPI_Allreduce(&a[1], &mn, 1, MPI_DOUBLE, MPI_MIN, comm);
  MPI_Reduce(&a[0], &rm, 1, MPI_DOUBLE, MPI_MAX, 0, comm);
  MPI_Allreduce(&q[0], &as, 1, MPI_DOUBLE, MPI_SUM, comm);
  /* the gather family */
  double g1 = x[1] * x[2], sc, *gall = malloc(p * sizeof *gall),
         *sall = malloc(p * sizeof *sall), *ag = malloc(p * sizeof *ag);
  for (int k = 0; k < p; k++)
    sall[k] = x[0] * (k + 1) + x[3];
  MPI_Gather(&g1, 1, MPI_DOUBLE, gall, 1, MPI_DOUBLE, 0, comm);
  MPI_Scatter(sall, 1, MPI_DOUBLE, &sc, 1, MPI_DOUBLE, 0, comm);
  MPI_Allgather(&y[3], 1, MPI_DOUBLE, ag, 1, MPI_DOUBLE, comm);
  double gs = 0, agg = 0;
  if (r == 0)
    for (int k = 0; k < p; k++)
      gs += gall[k] * (k + 1);
  for (int k = 0; k < p; k++)
    agg += ag[k] * cos(k + 0.5);
  out[0] = z[0] * z[1] + z[2] - z[3] * x[0];
  out[1] = w[0] * w[3] + w[1] * w[2];
  out[2] = v[0] * v[1] + sin(v[0]);
  out[3] = (double)fr * x[1];
  out[4] = s * s;
  out[5] = b[0] * b[1];
  out[6] = qs[0] + qs[1] * qs[1];
  out[7] = mx[0] * mx[1] + mn;
  out[8] = rm + as * x[2];
  out[9] = gs;
  out[10] = sc * sc;
  out[11] = agg;
  free(gall);
  free(sall);
  free(ag);
}

static double init(int r, int i) { return 0.4 + 0.13 * r - 0.07 * i + 0.011 * r * i; }
static double dir(int r, int i, int k) { return cos(0.9 * k + 0.4 * i + 0.3 * r) + 0.1 * k; }

int main(int argc, char **argv) {
  MPI_Init(&argc, &argv);
  lt_mpi_watchdog(120);
  int r;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  double x[N], out[M];
  for (int i = 0; i < N; i++)
    x[i] = init(r, i);
  double d[4][N], t1[4][M];
  for (int k = 0; k < 4; k++) {
    for (int i = 0; i < N; i++)
      d[k][i] = dir(r, i, k);
    __enzyme_fwddiff_v((void *)f, enzyme_dup, x, d[k], enzyme_dup, out, t1[k], enzyme_const,
                       MPI_COMM_WORLD);
    /* width 1 against central differences along d[k] (all ranks move);
     * out[3] passes through a float: a larger step */
    for (int big = 0; big < 2; big++) {
      double xp[N], xm[N], op[M], om[M], h = big ? 1e-3 : 1e-6;
      for (int i = 0; i < N; i++) {
        xp[i] = x[i] + h * d[k][i];
        xm[i] = x[i] - h * d[k][i];
      }
      f(xp, op, MPI_COMM_WORLD);
      f(xm, om, MPI_COMM_WORLD);
      for (int o = 0; o < M; o++) {
        char w[64];
        snprintf(w, sizeof w, "width 1 dir %d out[%d] vs fd", k, o);
        if ((o == 3) == big)
          lt_check(w, t1[k][o], (op[o] - om[o]) / (2 * h), big ? 1e-3 : 1e-5, 1e-7);
      }
    }
  }
  double t2[2][M], t4[4][M];
  __enzyme_fwddiff_v((void *)f, enzyme_width, 2, enzyme_dupv, sizeof d[0], x, d, enzyme_dupv,
                     sizeof t2[0], out, t2, enzyme_const, MPI_COMM_WORLD);
  __enzyme_fwddiff_v((void *)f, enzyme_width, 4, enzyme_dupv, sizeof d[0], x, d, enzyme_dupv,
                     sizeof t4[0], out, t4, enzyme_const, MPI_COMM_WORLD);
  for (int o = 0; o < M; o++) {
    char w[64];
    for (int k = 0; k < 2; k++) {
      snprintf(w, sizeof w, "width 2 lane %d out[%d] vs width 1", k, o);
      lt_check(w, t2[k][o], t1[k][o], 1e-14, 1e-15);
    }
    for (int k = 0; k < 4; k++) {
      snprintf(w, sizeof w, "width 4 lane %d out[%d] vs width 1", k, o);
      lt_check(w, t4[k][o], t1[k][o], 1e-14, 1e-15);
    }
  }
  MPI_Finalize();
  return lt_done();
}
