/* alloc.h: the benchmark's counting allocator (alloc.c): every binary
 * linked with -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=free
 * counts, while mc.on, the allocation calls, frees and peak live bytes of
 * the blocks made while mc.on with the same mc.window (1 .. 65535). */
#ifndef LT_BENCH_ALLOC_H
#define LT_BENCH_ALLOC_H

typedef struct {
  int on;
  unsigned window;
  long calls, reallocs, frees;
  long long requested, live, peak;
} alloc_count_t;

extern alloc_count_t mc;

#endif
