/* memhelper.c: the helpers that copy memory field by field, per layout
 * (analysis/memlayout.c): a memcpy/memmove's shadow pointers in the
 * forward pass, its adjoints in the reverse pass.
 */
#include "lt.h"

#include <stdio.h>
#include <string.h>

/* The end of the one-block loop over elements k (0 on entry from pre):
 * k + 1, then out to x when (k + 1) `done` n, else around again. */
static void next_element(LLVMBuilderRef b, LLVMValueRef k, LLVMValueRef n,
                         LLVMIntPredicate done, LLVMBasicBlockRef pre,
                         LLVMBasicBlockRef loop, LLVMBasicBlockRef x) {
  LLVMTypeRef i64 = LLVMTypeOf(k);
  LLVMValueRef k1 = LLVMBuildAdd(b, k, LLVMConstInt(i64, 1, 0), "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, done, k1, n, ""), x, loop);
  LLVMValueRef inc[2] = {LLVMConstInt(i64, 0, 0), k1};
  LLVMBasicBlockRef from[2] = {pre, loop};
  LLVMAddIncoming(k, inc, from, 2);
}

/* void <name>(ptr dst, ptr src, i64 count): for each of count elements of
 * the layout, move the pointer fields src -> dst (forward), or for the
 * float fields src += dst, dst = 0 (reverse). Null shadows take no part.
 * Each element's fields are read before any is written, and the elements
 * go in the order that reads each before it is written, so src and dst
 * may overlap (memmove). */
LLVMValueRef lt_mem_helper(LtCtx *c, const LtMemLayout *L, int forward) {
  char name[512];
  int k = snprintf(name, sizeof name, "lt.%s.mem.%llu", forward ? "fwd" : "adj",
                   L->period);
  for (unsigned f = 0; f < L->n && k < (int)sizeof name - 32; f++) {
    char *tn = LLVMPrintTypeToString(L->f[f].ty);
    k += snprintf(name + k, sizeof name - (size_t)k, ".%u%s", L->f[f].off, tn);
    LLVMDisposeMessage(tn);
  }
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  LLVMBasicBlockRef e;
  LLVMValueRef fn = lt_helper_fn(c, name, LLVMFunctionType(c->vd, pt, 3, 0), &e);
  if (!e)
    return fn;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef t = LLVMAppendBasicBlockInContext(c->llctx, fn, "test");
  LLVMBasicBlockRef z = LLVMAppendBasicBlockInContext(c->llctx, fn, "zero");
  LLVMBasicBlockRef h = LLVMAppendBasicBlockInContext(c->llctx, fn, "head");
  LLVMBasicBlockRef l = LLVMAppendBasicBlockInContext(c->llctx, fn, "loop");
  LLVMBasicBlockRef x = LLVMAppendBasicBlockInContext(c->llctx, fn, "exit");
  LLVMValueRef dd = LLVMGetParam(fn, 0), ds = LLVMGetParam(fn, 1),
               n = LLVMGetParam(fn, 2);
  LLVMValueRef null = LLVMConstNull(c->ptr);
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), one = LLVMConstInt(c->i64, 1, 0);
  LLVMValueRef per = LLVMConstInt(c->i64, L->period, 0);
  LLVMPositionBuilderAtEnd(b, e);
  LLVMBuildCondBr(b, LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntEQ, dd, null, ""),
                                 LLVMBuildICmp(b, LLVMIntEQ, n, zero, ""), ""),
                  x, t);
  LLVMPositionBuilderAtEnd(b, t);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, ds, null, ""), z, h);
  LLVMPositionBuilderAtEnd(b, z);
  /* No source shadow: the copied fields of dst get zero (float adjoints
   * overwritten, or null shadow pointers of inactive memory). */
  LLVMValueRef k0 = LLVMBuildPhi(b, c->i64, "k");
  for (unsigned f = 0; f < L->n; f++) {
    if (lt_is_ptr_ty(L->f[f].ty) != forward)
      continue;
    LLVMValueRef at = LLVMBuildAdd(b, LLVMBuildMul(b, k0, per, ""),
                                   LLVMConstInt(c->i64, L->f[f].off, 0), "");
    LLVMValueRef p = LLVMBuildGEP2(b, c->i8, dd, &at, 1, "");
    LLVMSetAlignment(LLVMBuildStore(b, LLVMConstNull(L->f[f].ty), p), 1);
  }
  next_element(b, k0, n, LLVMIntUGE, t, z, x);
  LLVMPositionBuilderAtEnd(b, h);
  /* the order that reads each element before anything writes it: a move
   * of dst below src (forward) goes upwards, as memmove does; the
   * adjoint, whose writes go to src, downwards */
  LLVMValueRef down = LLVMBuildICmp(b, forward ? LLVMIntUGT : LLVMIntULT, dd, ds, "");
  LLVMBuildBr(b, l);
  LLVMPositionBuilderAtEnd(b, l);
  LLVMValueRef k1 = LLVMBuildPhi(b, c->i64, "k");
  LLVMValueRef ix = LLVMBuildSelect(
      b, down, LLVMBuildSub(b, LLVMBuildSub(b, n, k1, ""), one, ""), k1, "");
  /* an element's fields all read before any is written: src and dst may
   * overlap by less than an element (memmove(x + 1, x + 2, 40) taken as
   * one element of five doubles) */
  LLVMValueRef pd[LT_MEM_FIELDS], ps[LT_MEM_FIELDS], v[LT_MEM_FIELDS];
  for (unsigned f = 0; f < L->n; f++) {
    LLVMTypeRef ft = L->f[f].ty;
    if (lt_is_ptr_ty(ft) != forward)
      continue;
    LLVMValueRef at = LLVMBuildAdd(b, LLVMBuildMul(b, ix, per, ""),
                                   LLVMConstInt(c->i64, L->f[f].off, 0), "");
    pd[f] = LLVMBuildGEP2(b, c->i8, dd, &at, 1, "");
    ps[f] = LLVMBuildGEP2(b, c->i8, ds, &at, 1, "");
    v[f] = LLVMBuildLoad2(b, ft, forward ? ps[f] : pd[f], "");
    LLVMSetAlignment(v[f], 1);
  }
  for (unsigned f = 0; f < L->n; f++) {
    LLVMTypeRef ft = L->f[f].ty;
    if (lt_is_ptr_ty(ft) != forward)
      continue;
    LLVMSetAlignment(LLVMBuildStore(b, forward ? v[f] : LLVMConstNull(ft), pd[f]), 1);
  }
  for (unsigned f = 0; f < L->n && !forward; f++) {
    LLVMTypeRef ft = L->f[f].ty;
    if (lt_is_ptr_ty(ft))
      continue;
    LLVMValueRef old = LLVMBuildLoad2(b, ft, ps[f], "");
    LLVMSetAlignment(old, 1);
    LLVMSetAlignment(LLVMBuildStore(b, lt_build_accum(b, old, v[f]), ps[f]), 1);
  }
  next_element(b, k1, n, LLVMIntEQ, h, l, x);
  LLVMPositionBuilderAtEnd(b, x);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return fn;
}
