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

/* One element's fields, dst and src at byte `at` (forward: the pointer
 * fields src -> dst; reverse: the float adjoints of dst added to src, dst
 * zeroed; no source: dst's fields zeroed). With rem, a partial last
 * element: only the fields that lie within its rem bytes. Each field is
 * read before any is written (src and dst may overlap by less than an
 * element: memmove(x + 1, x + 2, 40) taken as one element of five
 * doubles); in a partial element, field by field. The builder ends in
 * the block after. */
static void element(LtCtx *c, LLVMBuilderRef b, const LtMemLayout *L, int forward,
                    LLVMValueRef fn, LLVMValueRef dd, LLVMValueRef ds, LLVMValueRef at,
                    LLVMValueRef rem) {
  LLVMValueRef pd[LT_MEM_FIELDS], ps[LT_MEM_FIELDS], v[LT_MEM_FIELDS];
  for (unsigned f = 0; f < L->n; f++) {
    LLVMTypeRef ft = L->f[f].ty;
    if (lt_is_ptr_ty(ft) != forward)
      continue;
    LLVMBasicBlockRef next = NULL;
    if (rem) {
      unsigned long long end = L->f[f].off + LLVMABISizeOfType(c->td, ft);
      LLVMBasicBlockRef in = LLVMAppendBasicBlockInContext(c->llctx, fn, "field");
      next = LLVMAppendBasicBlockInContext(c->llctx, fn, "");
      LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULE, LLVMConstInt(c->i64, end, 0), rem, ""),
                      in, next);
      LLVMPositionBuilderAtEnd(b, in);
    }
    LLVMValueRef o = LLVMBuildAdd(b, at, LLVMConstInt(c->i64, L->f[f].off, 0), "");
    pd[f] = LLVMBuildGEP2(b, c->i8, dd, &o, 1, "");
    if (!ds) {
      LLVMSetAlignment(LLVMBuildStore(b, LLVMConstNull(ft), pd[f]), 1);
    } else {
      ps[f] = LLVMBuildGEP2(b, c->i8, ds, &o, 1, "");
      v[f] = LLVMBuildLoad2(b, ft, forward ? ps[f] : pd[f], "");
      LLVMSetAlignment(v[f], 1);
    }
    if (rem) {
      if (ds)
        LLVMSetAlignment(LLVMBuildStore(b, forward ? v[f] : LLVMConstNull(ft), pd[f]), 1);
      if (ds && !forward) {
        LLVMValueRef old = LLVMBuildLoad2(b, ft, ps[f], "");
        LLVMSetAlignment(old, 1);
        LLVMSetAlignment(LLVMBuildStore(b, lt_build_accum(b, old, v[f]), ps[f]), 1);
      }
      LLVMBuildBr(b, next);
      LLVMPositionBuilderAtEnd(b, next);
    }
  }
  if (rem || !ds)
    return;
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
}

/* void <name>(ptr dst, ptr src, i64 bytes): for each element of the
 * layout in those bytes, move the pointer fields src -> dst (forward), or
 * for the float fields src += dst, dst = 0 (reverse); a partial last
 * element moves the fields that lie within the bytes (a run-time length
 * copy of a prefix of a struct: Eigen's dynamic vector with inline
 * storage copied into its evaluator, whose bytes were divided by the
 * struct's size and copied nothing back; fuzz --eigen seed 1140237).
 * Null shadows take no part. The elements go in the order that reads
 * each before it is written, so src and dst may overlap (memmove). */
LLVMValueRef lt_mem_helper(LtCtx *c, const LtMemLayout *L, int forward) {
  char name[512];
  int k = snprintf(name, sizeof name, "lt.%s.copy.%llu", forward ? "fwd" : "adj",
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
  LLVMBasicBlockRef z0 = LLVMAppendBasicBlockInContext(c->llctx, fn, "zero.head");
  LLVMBasicBlockRef z = LLVMAppendBasicBlockInContext(c->llctx, fn, "zero");
  LLVMBasicBlockRef zt = LLVMAppendBasicBlockInContext(c->llctx, fn, "zero.tail");
  LLVMBasicBlockRef h = LLVMAppendBasicBlockInContext(c->llctx, fn, "head");
  LLVMBasicBlockRef td = LLVMAppendBasicBlockInContext(c->llctx, fn, "tail.down");
  LLVMBasicBlockRef h1 = LLVMAppendBasicBlockInContext(c->llctx, fn, "head.loop");
  LLVMBasicBlockRef l = LLVMAppendBasicBlockInContext(c->llctx, fn, "loop");
  LLVMBasicBlockRef after = LLVMAppendBasicBlockInContext(c->llctx, fn, "after");
  LLVMBasicBlockRef tu = LLVMAppendBasicBlockInContext(c->llctx, fn, "tail.up");
  LLVMBasicBlockRef x = LLVMAppendBasicBlockInContext(c->llctx, fn, "exit");
  LLVMValueRef dd = LLVMGetParam(fn, 0), ds = LLVMGetParam(fn, 1),
               nb = LLVMGetParam(fn, 2);
  LLVMValueRef null = LLVMConstNull(c->ptr);
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), one = LLVMConstInt(c->i64, 1, 0);
  LLVMValueRef per = LLVMConstInt(c->i64, L->period, 0);
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef n = LLVMBuildUDiv(b, nb, per, "count");
  LLVMValueRef rem = LLVMBuildSub(b, nb, LLVMBuildMul(b, n, per, ""), "rem");
  LLVMValueRef tail_at = LLVMBuildSub(b, nb, rem, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, dd, null, ""), x, t);
  LLVMPositionBuilderAtEnd(b, t);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, ds, null, ""), z0, h);
  /* No source shadow: the copied fields of dst get zero (float adjoints
   * overwritten, or null shadow pointers of inactive memory). */
  LLVMPositionBuilderAtEnd(b, z0);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, n, zero, ""), zt, z);
  LLVMPositionBuilderAtEnd(b, z);
  LLVMValueRef k0 = LLVMBuildPhi(b, c->i64, "k");
  element(c, b, L, forward, fn, dd, NULL, LLVMBuildMul(b, k0, per, ""), NULL);
  next_element(b, k0, n, LLVMIntUGE, z0, z, zt);
  LLVMPositionBuilderAtEnd(b, zt);
  element(c, b, L, forward, fn, dd, NULL, tail_at, rem);
  LLVMBuildBr(b, x);
  /* the order that reads each element before anything writes it: a move
   * of dst below src (forward) goes upwards, as memmove does; the
   * adjoint, whose writes go to src, downwards; the partial element,
   * the last, first when downwards */
  LLVMPositionBuilderAtEnd(b, h);
  LLVMValueRef down = LLVMBuildICmp(b, forward ? LLVMIntUGT : LLVMIntULT, dd, ds, "");
  LLVMBuildCondBr(b, down, td, h1);
  LLVMPositionBuilderAtEnd(b, td);
  element(c, b, L, forward, fn, dd, ds, tail_at, rem);
  LLVMBuildBr(b, h1);
  LLVMPositionBuilderAtEnd(b, h1);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, n, zero, ""), after, l);
  LLVMPositionBuilderAtEnd(b, l);
  LLVMValueRef k1 = LLVMBuildPhi(b, c->i64, "k");
  LLVMValueRef ix = LLVMBuildSelect(
      b, down, LLVMBuildSub(b, LLVMBuildSub(b, n, k1, ""), one, ""), k1, "");
  element(c, b, L, forward, fn, dd, ds, LLVMBuildMul(b, ix, per, ""), NULL);
  next_element(b, k1, n, LLVMIntEQ, h1, l, after);
  LLVMPositionBuilderAtEnd(b, after);
  LLVMBuildCondBr(b, down, x, tu);
  LLVMPositionBuilderAtEnd(b, tu);
  element(c, b, L, forward, fn, dd, ds, tail_at, rem);
  LLVMBuildBr(b, x);
  LLVMPositionBuilderAtEnd(b, x);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return fn;
}
