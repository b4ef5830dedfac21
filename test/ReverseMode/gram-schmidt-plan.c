// The plan for modified Gram-Schmidt over plain pointers (issue 17):
//  - the derivative gets a version for arrays apart: the run-time test sees
//    the parameter under the one-pointer PHI that prep's lcssa leaves after
//    the norm loop (util.c lt_phi_same; range.c, affine.c);
//  - that PHI is not taped (materialize.c: the reverse pass makes the
//    pointer it merges): the j loop caches no pointer;
//  - A[i][j], read in the first i loop and overwritten in the second, is
//    taped (8 bytes per read) rather than re-read after the undo log put
//    back each write (24 bytes per write): a run-time test of those
//    accesses, in the same array, would always find them overlapping
//    (overwrite.c same_object_cheap).
// Gradients: Integration/gram-schmidt.c.
// RUN: %ltclang -O2 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s
#include <leantape.h>
#include <math.h>
#define C 12
__attribute__((noinline)) void mgs(int m, int n, double (*a)[C], double (*r)[C], double (*q)[C]) {
  for (int k = 0; k < n; k++) {
    double s = 0;
    for (int i = 0; i < m; i++)
      s += a[i][k] * a[i][k];
    r[k][k] = sqrt(s);
    for (int i = 0; i < m; i++)
      q[i][k] = a[i][k] / r[k][k];
    // (LLVM 19's CFG has a branch here whose choice is kept: 1 byte)
    // CHECK: remark: loop (depth 2) in 'mgs': caches {{nothing|1 bytes}} per iteration{{(: branch choice into %)?}}; 0 recomputed
    for (int j = k + 1; j < n; j++) {
      r[k][j] = 0;
      for (int i = 0; i < m; i++)
        // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: loop (depth 3) in 'mgs': caches 8 bytes per iteration: load (double, line [[@LINE+1]]);
        r[k][j] += q[i][k] * a[i][j];
      for (int i = 0; i < m; i++)
        a[i][j] -= q[i][k] * r[k][j];
    }
  }
}
void grad(int m, int n, double (*a)[C], double (*da)[C], double (*r)[C], double (*dr)[C],
          double (*q)[C], double (*dq)[C]) {
  // CHECK: :[[@LINE+1]]:{{[0-9]+}}: remark: the gradient of 'mgs' has a second version for pointer arguments apart
  __enzyme_autodiff((void *)mgs, enzyme_const, m, enzyme_const, n, enzyme_dup, a, da,
                    enzyme_dup, r, dr, enzyme_dup, q, dq);
}
