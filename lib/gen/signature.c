/* signature.c: the types of the generated functions. The augmented forward
 * function A takes the parameters, the shadows of the dup parameters and
 * the tape, and returns nothing, the primal result, or {result, its
 * shadow}; the reverse function R takes the parameters, the shadows, the
 * adjoint of a float result and the tape, and returns the gradients of
 * the enzyme_out parameters (a literal struct when several).
 */
#include "lt.h"

#include <stdlib.h>

LLVMTypeRef lt_aug_type(LtCtx *c, LLVMValueRef fn, const LtAct *act,
                        int want_primal, int ret_shadow) {
  unsigned np = LLVMCountParams(fn), n = 0;
  LLVMTypeRef *pt = lt_xcalloc(2 * np + 1, sizeof *pt);
  for (unsigned p = 0; p < np; p++)
    pt[n++] = LLVMTypeOf(LLVMGetParam(fn, p));
  for (unsigned p = 0; p < np; p++)
    if (lt_is_dup(act[p]))
      pt[n++] = pt[p]; /* a shadow lives in its primal's address space */
  pt[n++] = c->ptr;
  LLVMTypeRef rt = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  if (ret_shadow) {
    LLVMTypeRef two[2] = {rt, rt};
    rt = LLVMStructTypeInContext(c->llctx, two, 2, 0);
  } else if (!want_primal) {
    rt = c->vd;
  }
  LLVMTypeRef fty = LLVMFunctionType(rt, pt, n, 0);
  free(pt);
  return fty;
}

LLVMTypeRef lt_rev_type(LtCtx *c, LLVMValueRef fn, const LtAct *act,
                        LLVMTypeRef outs_ty) {
  unsigned np = LLVMCountParams(fn), n = 0;
  LLVMTypeRef *pt = lt_xcalloc(2 * np + 2, sizeof *pt);
  for (unsigned p = 0; p < np; p++)
    pt[n++] = LLVMTypeOf(LLVMGetParam(fn, p));
  for (unsigned p = 0; p < np; p++)
    if (lt_is_dup(act[p]))
      pt[n++] = pt[p];
  LLVMTypeRef rty = LLVMGetReturnType(LLVMGlobalGetValueType(fn));
  if (lt_is_diff_ty(rty))
    pt[n++] = rty;
  pt[n++] = c->ptr;
  LLVMTypeRef fty = LLVMFunctionType(outs_ty, pt, n, 0);
  free(pt);
  return fty;
}

