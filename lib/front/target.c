/* target.c: the function an __enzyme_* call differentiates, and what
 * reverse- and forward-mode parsing (callsite.c, fwdsite.c) share: marker
 * names, the hidden sret operand, which operand types fit a parameter.
 * The function is found through casts, aliases, an -O0 local copy and a
 * lambda's conversion to a function pointer (a call whose callee returns
 * the same function everywhere).
 */
#include "lt.h"

#include <string.h>

const char *lt_act_name(LtAct a) {
  switch (a) {
  case LT_DUP:
    return "enzyme_dup";
  case LT_DUPNONEED:
    return "enzyme_dupnoneed";
  case LT_OUT:
    return "enzyme_out";
  default:
    return "enzyme_const";
  }
}

int lt_callsite_has_sret(LLVMValueRef call) {
  unsigned kind = LLVMGetEnumAttributeKindForName("sret", 4);
  return LLVMGetNumArgOperands(call) > 0 &&
         LLVMGetCallSiteEnumAttribute(call, 1, kind) != NULL;
}

/* Can a call operand of type `have` be passed for a parameter of type
 * `want`? Variadic calls promote float to double and small ints to int. */
int lt_callsite_compatible(LLVMTypeRef have, LLVMTypeRef want) {
  if (have == want)
    return 1;
  if (lt_is_float_ty(have) && lt_is_float_ty(want))
    return 1;
  if (lt_is_ptr_ty(have) && lt_is_ptr_ty(want))
    return 1; /* an address space cast, as in Enzyme */
  return LLVMGetTypeKind(have) == LLVMIntegerTypeKind &&
         LLVMGetTypeKind(want) == LLVMIntegerTypeKind;
}

/* The one value stored into a local slot (an -O0 variable), or NULL. */
static LLVMValueRef stored_once(LLVMValueRef slot) {
  LLVMValueRef stored = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot) {
      if (stored)
        return NULL;
      stored = LLVMGetOperand(user, 0);
    }
  }
  return stored;
}

/* The function a call returns when every return of its (defined) callee
 * returns the same function: a lambda's conversion to a function pointer,
 * which -O0 does not inline. */
static LLVMValueRef returned_fn(LLVMValueRef call) {
  LLVMValueRef g = lt_called_fn(call), r = NULL;
  if (!g || LLVMIsDeclaration(g))
    return NULL;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(g); bb; bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || !LLVMIsAReturnInst(t))
      continue;
    if (LLVMGetNumOperands(t) != 1)
      return NULL;
    LLVMValueRef v = LLVMGetOperand(t, 0);
    while (LLVMIsAConstantExpr(v) && (LLVMGetConstOpcode(v) == LLVMBitCast ||
                                      LLVMGetConstOpcode(v) == LLVMAddrSpaceCast))
      v = LLVMGetOperand(v, 0);
    if (!LLVMIsAFunction(v) || (r && r != v))
      return NULL;
    r = v;
  }
  return r;
}

LLVMValueRef lt_callsite_resolve_fn(LLVMValueRef v) {
  for (int hops = 0; v && !LLVMIsAFunction(v) && hops < 8; hops++) {
    if (LLVMIsAConstantExpr(v) &&
        (LLVMGetConstOpcode(v) == LLVMBitCast ||
         LLVMGetConstOpcode(v) == LLVMAddrSpaceCast))
      v = LLVMGetOperand(v, 0);
    else if (LLVMIsAGlobalAlias(v))
      v = LLVMAliasGetAliasee(v);
    else if (LLVMIsALoadInst(v) && LLVMIsAAllocaInst(LLVMGetOperand(v, 0)))
      v = stored_once(LLVMGetOperand(v, 0)); /* a local copy at -O0 */
    else if (LLVMIsACallInst(v))
      v = returned_fn(v);
    else
      return NULL;
  }
  return v && LLVMIsAFunction(v) ? v : NULL;
}

LLVMValueRef lt_callsite_fn(LLVMValueRef call) {
  unsigned i = lt_callsite_has_sret(call) ? 1 : 0;
  return i < LLVMGetNumArgOperands(call) ? lt_callsite_resolve_fn(LLVMGetOperand(call, i))
                                          : NULL;
}

int lt_callsite_target(LtCtx *c, LLVMValueRef call, LtRequest *r, unsigned *i) {
  unsigned nops = LLVMGetNumArgOperands(call);
  if (lt_callsite_has_sret(call))
    r->sret = LLVMGetOperand(call, (*i)++);
  LLVMValueRef fn = *i < nops ? lt_callsite_resolve_fn(LLVMGetOperand(call, *i)) : NULL;
  ++*i;
  if (!fn || LLVMIsDeclaration(fn)) {
    lt_error(c, call, "first argument must be a function defined in this "
                      "module (got %s); pass the function itself, e.g. "
                      "(void *)f",
             fn ? "an external declaration" : "something else");
    return -1;
  }
  if (LLVMIsFunctionVarArg(LLVMGlobalGetValueType(fn))) {
    lt_error(c, call, "cannot differentiate a variadic function");
    return -1;
  }
  r->fn = fn;
  r->nparams = LLVMCountParams(fn);
  return 0;
}


/* The functions v may be: a function, or phis and selects of them (depth
 * 4, 16 functions at most); 0 when v may be anything else. */
static unsigned fn_leaves(LLVMValueRef v, LLVMValueRef *out, unsigned n, int depth) {
  LLVMValueRef f = lt_callsite_resolve_fn(v);
  if (f) {
    for (unsigned k = 0; k < n; k++)
      if (out[k] == f)
        return n;
    return n < 16 ? (out[n] = f, n + 1) : 0;
  }
  if (depth > 4)
    return 0;
  if (LLVMIsASelectInst(v))
    return (n = fn_leaves(LLVMGetOperand(v, 1), out, n, depth + 1))
               ? fn_leaves(LLVMGetOperand(v, 2), out, n, depth + 1)
               : 0;
  if (LLVMIsAPHINode(v))
    for (unsigned k = 0, m = LLVMCountIncoming(v); k < m && n; k++)
      n = fn_leaves(LLVMGetIncomingValue(v, k), out, n, depth + 1);
  else
    return 0;
  return n;
}

/* call, whose function operand fop is one of fns[0..n): a call per
 * function, each with its own constant, chosen by comparing fop with it. */
static void split_call(LtCtx *c, LLVMValueRef call, unsigned fop, LLVMValueRef *fns, unsigned n) {
  LLVMValueRef v = LLVMGetOperand(call, fop);
  LLVMBasicBlockRef pre = lt_split_before(c->llctx, call);
  LLVMValueRef next = LLVMGetNextInstruction(call);
  LLVMBasicBlockRef last = lt_split_before(c->llctx, next); /* just the call */
  LLVMBasicBlockRef rest = LLVMGetInstructionParent(next);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, last);
  LLVMBuildBr(b, rest);
  LLVMSetOperand(call, fop, fns[n - 1]);
  int val = LLVMGetTypeKind(LLVMTypeOf(call)) != LLVMVoidTypeKind;
  LLVMValueRef phi = NULL;
  if (val) {
    LLVMPositionBuilderBefore(b, next);
    phi = LLVMBuildPhi(b, LLVMTypeOf(call), "lt.merged");
    LLVMReplaceAllUsesWith(call, phi);
    LLVMAddIncoming(phi, &call, &last, 1);
  }
  LLVMBasicBlockRef test = pre;
  for (unsigned k = 0; k + 1 < n; k++) {
    LLVMBasicBlockRef one = LLVMInsertBasicBlockInContext(c->llctx, last, "lt.merged.call");
    LLVMBasicBlockRef no = k + 2 < n ? LLVMInsertBasicBlockInContext(c->llctx, last, "lt.merged.test")
                                     : last;
    LLVMPositionBuilderAtEnd(b, test);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, v, fns[k], ""), one, no);
    LLVMPositionBuilderAtEnd(b, one);
    LLVMValueRef ck = LLVMInstructionClone(call);
    LLVMInsertIntoBuilder(b, ck);
    LLVMSetOperand(ck, fop, fns[k]);
    LLVMBuildBr(b, rest);
    if (val)
      LLVMAddIncoming(phi, &ck, &one, 1);
    test = no;
  }
  LLVMDisposeBuilder(b);
}

void lt_split_merged_calls(LtCtx *c) {
  LtVec calls = {0};
  LtMode mode;
  for (LLVMValueRef f = LLVMGetFirstFunction(c->mod); f; f = LLVMGetNextFunction(f))
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
        if (LLVMIsACallInst(i) && lt_callsite_mode(i, &mode) && !lt_callsite_fn(i))
          lt_vec_push(&calls, i);
  for (size_t k = 0; k < calls.n; k++) {
    LLVMValueRef call = calls.v[k], fns[16];
    unsigned fop = lt_callsite_has_sret(call) ? 1 : 0;
    unsigned n = fop < LLVMGetNumArgOperands(call)
                     ? fn_leaves(LLVMGetOperand(call, fop), fns, 0, 0)
                     : 0;
    if (n > 1)
      split_call(c, call, fop, fns, n);
  }
  lt_vec_free(&calls);
}
