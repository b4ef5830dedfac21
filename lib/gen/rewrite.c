/* rewrite.c: replace an __enzyme_* call by calls to its derivative.
 *
 * Arguments are converted back from C's variadic promotions (float was
 * passed as double, small integers as int). The gradients of enzyme_out
 * arguments are returned in the shape the call was declared with: a scalar,
 * a struct of them in argument order, a short float vector (x86-64 returns
 * {float, float} that way), or stored through the call's sret pointer.
 */
#include "lt.h"

#include <stdlib.h>
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

/* The scalar floats of v in order (vectors and aggregates taken apart). */
static void scalars(LtCtx *c, LLVMBuilderRef b, LLVMValueRef v, LtVec *out) {
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (k == LLVMVectorTypeKind) {
    for (unsigned i = 0; i < LLVMGetVectorSize(t); i++)
      lt_vec_push(out, LLVMBuildExtractElement(b, v, LLVMConstInt(c->i32, i, 0), ""));
  } else if (lt_is_aggregate_ty(t)) {
    unsigned n = k == LLVMStructTypeKind ? LLVMCountStructElementTypes(t)
                                         : (unsigned)LLVMGetArrayLength2(t);
    for (unsigned i = 0; i < n; i++)
      scalars(c, b, LLVMBuildExtractValue(b, v, i, ""), out);
  } else {
    lt_vec_push(out, v);
  }
}

/* A value of type t built from scalar floats s[*k..]; NULL when t has a
 * leaf that is not a float or the scalars run out. */
static LLVMValueRef assemble(LtCtx *c, LLVMBuilderRef b, LLVMTypeRef t,
                             const LtVec *s, size_t *k) {
  LLVMTypeKind tk = LLVMGetTypeKind(t);
  if (lt_is_float_ty(t))
    return *k < s->n ? convert(c, b, s->v[(*k)++], t) : NULL;
  LLVMValueRef r = LLVMGetUndef(t);
  if (tk == LLVMVectorTypeKind) {
    for (unsigned i = 0; i < LLVMGetVectorSize(t); i++) {
      LLVMValueRef e = assemble(c, b, LLVMGetElementType(t), s, k);
      if (!e)
        return NULL;
      r = LLVMBuildInsertElement(b, r, e, LLVMConstInt(c->i32, i, 0), "");
    }
    return r;
  }
  if (!lt_is_aggregate_ty(t))
    return NULL;
  int st = tk == LLVMStructTypeKind;
  unsigned n = st ? LLVMCountStructElementTypes(t) : (unsigned)LLVMGetArrayLength2(t);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef e = assemble(c, b, st ? LLVMStructGetTypeAtIndex(t, i)
                                       : LLVMGetElementType(t), s, k);
    if (!e)
      return NULL;
    r = LLVMBuildInsertValue(b, r, e, i, "");
  }
  return r;
}

/* The gradients as a value of the declared type want, or NULL: a single
 * float, or any struct, array or vector whose float members, taken in
 * order, are the gradients' floats in argument order. */
static LLVMValueRef shape(LtCtx *c, LLVMBuilderRef b, const LtDeriv *d,
                          LLVMValueRef res, LLVMTypeRef want) {
  if (d->nouts == 0)
    return lt_is_diff_ty(want) ? LLVMConstNull(want) : NULL;
  if (lt_is_float_ty(want) && d->nouts == 1 && lt_is_float_ty(LLVMTypeOf(res)))
    return convert(c, b, res, want);
  LtVec s = {0};
  for (unsigned i = 0; i < d->nouts; i++)
    scalars(c, b, out_field(b, d, res, i), &s);
  size_t k = 0;
  LLVMValueRef v = assemble(c, b, want, &s, &k);
  if (k != s.n)
    v = NULL;
  lt_vec_free(&s);
  return v;
}

/* Shape the gradients like the call's declared return. */
static int deliver(LtCtx *c, LLVMBuilderRef b, const LtRequest *r,
                   const LtDeriv *d, LLVMValueRef res) {
  LLVMValueRef call = r->call;
  LLVMTypeRef want = LLVMTypeOf(call);
  if (r->sret) {
    unsigned kind = LLVMGetEnumAttributeKindForName("sret", 4);
    LLVMTypeRef st = LLVMGetTypeAttributeValue(
        LLVMGetCallSiteEnumAttribute(call, 1, kind));
    LLVMValueRef v = shape(c, b, d, res, st);
    if (!v)
      goto mismatch;
    LLVMBuildStore(b, v, r->sret);
    return 0;
  }
  if (LLVMGetTypeKind(want) == LLVMVoidTypeKind || LLVMGetFirstUse(call) == NULL)
    return 0;
  LLVMValueRef v = shape(c, b, d, res, want);
  if (!v)
    goto mismatch;
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

/* What __enzyme_augmentfwd returns, of its declared type: the tape, or a
 * struct holding the tape (its pointer member) and the primal result (the
 * other member), in either order (Enzyme's augmented primal returns both). */
static LLVMValueRef tape_and_result(LtCtx *c, LLVMBuilderRef b, LLVMTypeRef want,
                                    LLVMValueRef tape, LLVMValueRef result) {
  if (lt_is_ptr_ty(want))
    return tape;
  if (LLVMGetTypeKind(want) != LLVMStructTypeKind ||
      LLVMCountStructElementTypes(want) != 2)
    return NULL;
  LLVMTypeRef rt = LLVMTypeOf(result);
  for (unsigned t = 0; t < 2; t++) {
    LLVMTypeRef tt = LLVMStructGetTypeAtIndex(want, t);
    LLVMTypeRef ot = LLVMStructGetTypeAtIndex(want, 1 - t);
    if (!lt_is_ptr_ty(tt) || LLVMGetTypeKind(rt) == LLVMVoidTypeKind ||
        !(ot == rt || (lt_is_float_ty(ot) && lt_is_float_ty(rt))))
      continue;
    LLVMValueRef v = LLVMGetUndef(want);
    v = LLVMBuildInsertValue(b, v, tape, t, "");
    return LLVMBuildInsertValue(b, v, convert(c, b, result, ot), 1 - t, "");
  }
  return NULL;
}

static int tape_too_small(LtCtx *c, const LtRequest *r, const LtDeriv *d) {
  lt_error(c, r->call, "the tape of '%s' needs %llu bytes, but "
                       "enzyme_allocated gives %lld",
           LLVMGetValueName2(r->fn, &(size_t){0}), d->tape_size, r->allocated);
  return -1;
}

/* __enzyme_fwddiff: call T with the primal arguments and, per dup
 * parameter, its W shadows (enzyme_dupv: W offsets of one pointer); the
 * result (tangent, or {primal, tangent}) is delivered as the call was
 * declared: its floats in order into a float, struct, array or vector. */
int lt_rewrite_fwd(LtCtx *c, const LtRequest *r, const LtDeriv *d) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, r->call);
  unsigned W = r->width ? r->width : 1, n = 0;
  LLVMValueRef *args = lt_xcalloc((size_t)r->nparams * (W + 1) + 1, sizeof *args);
  for (unsigned p = 0; p < r->nparams; p++)
    args[n++] = convert(c, b, r->arg[p], LLVMTypeOf(LLVMGetParam(r->fn, p)));
  for (unsigned p = 0; p < r->nparams; p++) {
    if (!lt_is_dup(r->act[p]))
      continue;
    LLVMTypeRef pt = LLVMTypeOf(LLVMGetParam(r->fn, p));
    for (unsigned k = 0; k < W; k++) {
      LLVMValueRef s = r->lanes[p * W + (r->stride[p] ? 0 : k)];
      if (r->stride[p] && k) {
        LLVMValueRef off = LLVMBuildMul(
            b, LLVMBuildSExtOrBitCast(b, r->stride[p], c->i64, ""),
            LLVMConstInt(c->i64, k, 0), "");
        s = LLVMBuildGEP2(b, c->i8, s, &off, 1, "");
      }
      args[n++] = convert(c, b, s, pt);
    }
  }
  if (r->mode == LT_FWDDIFF)
    lt_zero_shadow_globals(c, b, d->aug); /* tangents of globals start at 0 */
  LLVMValueRef res = LLVMBuildCall2(b, LLVMGlobalGetValueType(d->aug), d->aug, args, n, "");
  free(args);
  LLVMInstructionSetDebugLoc(res, LLVMInstructionGetDebugLoc(r->call));
  int rc = 0;
  LLVMTypeRef want = r->sret ? LLVMGetTypeAttributeValue(LLVMGetCallSiteEnumAttribute(
                                   r->call, 1, LLVMGetEnumAttributeKindForName("sret", 4)))
                             : LLVMTypeOf(r->call);
  int used = r->sret || (LLVMGetTypeKind(want) != LLVMVoidTypeKind && LLVMGetFirstUse(r->call));
  if (used && LLVMGetTypeKind(LLVMTypeOf(res)) != LLVMVoidTypeKind) {
    LLVMValueRef v = NULL;
    if (LLVMTypeOf(res) == want || (lt_is_float_ty(want) && lt_is_float_ty(LLVMTypeOf(res))) ||
        (lt_is_ptr_ty(want) && lt_is_ptr_ty(LLVMTypeOf(res)))) {
      v = convert(c, b, res, want);
    } else {
      LtVec sc = {0};
      scalars(c, b, res, &sc);
      size_t k = 0;
      v = assemble(c, b, want, &sc, &k);
      if (k != sc.n)
        v = NULL;
      lt_vec_free(&sc);
    }
    if (!v) {
      lt_error(c, r->call, "the declared return type of this __enzyme_fwddiff "
                           "call does not match what '%s' gives: %s%s",
               LLVMGetValueName2(r->fn, &(size_t){0}),
               d->want_primal ? "the result and then " : "",
               W > 1 ? "one tangent per direction (declare a struct, array or "
                       "vector of them)"
                     : "the tangent of the result");
      rc = -1;
    } else if (r->sret) {
      LLVMBuildStore(b, v, r->sret);
    } else {
      LLVMReplaceAllUsesWith(r->call, v);
    }
  } else if (used && !r->sret) {
    lt_error(c, r->call, "'%s' returns nothing to take a tangent of; declare "
                         "this __enzyme_fwddiff call void",
             LLVMGetValueName2(r->fn, &(size_t){0}));
    rc = -1;
  }
  LLVMDisposeBuilder(b);
  if (!rc)
    erase_call(r->call);
  else
    LLVMInstructionEraseFromParent(res);
  return rc;
}

int lt_rewrite(LtCtx *c, const LtRequest *r, const LtDeriv *d) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, r->call);
  LLVMValueRef args[600], res = NULL, nc = NULL;
  unsigned n = common_args(c, b, r, args);
  int rc = 0;
  switch (r->mode) {
  case LT_FWDDIFF:
  case LT_FWDSUB:
    LLVMDisposeBuilder(b);
    return lt_rewrite_fwd(c, r, d);
  case LT_AUTODIFF:
    n = (unsigned)add_dret(c, b, r, args, n);
    lt_zero_shadow_globals(c, b, d->grad);
    nc = res = LLVMBuildCall2(b, LLVMGlobalGetValueType(d->grad), d->grad, args, n, "");
    rc = deliver(c, b, r, d, res);
    break;
  case LT_AUGFWD: {
    unsigned long long sz = d->tape_size ? d->tape_size : 1;
    if (r->allocated && d->tape_size > (unsigned long long)r->allocated) {
      rc = tape_too_small(c, r, d);
      break;
    }
    /* enzyme_allocated N, enzyme_tape p: the tape is the caller's storage;
     * enzyme_tape p alone: p receives the heap tape. */
    LLVMValueRef tape = r->tape_ptr && r->allocated
                            ? r->tape_ptr
                            : lt_build_malloc(b, c->mod, LLVMConstInt(c->i64, sz, 0));
    if (r->tape_ptr && !r->allocated)
      LLVMBuildStore(b, tape, r->tape_ptr);
    args[n++] = tape;
    lt_map_put(&c->tape_owner, tape, (void *)d);
    lt_zero_shadow_globals(c, b, d->aug);
    nc = LLVMBuildCall2(b, LLVMGlobalGetValueType(d->aug), d->aug, args, n, "");
    if (LLVMGetFirstUse(r->call) && r->tape_ptr) {
      if (!d->want_primal) {
        lt_error(c, r->call, "with enzyme_tape, __enzyme_augmentfwd returns "
                             "the function's result, which '%s' does not have",
                 LLVMGetValueName2(r->fn, &(size_t){0}));
        rc = -1;
        break;
      }
      LLVMReplaceAllUsesWith(r->call, convert(c, b, nc, LLVMTypeOf(r->call)));
    } else if (LLVMGetFirstUse(r->call)) {
      LLVMValueRef v = tape_and_result(c, b, LLVMTypeOf(r->call), tape, nc);
      if (!v) {
        lt_error(c, r->call, "__enzyme_augmentfwd returns the tape: declare it "
                             "to return void *, or a struct of the tape "
                             "pointer and the function's result");
        rc = -1;
        break;
      }
      LLVMReplaceAllUsesWith(r->call, v);
    }
    break;
  }
  case LT_REVERSE: {
    if (r->allocated && d->tape_size > (unsigned long long)r->allocated) {
      rc = tape_too_small(c, r, d);
      break;
    }
    n = (unsigned)add_dret(c, b, r, args, n);
    args[n++] = !r->tape_ptr   ? r->tape
                : r->allocated ? r->tape_ptr
                               : LLVMBuildLoad2(b, c->ptr, r->tape_ptr, "lt.tape");
    nc = res = LLVMBuildCall2(b, LLVMGlobalGetValueType(d->rev), d->rev, args, n, "");
    lt_vec_push(&c->rev_calls, nc);
    lt_vec_push(&c->rev_calls, (void *)d);
    rc = deliver(c, b, r, d, res);
    break;
  }
  case LT_SUBCALL: /* never a call site's mode */
    break;
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
    size_t len;
    LLVMGetValueName2(d->fn, &len);
    /* function and activity: the key up to the mode (derive.c) */
    size_t klen = len + 1 + LLVMCountParams(d->fn);
    if (owner && (owner->fn != d->fn || strncmp(owner->key, d->key, klen)))
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
