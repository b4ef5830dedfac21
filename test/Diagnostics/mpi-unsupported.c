// MPI calls Leantape cannot differentiate are errors at their line, never
// a wrong gradient: a product reduction of active data, a derived
// datatype, an MPI call without a rule (MPI_Alltoall), a Sendrecv that sends
// doubles and receives floats, MPI_Irecv from MPI_ANY_SOURCE in forward mode
// (reverse: Integration/mpi-irecv-anysource.c), a Scatter into MPI_IN_PLACE.
// REQUIRES: mpi
// RUN: not %ltclang %mpiflags -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROD
// RUN: not %ltclang %mpiflags -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROD
// RUN: not %ltclang %mpiflags -O2 -g -c -DDERIVED %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DERIVED
// RUN: not %ltclang %mpiflags -O2 -g -c -DNORULE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NORULE
// RUN: not %ltclang %mpiflags -O2 -g -c -DMIXED %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=MIXED
// RUN: not %ltclang %mpiflags -O0 -g -c -DANYIRECV %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ANYIRECV
// RUN: not %ltclang %mpiflags -O0 -g -c -DINPLACE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=INPLACE

#include <leantape.h>
#include <mpi.h>

double f(double *x, MPI_Datatype t) {
  double y = x[0] * x[1], z[2];
#if defined(DERIVED)
  MPI_Allreduce(&y, z, 1, t, MPI_SUM, MPI_COMM_WORLD);
#elif defined(NORULE)
  MPI_Alltoall(&y, 1, MPI_DOUBLE, z, 1, MPI_DOUBLE, MPI_COMM_WORLD);
#elif defined(MIXED)
  MPI_Sendrecv(&y, 1, MPI_DOUBLE, 0, 1, z, 1, MPI_FLOAT, 0, 1, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
#elif defined(ANYIRECV)
  MPI_Request q;
  MPI_Irecv(z, 1, MPI_DOUBLE, MPI_ANY_SOURCE, 1, MPI_COMM_WORLD, &q);
  MPI_Wait(&q, MPI_STATUS_IGNORE);
  z[0] *= y;
#elif defined(INPLACE)
  MPI_Scatter(&y, 1, MPI_DOUBLE, MPI_IN_PLACE, 1, MPI_DOUBLE, 0, MPI_COMM_WORLD);
  z[0] = y;
#else
  MPI_Allreduce(&y, z, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
#endif
  return z[0];
}

#if defined(ANYIRECV)
double __enzyme_fwddiff(void *, ...);
double g(double *x, double *dx, MPI_Datatype t) {
  return __enzyme_fwddiff((void *)f, x, dx, enzyme_const, t);
}
#else
void g(double *x, double *dx, MPI_Datatype t) {
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, t);
}
#endif

// PROD: mpi-unsupported.c:35:3: error: leantape: 'MPI_Allreduce' reduces floating-point data with an operation that has no derivative rule
// DERIVED: mpi-unsupported.c:21:3: error: leantape: 'MPI_Allreduce' has a datatype that is not a predefined MPI datatype
// NORULE: mpi-unsupported.c:23:3: error: leantape: 'MPI_Alltoall' has no derivative rule
// MIXED: mpi-unsupported.c:25:3: error: leantape: 'MPI_Sendrecv' sends and receives different datatypes
// ANYIRECV: mpi-unsupported.c:28:3: error: leantape: 'MPI_Irecv' receives from MPI_ANY_SOURCE or with MPI_ANY_TAG, which Leantape differentiates in reverse mode but not yet in forward mode
// INPLACE: error: leantape: 'MPI_Scatter' uses MPI_IN_PLACE
// PROD-NOT: PLEASE submit a bug report
