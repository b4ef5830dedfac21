/* link.c: link and walk calls done again on the shadows.
 *
 * A libstdc++ function that links a node into a red-black tree or a list,
 * or walks one (calls.c, LT_CALL_LINK), is called once more with the
 * shadows of its pointer arguments (other arguments as they are): the
 * shadow node goes where the primal node went, and a walk from a shadow
 * node returns the shadow of where the primal walk ends (the shadow
 * structure has the primal's shape). Where a shadow may be null at run
 * time (memory a kept callee gave no shadow), the call goes through
 * lt.link.<name>, which does nothing for a null shadow and returns null.
 */
#include "lt.h"

#include <stdio.h>

/* The guarded wrapper of f: any null pointer argument, nothing. */
static LLVMValueRef guarded(LtCtx *c, LLVMValueRef f, LLVMTypeRef fty) {
  size_t len;
  const char *n = LLVMGetValueName2(f, &len);
  char name[256];
  snprintf(name, sizeof name, "lt.link.%.*s", (int)(len < 200 ? len : 200), n);
  LLVMBasicBlockRef e;
  LLVMValueRef w = lt_helper_fn(c, name, fty, &e);
  if (!e)
    return w;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef go = LLVMAppendBasicBlockInContext(c->llctx, w, "go");
  LLVMBasicBlockRef none = LLVMAppendBasicBlockInContext(c->llctx, w, "none");
  LLVMPositionBuilderAtEnd(b, e);
  unsigned np = LLVMCountParams(w);
  LLVMValueRef any = LLVMConstInt(c->i1, 0, 0), args[8];
  for (unsigned k = 0; k < np && k < 8; k++) {
    args[k] = LLVMGetParam(w, k);
    if (lt_is_ptr_ty(LLVMTypeOf(args[k])))
      any = LLVMBuildOr(b, any, LLVMBuildIsNull(b, args[k], ""), "");
  }
  LLVMBuildCondBr(b, any, none, go);
  LLVMTypeRef rt = LLVMGetReturnType(fty);
  int isvoid = LLVMGetTypeKind(rt) == LLVMVoidTypeKind;
  LLVMPositionBuilderAtEnd(b, go);
  LLVMValueRef r = LLVMBuildCall2(b, fty, f, args, np, "");
  if (isvoid)
    LLVMBuildRetVoid(b);
  else
    LLVMBuildRet(b, r);
  LLVMPositionBuilderAtEnd(b, none);
  if (isvoid)
    LLVMBuildRetVoid(b);
  else
    LLVMBuildRet(b, LLVMConstNull(rt));
  LLVMDisposeBuilder(b);
  return w;
}

LLVMValueRef lt_link_call(LtCtx *c, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef *args,
                          int maynull) {
  LLVMTypeRef fty = LLVMGetCalledFunctionType(call);
  LLVMValueRef f = LLVMGetCalledValue(call);
  unsigned n = LLVMGetNumArgOperands(call);
  if (maynull)
    f = guarded(c, f, fty);
  return LLVMBuildCall2(b, fty, f, args, n, "");
}
