// MPI calls Leantape cannot differentiate are errors at their line, never
// a wrong gradient: a product reduction of active data, a derived
// datatype, and an MPI call without a rule (MPI_Alltoall).
// REQUIRES: mpi
// RUN: not %ltclang %mpiflags -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROD
// RUN: not %ltclang %mpiflags -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=PROD
// RUN: not %ltclang %mpiflags -O2 -g -c -DDERIVED %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DERIVED
// RUN: not %ltclang %mpiflags -O2 -g -c -DNORULE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NORULE

#include <leantape.h>
#include <mpi.h>

double f(double *x, MPI_Datatype t) {
  double y = x[0] * x[1], z[2];
#if defined(DERIVED)
  MPI_Allreduce(&y, z, 1, t, MPI_SUM, MPI_COMM_WORLD);
#elif defined(NORULE)
  MPI_Alltoall(&y, 1, MPI_DOUBLE, z, 1, MPI_DOUBLE, MPI_COMM_WORLD);
#else
  MPI_Allreduce(&y, z, 1, MPI_DOUBLE, MPI_PROD, MPI_COMM_WORLD);
#endif
  return z[0];
}

void g(double *x, double *dx, MPI_Datatype t) {
  __enzyme_autodiff((void *)f, x, dx, enzyme_const, t);
}

// PROD: mpi-unsupported.c:20:3: error: leantape: 'MPI_Allreduce' reduces floating-point data with an operation that has no derivative rule
// DERIVED: mpi-unsupported.c:16:3: error: leantape: 'MPI_Allreduce' has a datatype that is not a predefined MPI datatype
// NORULE: mpi-unsupported.c:18:3: error: leantape: 'MPI_Alltoall' has no derivative rule
// PROD-NOT: PLEASE submit a bug report
