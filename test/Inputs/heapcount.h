/* heapcount.h: the peak live heap bytes of a stretch of a test, through
 * the linker's --wrap of malloc, realloc and free (link with
 * -Wl,--wrap=malloc,--wrap=free,--wrap=realloc): set counting = 1 and
 * live = peak = 0 before, counting = 0 after; peak holds the most bytes
 * allocated in between and live at once. Header-only: one test file. */
#ifndef LT_HEAPCOUNT_H
#define LT_HEAPCOUNT_H

#include <stddef.h>
#include <stdint.h>

/* peak live bytes of malloc/realloc while counting */
static int counting;
static long long live, peak;
void *__real_malloc(size_t);
void *__real_realloc(void *, size_t);
void __real_free(void *);
#define HDR 16
void *__wrap_malloc(size_t n) {
  char *p = __real_malloc(n + HDR);
  if (!p)
    return NULL;
  ((uint64_t *)p)[0] = counting ? n : 0;
  if (counting && (live += (long long)n) > peak)
    peak = live;
  return p + HDR;
}
void __wrap_free(void *q) {
  if (!q)
    return;
  char *p = (char *)q - HDR;
  live -= (long long)((uint64_t *)p)[0];
  __real_free(p);
}
void *__wrap_realloc(void *q, size_t n) {
  if (!q)
    return __wrap_malloc(n);
  char *p = (char *)q - HDR;
  long long old = (long long)((uint64_t *)p)[0];
  char *r = __real_realloc(p, n + HDR);
  if (!r)
    return NULL;
  live += (long long)(counting ? n : 0) - old;
  ((uint64_t *)r)[0] = counting ? n : 0;
  if (live > peak)
    peak = live;
  return r + HDR;
}

#endif
