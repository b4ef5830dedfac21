/* target.c: the function an __enzyme_* call differentiates, and what
 * reverse- and forward-mode parsing (callsite.c, fwdsite.c) share: marker
 * names, the hidden sret operand, which operand types fit a parameter.
 * The function is found through casts, aliases, an -O0 local copy and a
 * lambda's conversion to a function pointer (a call whose callee returns
 * the same function everywhere). A call whose function is chosen at run
 * time among known ones (a phi or select, an -O0 local copy of one, a
 * constant table) becomes one call per function (lt_split_merged_calls).
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

/* fns[0..n) plus f: the new count, -1 past 16 functions. */
static int add_fn(LLVMValueRef f, LLVMValueRef *out, int n) {
  for (int k = 0; k < n; k++)
    if (out[k] == f)
      return n;
  return n < 16 ? (out[n] = f, n + 1) : -1;
}

/* The functions in a constant initializer (an array or struct of them)
 * added to out[0..n); -1 when it holds anything else (null, data). */
static int table_fns(LLVMValueRef init, LLVMValueRef *out, int n, int depth) {
  LLVMValueRef f = lt_callsite_resolve_fn(init);
  if (f)
    return add_fn(f, out, n);
  if (depth > 2 || !(LLVMIsAConstantArray(init) || LLVMIsAConstantStruct(init)))
    return -1;
  for (int k = 0, m = LLVMGetNumOperands(init); k < m && n >= 0; k++)
    n = table_fns(LLVMGetOperand(init, (unsigned)k), out, n, depth + 1);
  return n;
}

/* The initializer of the constant table of functions that load v reads
 * at some index (`static void *const fns[] = {f1, f2}; ... fns[k]`), or
 * NULL. */
static LLVMValueRef fn_table(LLVMValueRef v) {
  if (!LLVMIsALoadInst(v) || !lt_is_ptr_ty(LLVMTypeOf(v)))
    return NULL;
  LLVMValueRef p = LLVMGetOperand(v, 0);
  for (int hops = 0; hops < 4; hops++)
    if (LLVMIsAGetElementPtrInst(p) ||
        (LLVMIsAConstantExpr(p) && LLVMGetConstOpcode(p) == LLVMGetElementPtr))
      p = LLVMGetOperand(p, 0);
  if (!LLVMIsAGlobalVariable(p) || !LLVMIsGlobalConstant(p) || LLVMIsDeclaration(p))
    return NULL;
  return LLVMGetInitializer(p);
}

/* The functions v may be, added to out[0..n): a function, phis and
 * selects of them, an -O0 local copy of one of those, or a load from a
 * constant table of functions (depth 4, 16 functions at most); -1 when v
 * may be anything else. The split compares the value itself with each,
 * so these only name the candidates. */
static int fn_leaves(LLVMValueRef v, LLVMValueRef *out, int n, int depth) {
  LLVMValueRef f = lt_callsite_resolve_fn(v), t;
  if (f)
    return add_fn(f, out, n);
  if (depth > 4)
    return -1;
  if (LLVMIsALoadInst(v) && LLVMIsAAllocaInst(LLVMGetOperand(v, 0)) &&
      (t = stored_once(LLVMGetOperand(v, 0))))
    return fn_leaves(t, out, n, depth + 1);
  if ((t = fn_table(v)))
    return table_fns(t, out, n, 0);
  if (LLVMIsASelectInst(v)) {
    n = fn_leaves(LLVMGetOperand(v, 1), out, n, depth + 1);
    return n < 0 ? -1 : fn_leaves(LLVMGetOperand(v, 2), out, n, depth + 1);
  }
  if (!LLVMIsAPHINode(v))
    return -1;
  for (unsigned k = 0, m = LLVMCountIncoming(v); k < m && n >= 0; k++)
    n = fn_leaves(LLVMGetIncomingValue(v, k), out, n, depth + 1);
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
    int n = fop < LLVMGetNumArgOperands(call) ? fn_leaves(LLVMGetOperand(call, fop), fns, 0, 0)
                                               : -1;
    if (n > 1)
      split_call(c, call, fop, fns, (unsigned)n);
    else if (n == 1)
      LLVMSetOperand(call, fop, fns[0]); /* the one function it can be */
  }
  lt_vec_free(&calls);
}
