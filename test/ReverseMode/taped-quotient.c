// The reverse of a quotient reads the quotient and the divisor. Here the
// dividend is made of four loads of memory the loop nest overwrites
// (u[j][i-1], u[j][i], u[j][i+1], q[i][j-1]): making the quotient again
// would tape all four, 32 bytes an iteration; the plan tapes the quotient
// instead (plan/source.c cheaper_taped: 8 bytes), beside the load of
// p[i][j-1] the divisor is made of. The loads' own adjoints read no
// values (they are scaled by constants). No undo log: each load's memory
// is written again in the same array by a store whose address moves
// (overwrite.c same_object_cheap). ADI's column sweep (PolyBench's adi at
// MEDIUM: 483 MB of undo log, then 419 MB of cache, now 239 MB).
// CHECK: remark: derivative of 'sweep' (combined mode): 0 bytes of values outside loops
// Gradients: Integration/tridiagonal-sweep.c.
// RUN: %ltclang -O2 -g -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s
#include <leantape.h>
#define W 64
__attribute__((noinline)) void sweep(int steps, int n, double (*u)[W], double (*p)[W],
                                     double (*q)[W]) {
  for (int t = 0; t < steps; t++)
    for (int i = 1; i < n - 1; i++) {
      p[i][0] = 0.0;
      q[i][0] = 1.0;
      // CHECK: remark: loop (depth 3) in 'sweep': caches 16 bytes per iteration: load (double, line [[@LINE+2]]), value (double, line [[@LINE+3]]); 3 recomputed, 0 re-loaded
      for (int j = 1; j < n - 1; j++) {
        p[i][j] = -0.4 / (-0.4 * p[i][j - 1] + 1.8);
        q[i][j] = (0.2 * u[j][i - 1] + 0.6 * u[j][i] + 0.2 * u[j][i + 1] + 0.4 * q[i][j - 1]) /
                  (-0.4 * p[i][j - 1] + 1.8);
      }
      for (int j = 1; j < n - 1; j++)
        u[j][i] = q[i][j];
    }
}
void grad(int n, double (*u)[W], double (*du)[W], double (*p)[W], double (*dp)[W],
          double (*q)[W], double (*dq)[W]) {
  __enzyme_autodiff((void *)sweep, enzyme_const, 2, enzyme_const, n, enzyme_dup, u, du,
                    enzyme_dup, p, dp, enzyme_dup, q, dq);
}
