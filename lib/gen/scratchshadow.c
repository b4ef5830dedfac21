/* scratchshadow.c: shadows of enzyme_const memory the gradient needs
 * (analysis/scratch.c says which), made where the gradient starts and
 * dropped where it ends.
 *
 * How far the function reaches into that memory is not known in general
 * (a pointer, no size), so the shadow is address space, not an
 * allocation: 2 TiB reserved by mmap (MAP_NORESERVE: no memory is
 * committed), the parameter's shadow in the middle of it, so that any
 * offset within 1 TiB either way has one; only the pages the reverse pass
 * touches become memory, zeros when first touched. Linux on x86-64 and
 * AArch64 (the constants below are theirs); elsewhere the analysis is not
 * asked, and such memory stays an error.
 */
#include "lt.h"

#include <stdio.h>
#include <string.h>

#define HALF (1ull << 40)

int lt_scratch_target(LtCtx *c) {
  const char *t = LLVMGetTarget(c->mod);
  return t && strstr(t, "linux") && (!strncmp(t, "x86_64", 6) || !strncmp(t, "aarch64", 7));
}

static LLVMValueRef decl(LtCtx *c, const char *name, LLVMTypeRef ret, LLVMTypeRef *pt,
                         unsigned n) {
  return lt_decl_fn(c->mod, name, LLVMFunctionType(ret, pt, n, 0));
}

static LLVMValueRef call(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef *a, unsigned n) {
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, a, n, "");
}

/* ptr lt.scratch.new(): the middle of 2 HALF bytes of zeros. */
static LLVMValueRef new_fn(LtCtx *c) {
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, "lt.scratch.new", LLVMFunctionType(c->ptr, NULL, 0, 0), &e);
  if (!e)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef bad = LLVMAppendBasicBlockInContext(c->llctx, f, "bad");
  LLVMBasicBlockRef ok = LLVMAppendBasicBlockInContext(c->llctx, f, "ok");
  LLVMPositionBuilderAtEnd(b, e);
  LLVMTypeRef mt[6] = {c->ptr, c->i64, c->i32, c->i32, c->i32, c->i64};
  /* PROT_READ | PROT_WRITE; MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE */
  LLVMValueRef a[6] = {LLVMConstNull(c->ptr), LLVMConstInt(c->i64, 2 * HALF, 0),
                       LLVMConstInt(c->i32, 3, 0), LLVMConstInt(c->i32, 0x4022, 0),
                       LLVMConstInt(c->i32, (unsigned long long)-1, 1),
                       LLVMConstInt(c->i64, 0, 0)};
  LLVMValueRef p = call(b, decl(c, "mmap", c->ptr, mt, 6), a, 6);
  LLVMValueRef failed = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildPtrToInt(b, p, c->i64, ""),
                                      LLVMConstInt(c->i64, (unsigned long long)-1, 1), "");
  LLVMBuildCondBr(b, failed, bad, ok);
  LLVMPositionBuilderAtEnd(b, bad);
  static const char msg[] = "leantape: cannot reserve address space for the shadow of an "
                            "enzyme_const argument whose memory holds active values\n";
  LLVMTypeRef wt[3] = {c->i32, c->ptr, c->i64};
  LLVMValueRef w[3] = {LLVMConstInt(c->i32, 2, 0), LLVMBuildGlobalString(b, msg, "lt.scratch.msg"),
                       LLVMConstInt(c->i64, sizeof msg - 1, 0)};
  call(b, decl(c, "write", c->i64, wt, 3), w, 3);
  call(b, decl(c, "abort", c->vd, NULL, 0), NULL, 0);
  LLVMBuildUnreachable(b);
  LLVMPositionBuilderAtEnd(b, ok);
  LLVMValueRef off = LLVMConstInt(c->i64, HALF, 0);
  LLVMBuildRet(b, LLVMBuildGEP2(b, c->i8, p, &off, 1, ""));
  LLVMDisposeBuilder(b);
  return f;
}

/* void lt.scratch.free(ptr s) */
static LLVMValueRef free_fn(LtCtx *c) {
  LLVMTypeRef pt[1] = {c->ptr};
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, "lt.scratch.free", LLVMFunctionType(c->vd, pt, 1, 0), &e);
  if (!e)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef off = LLVMConstInt(c->i64, (unsigned long long)-(long long)HALF, 1);
  LLVMTypeRef ut[2] = {c->ptr, c->i64};
  LLVMValueRef a[2] = {LLVMBuildGEP2(b, c->i8, LLVMGetParam(f, 0), &off, 1, ""),
                       LLVMConstInt(c->i64, 2 * HALF, 0)};
  call(b, decl(c, "munmap", c->i32, ut, 2), a, 2);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

LLVMValueRef lt_scratch_new(LtCtx *c, LLVMBuilderRef b) {
  return call(b, new_fn(c), NULL, 0);
}

void lt_scratch_free(LtCtx *c, LLVMBuilderRef b, LLVMValueRef s) {
  call(b, free_fn(c), &s, 1);
}

void lt_scratch_remark(LtCtx *c, LLVMValueRef call, LLVMValueRef fn, unsigned p,
                       const char *what) {
  char msg[500];
  snprintf(msg, sizeof msg,
           "parameter %u of '%s' is enzyme_const, but the function stores active "
           "values in its memory and reads them back: the %s gives it a %s of its own "
           "(zeros, dropped when it returns), so the derivatives through it are kept "
           "and none goes to the caller",
           p + 1, LLVMGetValueName2(fn, &(size_t){0}), what,
           strcmp(what, "gradient") ? "tangent" : "shadow");
  lt_remark_emit(c, call, "leantape", "ConstScratch", msg);
}

/* Before every return of fn, the shadows made at its entry go. */
void lt_scratch_free_at_returns(LtCtx *c, LLVMValueRef fn, LLVMValueRef *s, unsigned n) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || !LLVMIsAReturnInst(t))
      continue;
    LLVMPositionBuilderBefore(b, t);
    for (unsigned k = 0; k < n; k++)
      lt_scratch_free(c, b, s[k]);
  }
  LLVMDisposeBuilder(b);
}
