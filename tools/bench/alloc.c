/* alloc.c: the counting allocator of the benchmark (alloc.h): malloc,
 * calloc, realloc and free wrapped with --wrap; each block carries a
 * 16-byte header holding its requested size, so frees and reallocs know
 * how many bytes stop being live, and the counting window it was made in
 * (mc.window, 0 outside one): a block made before the window (an earlier
 * kernel's arena chunk freed by this gradient) is not counted when freed.
 * Blocks not made here (libc-internal) pass through. */
#include <stdint.h>
#include <stdlib.h>

#include "alloc.h"

void *__real_malloc(size_t);
void *__real_calloc(size_t, size_t);
void *__real_realloc(void *, size_t);
void __real_free(void *);

#define HDR 16 /* keeps 16-byte alignment */
#define MAGIC 0x4C5442454E434821ULL

alloc_count_t mc;

static void note(long long delta) {
  if (!mc.on)
    return;
  mc.live += delta;
  if (mc.live > mc.peak)
    mc.peak = mc.live;
}
#define SIZE_BITS 48
#define SIZE_OF(raw) (((uint64_t *)(raw))[0] & ((1ULL << SIZE_BITS) - 1))
/* made in the current counting window */
static int counted(const char *raw) {
  return mc.on && ((uint64_t *)raw)[0] >> SIZE_BITS == (uint64_t)mc.window;
}
static void *tag(char *raw, size_t n) {
  if (!raw)
    return NULL;
  ((uint64_t *)raw)[0] = n | (uint64_t)(mc.on ? mc.window : 0) << SIZE_BITS;
  ((uint64_t *)raw)[1] = MAGIC;
  return raw + HDR;
}
/* a pointer not made by us (libc-internal) has no header: pass through */
static char *ours(void *p) {
  if (!p)
    return NULL;
  char *raw = (char *)p - HDR;
  return ((uint64_t *)raw)[1] == MAGIC ? raw : NULL;
}
void *__wrap_malloc(size_t n) {
  if (mc.on) {
    mc.calls++;
    mc.requested += n;
  }
  note(n);
  return tag(__real_malloc(n + HDR), n);
}
void *__wrap_calloc(size_t k, size_t n) {
  size_t b = k * n;
  if (mc.on) {
    mc.calls++;
    mc.requested += b;
  }
  note(b);
  return tag(__real_calloc(1, b + HDR), b);
}
void __wrap_free(void *p) {
  if (!p)
    return;
  char *raw = ours(p);
  if (!raw) {
    __real_free(p);
    return;
  }
  if (counted(raw)) {
    mc.frees++;
    note(-(long long)SIZE_OF(raw));
  }
  ((uint64_t *)raw)[1] = 0;
  __real_free(raw);
}
void *__wrap_realloc(void *p, size_t n) {
  if (!p)
    return __wrap_malloc(n);
  char *raw = ours(p);
  if (!raw)
    return __real_realloc(p, n);
  size_t old = counted(raw) ? SIZE_OF(raw) : 0;
  if (mc.on) {
    mc.calls++;
    mc.reallocs++;
    mc.requested += n > old ? n - old : 0;
  }
  note((long long)n - (long long)old);
  return tag(__real_realloc(raw, n + HDR), n);
}
