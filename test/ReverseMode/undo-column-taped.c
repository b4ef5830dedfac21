// Which loads of an in-place factorisation the reverse pass re-reads
// through the undo log and which it tapes, at -O2, with plain pointers.
// Both loads of Cholesky's k loops walk rows (A[i][k], A[j][k]: one
// element per iteration): re-read, nothing cached per iteration. LU's k
// loops read a row and a column (A[i][k] and A[k][j], n elements apart
// per iteration): the row is re-read and the column taped, 8 bytes per
// iteration. Re-reading the column too put a second strided stream in the
// reverse loop beside dA's column (the gradient took 6.0 times the primal
// at n = 128, 4.1 with both loads taped; overwrite.c unit_stride). The
// gradients are checked in Integration/inplace-factorizations.c.
// RUN: %ltclang -O2 -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s
#include <leantape.h>
#include <math.h>

double chol(double *A, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i * n + j] -= A[i * n + k] * A[j * n + k];
      A[i * n + j] /= A[j * n + j];
    }
    for (int k = 0; k < i; k++)
      A[i * n + i] -= A[i * n + k] * A[i * n + k];
    A[i * n + i] = sqrt(A[i * n + i]);
  }
  return A[n * n - 1];
}

double lu(double *A, int n) {
  for (int i = 0; i < n; i++) {
    for (int j = 0; j < i; j++) {
      for (int k = 0; k < j; k++)
        A[i * n + j] -= A[i * n + k] * A[k * n + j];
      A[i * n + j] /= A[j * n + j];
    }
    for (int j = i; j < n; j++)
      for (int k = 0; k < i; k++)
        A[i * n + j] -= A[i * n + k] * A[k * n + j];
  }
  return A[n * n - 1];
}

void grad_chol(double *A, double *dA, int n) {
  __enzyme_autodiff((void *)chol, enzyme_dup, A, dA, enzyme_const, n);
}
void grad_lu(double *A, double *dA, int n) {
  __enzyme_autodiff((void *)lu, enzyme_dup, A, dA, enzyme_const, n);
}

// CHECK: undo-column-taped.c:19:{{[0-9]+}}: remark: loop (depth 3) in 'chol': caches nothing per iteration; {{[0-9]+}} recomputed, 2 re-loaded
// The diagonal's k loop still tapes its row, A[i][k] (the j loop's
// division stores, A[i][j], move with j: not a run of one address).
// CHECK: undo-column-taped.c:23:{{[0-9]+}}: remark: loop (depth 2) in 'chol': caches 8 bytes per iteration: load (double, line 23)
// CHECK: undo-column-taped.c:33:{{[0-9]+}}: remark: loop (depth 3) in 'lu': caches 8 bytes per iteration: load (double, line 33); {{[0-9]+}} recomputed, 1 re-loaded
// CHECK: undo-column-taped.c:38:{{[0-9]+}}: remark: loop (depth 3) in 'lu': caches 8 bytes per iteration: load (double, line 38); {{[0-9]+}} recomputed, 1 re-loaded
