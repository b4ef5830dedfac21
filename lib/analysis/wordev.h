/* wordev.h: what a word of memory holds, as its declared type and its
 * other accesses say (wordev.c), for bits.c. Private to lib/analysis:
 * included after lt.h by those two files only. */
#ifndef LT_WORDEV_H
#define LT_WORDEV_H

/* What bytes hold: unknown, floats, integers, pointers, or a mix. */
enum { W_UNKNOWN, W_FLOAT, W_INT, W_PTR, W_CONFLICT };

typedef struct LtWordEv {
  LtCtx *c;
  LLVMTargetDataRef td;
  LtMap acc;            /* base -> the float and pointer accesses at it */
  LtVec owned;
} LtWordEv;

/* Notes the float and pointer accesses of the function g is the CFG of
 * (and of the callees it hands memory to). */
void lt_wordev_init(LtWordEv *w, LtCtx *c, const LtCfg *g);
void lt_wordev_free(LtWordEv *w);
/* The class of the size bytes at addr, and for W_FLOAT the float type
 * (a vector of it when several floats tile the bytes): by the memory's
 * declared type, and by the other float and pointer accesses of the same
 * bytes (a parameter's: also its callers'). */
int lt_wordev_decl(LtWordEv *w, LLVMValueRef addr, unsigned long long size, LLVMTypeRef *fty);
int lt_wordev_accesses(LtWordEv *w, LLVMValueRef addr, unsigned long long size,
                       LLVMTypeRef *fty);
/* ... and by the element type the function indexes the word's block
 * with at run-time indices (memelem.c): W_FLOAT, W_PTR or W_UNKNOWN. */
int lt_wordev_elem(LtWordEv *w, LLVMValueRef addr, unsigned long long size, LLVMTypeRef *fty);

#endif
