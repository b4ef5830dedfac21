// Large tapes get transparent huge pages (arena.c lt_arena_huge): a chunk
// of the arena, or a growing cache once it has moved to the heap, of 4 MiB
// or more is advised MADV_HUGEPAGE (14) over the whole 2 MiB pages inside
// it; a small one is not. Counted through the linker's --wrap of madvise
// (whatever the kernel's THP mode: the advice is checked, not its effect);
// gradients of in-place updates against the analytic derivative, for a loop
// whose trip count is known at entry (an arena chunk) and one that exits on
// data (a cache that starts in the arena with the last call's room and
// grows past it on the heap, gen/cachegrow.c). With LEANTAPE_ARENA_KEEP=0:
// a gradient after a large one would otherwise take the large one's kept
// chunk (arenakeep.c), advised as any large chunk, whatever it needs.
// REQUIRES: linux-thp
// RUN: %ltclang -O0 %s -o %t.O0 -lm -Wl,--wrap=madvise && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Wl,--wrap=madvise && %t.O2
// RUN: %ltclang -O2 -S -emit-llvm %s -o - | FileCheck %s
// CHECK: define internal void @lt.arena.huge(
// CHECK: call i32 @madvise(ptr {{.*}}, i64 {{.*}}, i32 14)

#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>

int __real_madvise(void *, size_t, int);
static long nadvise, nbad;
int __wrap_madvise(void *p, size_t n, int advice) {
  nadvise++;
  if (advice != 14 || ((uintptr_t)p & ((2u << 20) - 1)) || n % (2u << 20) || !n)
    nbad++;
  return __real_madvise(p, n, advice);
}

/* sum of x after x[i] <- x[i]^2 + sin x[i]: the old x[i] is taped */
double known(double *x, int n) {
  for (int i = 0; i < n; i++)
    x[i] = x[i] * x[i] + sin(x[i]);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i];
  return s;
}

/* the same up to the first x[i] >= 10: a cache that grows */
double on_data(double *x, int n) {
  double s = 0;
  int i = 0;
  while (i < n && x[i] < 10) {
    x[i] = x[i] * x[i] + sin(x[i]);
    s += x[i];
    i++;
  }
  return s;
}

static void run(const char *what, int which, int n, int want_advice) {
  double *x = malloc(n * sizeof *x), *dx = calloc(n, sizeof *dx);
  for (int i = 0; i < n; i++)
    x[i] = 0.5 + 0.4 * sin(0.37 * i);
  long before = nadvise;
  if (which == 0)
    __enzyme_autodiff((void *)known, enzyme_dup, x, dx, enzyme_const, n);
  else
    __enzyme_autodiff((void *)on_data, enzyme_dup, x, dx, enzyme_const, n);
  char w[120];
  for (int i = 0; i < n; i += n / 7 + 1) {
    double x0 = 0.5 + 0.4 * sin(0.37 * i);
    snprintf(w, sizeof w, "%s n=%d d[%d]", what, n, i);
    lt_check(w, dx[i], 2 * x0 + cos(x0), 1e-12, 1e-12);
  }
  snprintf(w, sizeof w, "%s n=%d: huge-page advice given", what, n);
  lt_check(w, nadvise > before, want_advice, 0, 0);
  free(x);
  free(dx);
}

int main(void) {
  setenv("LEANTAPE_ARENA_KEEP", "0", 1);
  run("known", 0, 1000, 0);
  run("known", 0, 1 << 20, 1); /* 8 MiB of tape */
  run("on_data", 1, 1000, 0);
  run("on_data", 1, 1 << 20, 1);
  lt_check("advice of 2 MiB pages only (MADV_HUGEPAGE, aligned, whole pages)", nbad, 0, 0, 0);
  return lt_done();
}
