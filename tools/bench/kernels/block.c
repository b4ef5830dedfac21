/* block.c: large_single_block, ~100 scalar operations on 4 inputs in
 * one basic block (no loop).
 * Included by tools/bench/kernels.c (the table of every family). */
#include "harness.h"

static double B_P[4], B_dP[4];
#define STEP(c0)                                                               \
  a = sin(a * b + 0.1 * c);                                                    \
  b = cos(b + a * d) * (c0);                                                   \
  c = tanh(c * a - 0.3 * d);                                                   \
  d = 0.5 * d + a * b - 0.2 * c;
#if ALL || defined(ONE_block)
KERNEL double block_k(const double *x) {
  double a = x[0], b = x[1], c = x[2], d = x[3];
  STEP(0.9) STEP(1.1) STEP(0.8) STEP(1.2) STEP(0.95)
  STEP(1.05) STEP(0.85) STEP(1.15)
  return a * b + c * d + a + b + c + d;
}
#endif
static double *block_param(void) { return B_P; }
static void block_setup(void) { fill(B_P, 4, -1, 1, 8); }
#if ALL || defined(ONE_block)
SCALAR_KERNEL(block, B_P, B_dP, 4, (B_P), enzyme_dup, B_P, B_dP)
#endif
