/* harness.h: what every kernel family shares (tools/bench/kernels/<family>.c,
 * included by kernels.c, and adbench.c): noinline kernel functions, the
 * -DBENCH_ONE -DONE_<tag> selection (ALL is 0 when one kernel is compiled
 * alone), deterministic data, the wrappers of a kernel that returns its
 * objective (SCALAR_KERNEL) and the table entries (ENTRY, bench.h's
 * kernel_t). Kernel functions are external and noinline so the timed
 * primal is the same function the plugin differentiates. */
#ifndef LT_BENCH_HARNESS_H
#define LT_BENCH_HARNESS_H
#include <leantape.h>
#include <math.h>
#include <string.h>

#include "bench.h"

#define KERNEL __attribute__((noinline))
#ifdef BENCH_ONE
#define ALL 0
#else
#define ALL 1
#endif

static volatile double sink;

/* deterministic uniform data in [lo, hi); FILL_BASE offsets the seeds of a
 * file's data (adbench.c: 101) */
#ifndef FILL_BASE
#define FILL_BASE 1
#endif
static void fill(double *p, int n, double lo, double hi, unsigned seed) {
  unsigned long long s = 0x9E3779B97F4A7C15ULL * (seed + FILL_BASE);
  for (int i = 0; i < n; i++) {
    s = s * 6364136223846793005ULL + 1442695040888963407ULL;
    p[i] = lo + (hi - lo) * (double)(s >> 11) * 0x1.0p-53;
  }
}

/* the wrappers of tag##_k, a kernel returning its objective: primal, loss,
 * gradient (the __enzyme_autodiff arguments after the function) and the
 * gradient from zeroed shadows dP[0..N) */
#define SCALAR_KERNEL(tag, P, dP, N, CALLARGS, ...)                         \
  static void tag##_primal(void) { sink = tag##_k CALLARGS; }                 \
  static double tag##_loss(void) { return tag##_k CALLARGS; }                 \
  static void tag##_grad(void) { __enzyme_autodiff((void *)tag##_k, __VA_ARGS__); } \
  static void tag##_grad_fresh(double *g) {                                   \
    memset(dP, 0, (N) * sizeof(double));                                      \
    tag##_grad();                                                             \
    memcpy(g, dP, (N) * sizeof(double));                                      \
  }
/* a table entry: label, targets, active parameters, the family of its
 * param/setup functions, the tag of its wrappers, then optional designated
 * fields (.machine = "vector width"); ENTRYX: opt-in (extra) and the name
 * of its restrict twin */
#define ENTRY(label, tgt, np, fam, tag, ...)                                   \
  ENTRYX(label, tgt, 0, np, fam, tag, 0, __VA_ARGS__)
#define ENTRYX(label, tgt, extra, np, fam, tag, twin, ...)                     \
  {label,        tgt,        extra,      np,                                   \
   fam##_param,  fam##_setup, tag##_primal, tag##_grad,                        \
   tag##_loss,   tag##_grad_fresh, #tag, __FILE__, twin, __VA_ARGS__}
#define VEC .machine = "vector width"
#define CACHE .machine = "cache size"
#define VEC_CACHE .machine = "vector width, cache size"

#endif
