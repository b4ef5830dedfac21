/* rewrite.c: replace an __enzyme_* call by calls to its derivative.
 *
 * Arguments are converted back from C's variadic promotions (float was
 * passed as double, small integers as int). The gradients of enzyme_out
 * arguments are returned in the shape the call was declared with: a scalar,
 * a struct of them in argument order, a short float vector (x86-64 returns
 * {float, float} that way), or stored through the call's sret pointer.
 */
#include "lt.h"

#include <string.h>

static LLVMValueRef convert(LtCtx *c, LLVMBuilderRef b, LLVMValueRef v,
                            LLVMTypeRef want) {
  (void)c;
  LLVMTypeRef have = LLVMTypeOf(v);
  if (have == want)
    return v;
  if (lt_is_float_ty(have) && lt_is_float_ty(want))
    return LLVMBuildFPCast(b, v, want, "");
  if (LLVMGetTypeKind(have) == LLVMIntegerTypeKind &&
      LLVMGetTypeKind(want) == LLVMIntegerTypeKind)
    return LLVMBuildIntCast2(b, v, want, 1, "");
  if (lt_is_ptr_ty(have) && lt_is_ptr_ty(want))
    return LLVMBuildAddrSpaceCast(b, v, want, "");
  if (lt_same_layout(have, want))
    return lt_convert_layout(b, v, want);
  return LLVMBuildBitCast(b, v, want, "");
}

/* Arguments shared by A, R and the combined gradient. */
static unsigned common_args(LtCtx *c, LLVMBuilderRef b, const LtRequest *r,
                            LLVMValueRef *out) {
  unsigned n = 0;
  for (unsigned p = 0; p < r->nparams; p++)
    out[n++] = convert(c, b, r->arg[p], LLVMTypeOf(LLVMGetParam(r->fn, p)));
  for (unsigned p = 0; p < r->nparams; p++)
    if (r->shadow[p])
      out[n++] = convert(c, b, r->shadow[p], LLVMTypeOf(LLVMGetParam(r->fn, p)));
  return n;
}

static int add_dret(LtCtx *c, LLVMBuilderRef b, const LtRequest *r,
                    LLVMValueRef *out, unsigned n) {
  LLVMTypeRef rty = LLVMGetReturnType(LLVMGlobalGetValueType(r->fn));
  if (!lt_is_diff_ty(rty))
    return (int)n;
  /* Without an explicit adjoint every float of the result is seeded with
   * 1, as in Enzyme (Enzyme.cpp, HandleAutoDiff: ConstantStruct of ones). */
  LLVMValueRef d = lt_const_fill(rty, 1.0);
  if (r->ndret_parts)
    d = lt_build_from_leaves(b, rty, r->dret_parts, r->ndret_parts);
  else if (r->dret_byval)
    d = LLVMBuildLoad2(b, rty, r->dret, "");
  else if (r->dret)
    d = convert(c, b, r->dret, rty);
  out[n++] = d;
  return (int)n;
}

static LLVMValueRef out_field(LLVMBuilderRef b, const LtDeriv *d,
                              LLVMValueRef res, unsigned k) {
  return d->nouts == 1 ? res : LLVMBuildExtractValue(b, res, k, "");
}

/* Shape the gradients like the call's declared return. */
static int deliver(LtCtx *c, LLVMBuilderRef b, const LtRequest *r,
                   const LtDeriv *d, LLVMValueRef res) {
  LLVMValueRef call = r->call;
  LLVMTypeRef want = LLVMTypeOf(call);
  LLVMTypeKind k = LLVMGetTypeKind(want);
  if (r->sret) {
    unsigned kind = LLVMGetEnumAttributeKindForName("sret", 4);
    LLVMTypeRef st = LLVMGetTypeAttributeValue(
        LLVMGetCallSiteEnumAttribute(call, 1, kind));
    if (LLVMGetTypeKind(st) != LLVMStructTypeKind ||
        LLVMCountStructElementTypes(st) != d->nouts)
      goto mismatch;
    for (unsigned i = 0; i < d->nouts; i++) {
      LLVMValueRef p = LLVMBuildStructGEP2(b, st, r->sret, i, "");
      LLVMTypeRef et = LLVMStructGetTypeAtIndex(st, i);
      LLVMBuildStore(b, convert(c, b, out_field(b, d, res, i), et), p);
    }
    return 0;
  }
  if (k == LLVMVoidTypeKind || LLVMGetFirstUse(call) == NULL)
    return 0;
  LLVMValueRef v;
  if (lt_is_float_ty(want) && d->nouts == 1) {
    v = convert(c, b, res, want);
  } else if (lt_is_float_ty(want) && d->nouts == 0) {
    v = LLVMConstNull(want);
  } else if (k == LLVMStructTypeKind &&
             LLVMCountStructElementTypes(want) == d->nouts) {
    v = LLVMGetUndef(want);
    for (unsigned i = 0; i < d->nouts; i++)
      v = LLVMBuildInsertValue(
          b, v,
          convert(c, b, out_field(b, d, res, i), LLVMStructGetTypeAtIndex(want, i)),
          i, "");
  } else if (k == LLVMArrayTypeKind && LLVMGetArrayLength2(want) == d->nouts) {
    v = LLVMGetUndef(want);
    for (unsigned i = 0; i < d->nouts; i++)
      v = LLVMBuildInsertValue(
          b, v, convert(c, b, out_field(b, d, res, i), LLVMGetElementType(want)),
          i, "");
  } else if (k == LLVMVectorTypeKind && LLVMGetVectorSize(want) == d->nouts) {
    v = LLVMGetUndef(want);
    for (unsigned i = 0; i < d->nouts; i++)
      v = LLVMBuildInsertElement(
          b, v, convert(c, b, out_field(b, d, res, i), LLVMGetElementType(want)),
          LLVMConstInt(c->i32, i, 0), "");
  } else {
    goto mismatch;
  }
  LLVMReplaceAllUsesWith(call, v);
  return 0;
mismatch:
  lt_error(c, call, "the declared return type of this call does not match "
                    "the %u enzyme_out gradient(s) of '%s'; declare it to "
                    "return %s",
           d->nouts, LLVMGetValueName2(r->fn, &(size_t){0}),
           d->nouts == 1 ? "a double" : "a struct with one double per enzyme_out argument");
  return -1;
}

static void erase_dead_markers(LLVMValueRef *ops, unsigned n) {
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef v = ops[i];
    if (!v || !LLVMIsALoadInst(v) || LLVMGetFirstUse(v))
      continue;
    LLVMValueRef g = LLVMIsAGlobalVariable(LLVMGetOperand(v, 0));
    size_t len;
    if (!g || strncmp(LLVMGetValueName2(g, &len), "enzyme_", 7))
      continue;
    for (unsigned j = i + 1; j < n; j++)
      if (ops[j] == v)
        ops[j] = NULL;
    LLVMInstructionEraseFromParent(v);
  }
}

static void erase_call(LLVMValueRef call) {
  unsigned n = LLVMGetNumArgOperands(call);
  LLVMValueRef ops[n + 1];
  for (unsigned i = 0; i < n; i++)
    ops[i] = LLVMGetOperand(call, i);
  if (LLVMGetFirstUse(call))
    LLVMReplaceAllUsesWith(call, LLVMGetPoison(LLVMTypeOf(call)));
  if (LLVMIsAInvokeInst(call))
    lt_invoke_to_branch(call);
  LLVMInstructionEraseFromParent(call);
  erase_dead_markers(ops, n);
}

/* Where a tape value comes from: through a local variable at -O0 (an
 * alloca stored once) back to the value stored. */
static LLVMValueRef tape_source(LLVMValueRef v) {
  if (!LLVMIsALoadInst(v) || !LLVMIsAAllocaInst(LLVMGetOperand(v, 0)))
    return v;
  LLVMValueRef slot = LLVMGetOperand(v, 0), stored = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == slot) {
      if (stored)
        return v; /* stored more than once: unknown */
      stored = LLVMGetOperand(user, 0);
    }
  }
  return stored ? stored : v;
}

int lt_rewrite(LtCtx *c, const LtRequest *r, const LtDeriv *d) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, r->call);
  LLVMValueRef args[600], res = NULL, nc = NULL;
  unsigned n = common_args(c, b, r, args);
  int rc = 0;
  switch (r->mode) {
  case LT_AUTODIFF:
    n = (unsigned)add_dret(c, b, r, args, n);
    nc = res = LLVMBuildCall2(b, LLVMGlobalGetValueType(d->grad), d->grad, args, n, "");
    rc = deliver(c, b, r, d, res);
    break;
  case LT_AUGFWD: {
    unsigned long long sz = d->tape_size ? d->tape_size : 1;
    LLVMValueRef tape = lt_build_malloc(b, c->mod, LLVMConstInt(c->i64, sz, 0));
    args[n++] = tape;
    lt_map_put(&c->tape_owner, tape, (void *)d);
    nc = LLVMBuildCall2(b, LLVMGlobalGetValueType(d->aug), d->aug, args, n, "");
    if (LLVMGetFirstUse(r->call)) {
      if (!lt_is_ptr_ty(LLVMTypeOf(r->call))) {
        lt_error(c, r->call, "__enzyme_augmentfwd returns the tape: declare it "
                             "to return void *");
        rc = -1;
        break;
      }
      LLVMReplaceAllUsesWith(r->call, tape);
    }
    break;
  }
  case LT_REVERSE: {
    n = (unsigned)add_dret(c, b, r, args, n);
    args[n++] = r->tape;
    nc = res = LLVMBuildCall2(b, LLVMGlobalGetValueType(d->rev), d->rev, args, n, "");
    lt_vec_push(&c->rev_calls, nc);
    lt_vec_push(&c->rev_calls, (void *)d);
    rc = deliver(c, b, r, d, res);
    break;
  }
  case LT_AUGSIZE:
    if (LLVMGetTypeKind(LLVMTypeOf(r->call)) == LLVMIntegerTypeKind)
      LLVMReplaceAllUsesWith(r->call, LLVMConstInt(LLVMTypeOf(r->call), d->tape_size, 0));
    break;
  }
  if (nc)
    LLVMInstructionSetDebugLoc(nc, LLVMInstructionGetDebugLoc(r->call));
  LLVMDisposeBuilder(b);
  if (rc)
    return rc;
  erase_call(r->call);
  return 0;
}

void lt_rewrite_check_tapes(LtCtx *c) {
  for (size_t i = 0; i + 1 < c->rev_calls.n; i += 2) {
    LLVMValueRef call = c->rev_calls.v[i];
    const LtDeriv *d = c->rev_calls.v[i + 1];
    LLVMValueRef tape = LLVMGetOperand(call, LLVMGetNumArgOperands(call) - 1);
    const LtDeriv *owner = lt_map_get(&c->tape_owner, tape_source(tape));
    if (owner && owner != d)
      lt_error(c, call, "this tape was made by __enzyme_augmentfwd of '%s' "
                        "with a different function or different activity "
                        "markers; pass the same function and markers to "
                        "both calls",
               LLVMGetValueName2(owner->fn, &(size_t){0}));
  }
}

void lt_rewrite_failed(LtCtx *c, LLVMValueRef call) {
  (void)c;
  erase_call(call);
}
