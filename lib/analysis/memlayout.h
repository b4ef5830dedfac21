/* memlayout.h: what memlayout.c and memaccess.c share (a copy's layout,
 * and the one taken from the function's accesses of the copied bytes). */
#ifndef LT_ANALYSIS_MEMLAYOUT_H
#define LT_ANALYSIS_MEMLAYOUT_H

#include "lt.h"

/* The most places lt_mem_copy_places finds. */
enum { LT_COPY_PLACES = 8 };

/* A field of L at off (filled: a float guessed for bytes nothing else
 * says); past LT_MEM_FIELDS, L overflows. */
void lt_mem_add_field(LtMemLayout *L, unsigned long long off, LLVMTypeRef t, int filled);
/* The places that hold the n bytes call copies, each a base and the
 * offset of the copy's first byte from it, into base[] and at[] (room for
 * LT_COPY_PLACES); their number. */
unsigned lt_mem_copy_places(LLVMTargetDataRef td, LLVMValueRef fn, LLVMValueRef call,
                            unsigned long long n, LLVMValueRef *base, long long *at);
/* L from how the function accesses a constant copy's n bytes (ranges
 * nothing describes: fill); 0 when the accesses disagree or are too many
 * to read. */
int lt_mem_from_accesses(LtCtx *c, const LtActivity *a, LLVMValueRef call,
                         unsigned long long n, LLVMTypeRef fill, LtMemLayout *L);

#endif
