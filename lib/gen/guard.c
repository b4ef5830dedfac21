/* guard.c: shadows that may be null (mixed activity).
 *
 * A pointer that may address active and inactive memory has a shadow that
 * is null whenever it addresses inactive memory (shadow GEPs keep a null
 * base null). Every access through such a shadow goes through a guarded
 * address: reads come from a zero area (inactive memory has no
 * derivative), writes go to a scratch sink (nothing flows back into
 * inactive memory). Both are branch-free selects, so loops stay simple.
 * Accesses of more than LT_GUARD_BYTES bytes are not guarded: the callers
 * reject them.
 */
#include "lt.h"

static LLVMValueRef zero_area(LtCtx *c) {
  LLVMValueRef z = LLVMGetNamedGlobal(c->mod, "lt.zero");
  if (z)
    return z;
  LLVMTypeRef t = LLVMArrayType2(c->i8, LT_GUARD_BYTES);
  z = LLVMAddGlobal(c->mod, t, "lt.zero");
  LLVMSetInitializer(z, LLVMConstNull(t));
  LLVMSetGlobalConstant(z, 1);
  LLVMSetLinkage(z, LLVMPrivateLinkage);
  LLVMSetAlignment(z, 16);
  LLVMSetUnnamedAddress(z, LLVMGlobalUnnamedAddr);
  return z;
}

static LLVMValueRef pick(LtCtx *c, LLVMBuilderRef b, LLVMValueRef sp,
                         LLVMValueRef other) {
  LLVMTypeRef pt = LLVMTypeOf(sp);
  if (LLVMTypeOf(other) != pt)
    other = LLVMBuildAddrSpaceCast(b, other, pt, "");
  LLVMValueRef isnull = LLVMBuildICmp(b, LLVMIntEQ, sp, LLVMConstNull(pt), "");
  (void)c;
  return LLVMBuildSelect(b, isnull, other, sp, "lt.guard");
}

LLVMValueRef lt_guard_read(LtCtx *c, LLVMBuilderRef b, LLVMValueRef sp) {
  return pick(c, b, sp, zero_area(c));
}

LLVMValueRef lt_guard_sink(LtCtx *c, LLVMBuilderRef entry) {
  return lt_build_slot(entry, LLVMArrayType2(c->i8, LT_GUARD_BYTES), 16, "lt.sink");
}

LLVMValueRef lt_guard_write(LtCtx *c, LLVMBuilderRef b, LLVMValueRef sp,
                            LLVMValueRef sink) {
  return pick(c, b, sp, sink);
}

LLVMValueRef lt_guard_gep(LtCtx *c, LLVMBuilderRef b, LLVMValueRef base,
                          LLVMValueRef gep) {
  (void)c;
  LLVMTypeRef pt = LLVMTypeOf(base);
  LLVMValueRef isnull = LLVMBuildICmp(b, LLVMIntEQ, base, LLVMConstNull(pt), "");
  return LLVMBuildSelect(b, isnull, LLVMConstNull(LLVMTypeOf(gep)), gep, "");
}

static LLVMValueRef helper(LtCtx *c, const char *name, int move) {
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  LLVMTypeRef fty = move ? LLVMFunctionType(c->vd, pt, 3, 0)
                         : LLVMFunctionType(c->vd, (LLVMTypeRef[]){c->ptr, c->i64}, 2, 0);
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, name, fty, &e);
  if (!e)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef z = LLVMAppendBasicBlockInContext(c->llctx, f, "zero");
  LLVMBasicBlockRef x = LLVMAppendBasicBlockInContext(c->llctx, f, "exit");
  LLVMValueRef dst = LLVMGetParam(f, 0), n = LLVMGetParam(f, move ? 2 : 1);
  LLVMValueRef null = LLVMConstNull(c->ptr);
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef dnull = LLVMBuildICmp(b, LLVMIntEQ, dst, null, "");
  if (move) {
    LLVMBasicBlockRef m = LLVMAppendBasicBlockInContext(c->llctx, f, "move");
    LLVMBasicBlockRef t = LLVMAppendBasicBlockInContext(c->llctx, f, "test");
    LLVMBuildCondBr(b, dnull, x, t);
    LLVMPositionBuilderAtEnd(b, t);
    LLVMValueRef src = LLVMGetParam(f, 1);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, src, null, ""), z, m);
    LLVMPositionBuilderAtEnd(b, m);
    LLVMBuildMemMove(b, dst, 1, src, 1, n);
    LLVMBuildBr(b, x);
  } else {
    LLVMBuildCondBr(b, dnull, x, z);
  }
  LLVMPositionBuilderAtEnd(b, z);
  LLVMBuildMemSet(b, dst, LLVMConstInt(c->i8, 0, 0), n, 1);
  LLVMBuildBr(b, x);
  LLVMPositionBuilderAtEnd(b, x);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

void lt_guard_memset(LtCtx *c, LLVMBuilderRef b, LLVMValueRef dst,
                     LLVMValueRef n) {
  LLVMValueRef f = helper(c, "lt.shadow.zero", 0);
  LLVMValueRef args[2] = {LLVMBuildPointerCast(b, dst, c->ptr, ""),
                          LLVMBuildZExtOrBitCast(b, n, c->i64, "")};
  LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 2, "");
}

void lt_guard_memmove(LtCtx *c, LLVMBuilderRef b, LLVMValueRef dst,
                      LLVMValueRef src, LLVMValueRef n) {
  LLVMValueRef f = helper(c, "lt.shadow.move", 1);
  LLVMValueRef args[3] = {LLVMBuildPointerCast(b, dst, c->ptr, ""),
                          LLVMBuildPointerCast(b, src, c->ptr, ""),
                          LLVMBuildZExtOrBitCast(b, n, c->i64, "")};
  LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 3, "");
}
