/* fwdinst.c: the tangent of one instruction (forward mode).
 *
 * Called after the instruction's clone in T, in reverse post-order. A
 * float result gets its tangent, a pointer into active memory its shadow,
 * and a memory operation does the same to shadow memory. With width W the
 * tangent of a scalar float is computed once on <W x T> vectors (primal
 * operands splatted); other values lane by lane. Only operands that vary
 * contribute: a constant's tangent is exactly zero, even where the
 * partial is infinite.
 */
#include "lt.h"

#include <string.h>

static LLVMValueRef sink(LtTg *t) {
  if (!t->sink) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(t->c->llctx);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(t->T)));
    t->sink = lt_guard_sink(t->c, b);
    LLVMDisposeBuilder(b);
  }
  return t->sink;
}

static int varied(LtTg *t, LLVMValueRef v) {
  return !LLVMIsAConstant(v) && lt_is_varied(&t->g->act_of, v);
}

static int shadowed(LtTg *t, LLVMValueRef v) {
  return lt_is_shadowed(&t->g->act_of, v);
}

/* Forms: lane < 0, the whole <W x T> of a scalar float (primal operands
 * splatted); lane k >= 0, the k-th tangent (W = 1: the only one). */
static LLVMValueRef prim(LtTg *t, LLVMValueRef v, int lane) {
  LLVMValueRef x = lt_tg_val(t, v);
  if (lane >= 0 || t->W == 1)
    return x;
  LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(x), t->W);
  LLVMValueRef one = LLVMBuildInsertElement(t->b, LLVMGetPoison(vt), x,
                                            LLVMConstInt(t->c->i32, 0, 0), "");
  LLVMValueRef mask = LLVMConstNull(LLVMVectorType(t->c->i32, t->W));
  return LLVMBuildShuffleVector(t->b, one, LLVMGetPoison(vt), mask, "");
}

static LLVMValueRef tang(LtTg *t, LLVMValueRef v, int lane) {
  LLVMTypeRef ty = LLVMTypeOf(v);
  if (!varied(t, v))
    return LLVMConstNull(lane >= 0 ? ty : lt_tg_type(t, ty));
  LLVMValueRef x = lt_tg_tan(t, v);
  return lane >= 0 ? lt_tg_lane(t, x, ty, (unsigned)lane) : x;
}

static LLVMValueRef shadow_lane(LtTg *t, LLVMValueRef p, unsigned k) {
  return lt_tg_lane(t, lt_tg_shadow(t, p), LLVMTypeOf(p), k);
}

static LLVMValueRef fmul(LtTg *t, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFMul(t->b, a, b, "");
}

static LLVMValueRef fadd_opt(LtTg *t, LLVMValueRef acc, LLVMValueRef x) {
  return acc ? LLVMBuildFAdd(t->b, acc, x, "") : x;
}

static LLVMValueRef zero_or(LtTg *t, LLVMValueRef v, LLVMValueRef i, int lane) {
  if (v)
    return v;
  LLVMTypeRef ty = LLVMTypeOf(i);
  return LLVMConstNull(lane >= 0 ? ty : lt_tg_type(t, ty));
}

/* The partials of a math call (the rule's adjoint with dy = 1), one per
 * argument, at t->b; NULL entries for arguments without one. */
static int partials(LtTg *t, LLVMValueRef i, const LtRule *rule, LLVMValueRef *dx) {
  LtRuleIn in;
  memset(&in, 0, sizeof in);
  in.b = t->b;
  in.mod = t->c->mod;
  in.fty = LLVMTypeOf(i);
  in.nargs = LLVMGetNumArgOperands(i);
  if (in.nargs > LT_RULE_MAXARGS)
    return -1;
  for (unsigned k = 0; k < in.nargs; k++)
    in.x[k] = lt_tg_val(t, LLVMGetOperand(i, k));
  in.y = lt_tg_val(t, i);
  in.dy = lt_const_fill(in.fty, 1.0);
  memset(dx, 0, LT_RULE_MAXARGS * sizeof *dx);
  if (rule->adjoint(&in, dx))
    return -1;
  for (unsigned k = 0; k < in.nargs; k++)
    if (!(rule->active_mask >> k & 1) || !varied(t, LLVMGetOperand(i, k)))
      dx[k] = NULL;
  return 0;
}

/* d(a op b) for the complex multiply and divide runtime calls: the result
 * is {re, im} (a struct, or <2 x T> for float). */
static LLVMValueRef complex_lane(LtTg *t, LLVMValueRef i, int lane, int is_div) {
  LLVMValueRef a = prim(t, LLVMGetOperand(i, 0), lane), b = prim(t, LLVMGetOperand(i, 1), lane);
  LLVMValueRef c = prim(t, LLVMGetOperand(i, 2), lane), d = prim(t, LLVMGetOperand(i, 3), lane);
  LLVMValueRef ta = tang(t, LLVMGetOperand(i, 0), lane), tb = tang(t, LLVMGetOperand(i, 1), lane);
  LLVMValueRef tc = tang(t, LLVMGetOperand(i, 2), lane), td = tang(t, LLVMGetOperand(i, 3), lane);
  LLVMBuilderRef B = t->b;
  LLVMValueRef re, im;
  if (!is_div) { /* (a+ib)(c+id): t1 z2 + z1 t2 */
    re = LLVMBuildFSub(B, LLVMBuildFAdd(B, fmul(t, ta, c), fmul(t, a, tc), ""),
                       LLVMBuildFAdd(B, fmul(t, tb, d), fmul(t, b, td), ""), "");
    im = LLVMBuildFAdd(B, LLVMBuildFAdd(B, fmul(t, ta, d), fmul(t, a, td), ""),
                       LLVMBuildFAdd(B, fmul(t, tb, c), fmul(t, b, tc), ""), "");
  } else { /* q = z1 / z2: (t1 - q t2) / z2 */
    LLVMTypeRef rt = LLVMTypeOf(i);
    LLVMValueRef q = lt_tg_val(t, i), qr, qi;
    if (LLVMGetTypeKind(rt) == LLVMStructTypeKind) {
      qr = LLVMBuildExtractValue(B, q, 0, "");
      qi = LLVMBuildExtractValue(B, q, 1, "");
    } else {
      qr = LLVMBuildExtractElement(B, q, LLVMConstInt(t->c->i32, 0, 0), "");
      qi = LLVMBuildExtractElement(B, q, LLVMConstInt(t->c->i32, 1, 0), "");
    }
    /* n = t1 - q t2 */
    LLVMValueRef nr = LLVMBuildFSub(B, ta, LLVMBuildFSub(B, fmul(t, qr, tc), fmul(t, qi, td), ""), "");
    LLVMValueRef ni = LLVMBuildFSub(B, tb, LLVMBuildFAdd(B, fmul(t, qr, td), fmul(t, qi, tc), ""), "");
    LLVMValueRef den = LLVMBuildFAdd(B, fmul(t, c, c), fmul(t, d, d), "");
    re = LLVMBuildFDiv(B, LLVMBuildFAdd(B, fmul(t, nr, c), fmul(t, ni, d), ""), den, "");
    im = LLVMBuildFDiv(B, LLVMBuildFSub(B, fmul(t, ni, c), fmul(t, nr, d), ""), den, "");
  }
  LLVMTypeRef rt = LLVMTypeOf(i);
  LLVMValueRef r = LLVMGetUndef(rt);
  if (LLVMGetTypeKind(rt) == LLVMStructTypeKind) {
    r = LLVMBuildInsertValue(B, r, re, 0, "");
    return LLVMBuildInsertValue(B, r, im, 1, "");
  }
  r = LLVMBuildInsertElement(B, r, re, LLVMConstInt(t->c->i32, 0, 0), "");
  return LLVMBuildInsertElement(B, r, im, LLVMConstInt(t->c->i32, 1, 0), "");
}

/* The tangent of value instruction i in a form; NULL: no formula. */
static LLVMValueRef formula(LtTg *t, LLVMValueRef i, int lane, LLVMValueRef *dx,
                            int is_rule) {
  LLVMBuilderRef B = t->b;
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  LLVMTypeRef ft = lane >= 0 ? LLVMTypeOf(i) : lt_tg_type(t, LLVMTypeOf(i));
  LLVMValueRef a = LLVMGetNumOperands(i) > 0 ? LLVMGetOperand(i, 0) : NULL;
  LLVMValueRef b = LLVMGetNumOperands(i) > 1 ? LLVMGetOperand(i, 1) : NULL;
  if (is_rule) {
    LLVMValueRef acc = NULL;
    for (unsigned k = 0; k < LT_RULE_MAXARGS; k++)
      if (dx[k]) {
        LLVMValueRef p = dx[k];
        if (lane < 0 && t->W > 1) { /* splat the scalar partial */
          LLVMTypeRef vt = LLVMVectorType(LLVMTypeOf(p), t->W);
          LLVMValueRef one = LLVMBuildInsertElement(B, LLVMGetPoison(vt), p,
                                                    LLVMConstInt(t->c->i32, 0, 0), "");
          p = LLVMBuildShuffleVector(B, one, LLVMGetPoison(vt),
                                     LLVMConstNull(LLVMVectorType(t->c->i32, t->W)), "");
        }
        acc = fadd_opt(t, acc, fmul(t, p, tang(t, LLVMGetOperand(i, k), lane)));
      }
    return zero_or(t, acc, i, lane);
  }
  switch (op) {
  case LLVMFAdd:
  case LLVMFSub: {
    LLVMValueRef ta = varied(t, a) ? tang(t, a, lane) : NULL;
    LLVMValueRef tb = varied(t, b) ? tang(t, b, lane) : NULL;
    if (op == LLVMFSub && tb)
      tb = LLVMBuildFNeg(B, tb, "");
    return zero_or(t, ta && tb ? LLVMBuildFAdd(B, ta, tb, "") : ta ? ta : tb, i, lane);
  }
  case LLVMFNeg:
    return LLVMBuildFNeg(B, tang(t, a, lane), "");
  case LLVMFMul: {
    LLVMValueRef acc = NULL;
    if (varied(t, a))
      acc = fmul(t, tang(t, a, lane), prim(t, b, lane));
    if (varied(t, b))
      acc = fadd_opt(t, acc, fmul(t, prim(t, a, lane), tang(t, b, lane)));
    return zero_or(t, acc, i, lane);
  }
  case LLVMFDiv: {
    LLVMValueRef pb = prim(t, b, lane), num = varied(t, a) ? tang(t, a, lane) : NULL;
    if (varied(t, b)) {
      LLVMValueRef q = fmul(t, prim(t, i, lane), tang(t, b, lane));
      num = num ? LLVMBuildFSub(B, num, q, "") : LLVMBuildFNeg(B, q, "");
    }
    return zero_or(t, num ? LLVMBuildFDiv(B, num, pb, "") : NULL, i, lane);
  }
  case LLVMFRem: {
    LLVMValueRef acc = varied(t, a) ? tang(t, a, lane) : NULL;
    if (varied(t, b)) {
      LLVMValueRef q = LLVMBuildFDiv(B, prim(t, a, lane), prim(t, b, lane), "");
      LLVMTypeRef qt = LLVMTypeOf(q);
      LLVMValueRef tr = LLVMBuildCall2(
          B, LLVMIntrinsicGetType(t->c->llctx, LLVMLookupIntrinsicID("llvm.trunc", 10), &qt, 1),
          LLVMGetIntrinsicDeclaration(t->c->mod, LLVMLookupIntrinsicID("llvm.trunc", 10), &qt, 1),
          &q, 1, "");
      LLVMValueRef m = fmul(t, tr, tang(t, b, lane));
      acc = acc ? LLVMBuildFSub(B, acc, m, "") : LLVMBuildFNeg(B, m, "");
    }
    return zero_or(t, acc, i, lane);
  }
  case LLVMFPExt:
  case LLVMFPTrunc:
    return LLVMBuildFPCast(B, tang(t, a, lane), ft, "");
  case LLVMBitCast:
    return LLVMBuildBitCast(B, tang(t, a, lane), ft, "");
  case LLVMFreeze:
    return tang(t, a, lane);
  case LLVMSelect:
    return LLVMBuildSelect(B, lt_tg_val(t, a), tang(t, b, lane),
                           tang(t, LLVMGetOperand(i, 2), lane), "");
  case LLVMExtractValue: {
    unsigned n = LLVMGetNumIndices(i);
    const unsigned *idx = LLVMGetIndices(i);
    LLVMValueRef v = tang(t, a, lane);
    for (unsigned k = 0; k < n; k++)
      v = LLVMBuildExtractValue(B, v, idx[k], "");
    return v;
  }
  case LLVMInsertValue: {
    unsigned n = LLVMGetNumIndices(i);
    if (n != 1)
      return NULL;
    return LLVMBuildInsertValue(B, tang(t, a, lane), tang(t, b, lane),
                                LLVMGetIndices(i)[0], "");
  }
  case LLVMExtractElement:
    return LLVMBuildExtractElement(B, tang(t, a, lane), lt_tg_val(t, b), "");
  case LLVMInsertElement:
    return LLVMBuildInsertElement(B, tang(t, a, lane), tang(t, b, lane),
                                  lt_tg_val(t, LLVMGetOperand(i, 2)), "");
  case LLVMShuffleVector: {
    unsigned n = LLVMGetNumMaskElements(i);
    LLVMValueRef m[n + 1];
    for (unsigned k = 0; k < n; k++) {
      int e = LLVMGetMaskValue(i, k);
      m[k] = e < 0 ? LLVMGetPoison(t->c->i32) : LLVMConstInt(t->c->i32, (unsigned)e, 0);
    }
    return LLVMBuildShuffleVector(B, tang(t, a, lane), tang(t, b, lane),
                                  LLVMConstVector(m, n), "");
  }
  default:
    return NULL;
  }
}

/* Can i's tangent be computed once on <W x T> vectors? */
static int vector_form(LtTg *t, LLVMValueRef i) {
  if (t->W == 1 || !lt_is_float_ty(LLVMTypeOf(i)))
    return 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  unsigned first = op == LLVMSelect ? 1 : 0;
  unsigned n = LLVMIsACallInst(i) ? LLVMGetNumArgOperands(i) : (unsigned)LLVMGetNumOperands(i);
  for (unsigned k = first; k < n; k++) {
    LLVMValueRef o = LLVMGetOperand(i, k);
    if (varied(t, o) && !lt_is_float_ty(LLVMTypeOf(o)))
      return 0;
  }
  switch (op) {
  case LLVMFAdd: case LLVMFSub: case LLVMFNeg: case LLVMFMul: case LLVMFDiv:
  case LLVMFRem: case LLVMFPExt: case LLVMFPTrunc: case LLVMFreeze:
  case LLVMSelect: case LLVMCall:
    return 1;
  default:
    return 0;
  }
}

static int value_tangent(LtTg *t, LLVMValueRef i, LLVMValueRef *dx, int is_rule) {
  if (vector_form(t, i)) {
    LLVMValueRef v = formula(t, i, -1, dx, is_rule);
    if (!v)
      return -1;
    lt_map_put(&t->tan, i, v);
    return 0;
  }
  LLVMValueRef lanes[64];
  for (unsigned k = 0; k < t->W; k++)
    if (!(lanes[k] = formula(t, i, (int)k, dx, is_rule)))
      return -1;
  lt_map_put(&t->tan, i, lt_tg_join(t, lanes, LLVMTypeOf(i)));
  return 0;
}

static LLVMValueRef complex_tangent(LtTg *t, LLVMValueRef i, int is_div) {
  LLVMValueRef lanes[64];
  for (unsigned k = 0; k < t->W; k++)
    lanes[k] = complex_lane(t, i, (int)k, is_div);
  return lt_tg_join(t, lanes, LLVMTypeOf(i));
}

/* An address to read (wr 0) or write (wr 1) lane k's shadow data of p. */
static LLVMValueRef shadow_addr(LtTg *t, LLVMValueRef p, unsigned k, int wr) {
  LLVMValueRef s = shadow_lane(t, p, k);
  if (!lt_shadow_maynull(&t->g->act_of, p))
    return s;
  return wr ? lt_guard_write(t->c, t->b, s, sink(t)) : lt_guard_read(t->c, t->b, s);
}

static int fwd_load(LtTg *t, LLVMValueRef i) {
  LLVMValueRef p = LLVMGetOperand(i, 0);
  LLVMTypeRef ty = LLVMTypeOf(i);
  int word = lt_is_ptr_word(&t->g->act_of, i), ptr = lt_is_ptr_ty(ty) || word;
  if (ptr ? !word && !shadowed(t, i) : !varied(t, i))
    return 0;
  if (!shadowed(t, p))
    return 0; /* inactive memory: a zero tangent (or null shadow) */
  LLVMValueRef lanes[64];
  for (unsigned k = 0; k < t->W; k++) {
    LLVMValueRef l = LLVMBuildLoad2(t->b, ty, shadow_addr(t, p, k, 0), "");
    LLVMSetAlignment(l, LLVMGetAlignment(i));
    if (LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
      LLVMSetOrdering(l, LLVMGetOrdering(i));
    lanes[k] = l;
  }
  lt_map_put(ptr ? &t->sh : &t->tan, i, lt_tg_join(t, lanes, ty));
  return 0;
}

/* atomicrmw fadd/fsub/xchg p, v: the same operation on the shadow with
 * v's tangent, whose old value is the result's tangent. */
static int fwd_atomicrmw(LtTg *t, LLVMValueRef i) {
  LLVMValueRef p = LLVMGetOperand(i, 0), v = LLVMGetOperand(i, 1);
  LLVMValueRef lanes[64];
  for (unsigned k = 0; k < t->W && k < 64; k++) {
    LLVMValueRef r = LLVMBuildAtomicRMW(t->b, LLVMGetAtomicRMWBinOp(i), shadow_addr(t, p, k, 1),
                                        tang(t, v, (int)k), LLVMGetOrdering(i), 0);
    LLVMSetAlignment(r, LLVMGetAlignment(i));
    lanes[k] = r;
  }
  lt_map_put(&t->tan, i, lt_tg_join(t, lanes, LLVMTypeOf(i)));
  return 0;
}

/* A store writes the tangent (or the shadow pointer) into shadow memory;
 * a value without one writes zero (or null). */
static int fwd_store(LtTg *t, LLVMValueRef i) {
  LLVMValueRef v = LLVMGetOperand(i, 0), p = LLVMGetOperand(i, 1);
  LLVMTypeRef ty = LLVMTypeOf(v);
  if (!shadowed(t, p))
    return 0;
  int ptr = lt_is_ptr_ty(ty) || lt_is_ptr_word(&t->g->act_of, v);
  /* An integer store writes its tangent bits (a copy of active data through
   * an integer) or zeros: -O2 turns memset(p, 0, 8) into `store i64 0`, and
   * the shadow must forget what was there.  Other aggregates with nothing
   * active leave the shadow alone. */
  LLVMTypeRef sty = LLVMGetTypeKind(ty) == LLVMVectorTypeKind ? LLVMGetElementType(ty) : ty;
  if (!ptr && !lt_is_diff_ty(ty) && !varied(t, v) &&
      LLVMGetTypeKind(sty) != LLVMIntegerTypeKind)
    return 0;
  for (unsigned k = 0; k < t->W; k++) {
    LLVMValueRef x = ptr ? shadow_lane(t, v, k) : tang(t, v, (int)k);
    LLVMValueRef s = LLVMBuildStore(t->b, x, shadow_addr(t, p, k, 1));
    LLVMSetAlignment(s, LLVMGetAlignment(i));
    if (LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
      LLVMSetOrdering(s, LLVMGetOrdering(i));
  }
  return 0;
}

static int fwd_memcall(LtTg *t, LLVMValueRef i, LtCallKind kind) {
  LLVMValueRef dst = LLVMGetOperand(i, 0);
  if (!shadowed(t, dst))
    return 0;
  LLVMValueRef n = LLVMBuildZExtOrBitCast(t->b, lt_tg_val(t, LLVMGetOperand(i, 2)),
                                          t->c->i64, "");
  LLVMValueRef src = kind == LT_CALL_MEMCPY ? LLVMGetOperand(i, 1) : NULL;
  for (unsigned k = 0; k < t->W; k++) {
    LLVMValueRef sd = shadow_lane(t, dst, k);
    if (src && shadowed(t, src))
      lt_guard_memmove(t->c, t->b, sd, shadow_lane(t, src, k), n);
    else
      lt_guard_memset(t->c, t->b, sd, n);
  }
  return 0;
}

/* Shadows of allocations: zeroed memory of the same size, per lane. */
static int fwd_alloc(LtTg *t, LLVMValueRef i) {
  LtCtx *c = t->c;
  LLVMValueRef ti = lt_tg_val(t, i);
  LLVMValueRef lanes[64];
  if (LLVMIsAAllocaInst(i)) {
    LLVMTypeRef at = LLVMGetAllocatedType(i);
    LLVMValueRef cnt = lt_tg_val(t, LLVMGetOperand(i, 0));
    LLVMValueRef size = LLVMBuildMul(t->b, LLVMBuildZExtOrBitCast(t->b, cnt, c->i64, ""),
                                     LLVMConstInt(c->i64, LLVMABISizeOfType(c->td, at), 0), "");
    LLVMSetAlignment(ti, lt_local_align(c, ti)); /* and its tangents alike */
    for (unsigned k = 0; k < t->W; k++) {
      LLVMBuilderRef ab = LLVMCreateBuilderInContext(c->llctx);
      LLVMPositionBuilderBefore(ab, ti);
      LLVMValueRef s = LLVMBuildArrayAlloca(ab, at, cnt, "");
      LLVMSetAlignment(s, LLVMGetAlignment(ti));
      LLVMDisposeBuilder(ab);
      LLVMBuildMemSet(t->b, s, LLVMConstInt(c->i8, 0, 0), size, LLVMGetAlignment(ti));
      lanes[k] = s;
    }
  } else {
    const LtAllocFn *af = lt_alloc_fn(i);
    LLVMValueRef size = LLVMBuildZExtOrBitCast(t->b, LLVMGetOperand(ti, (unsigned)af->size_arg),
                                               c->i64, "");
    if (af->count_arg >= 0)
      size = LLVMBuildMul(t->b, size,
                          LLVMBuildZExtOrBitCast(t->b, LLVMGetOperand(ti, (unsigned)af->count_arg),
                                                 c->i64, ""), "");
    for (unsigned k = 0; k < t->W; k++) {
      if (af->old_arg >= 0) {
        LLVMValueRef old = LLVMGetOperand(i, (unsigned)af->old_arg);
        lanes[k] = lt_shadow_realloc(c, t->b, shadow_lane(t, old, k), size, ti);
        if (lt_points_all_heap(&t->g->act_of.pts, old))
          lt_shadow_free(c, t->b, shadow_lane(t, old, k)); /* the primal freed it */
      } else if (lt_shadow_plain(&t->g->act_of, i)) {
        lanes[k] = lt_shadow_alloc_plain(c, t->b, ti, size);
      } else {
        lanes[k] = lt_shadow_alloc(c, t->b, size,
                                   af->align_arg >= 0 ? LLVMGetOperand(ti, (unsigned)af->align_arg)
                                                      : NULL,
                                   af->out_arg >= 0 ? NULL : ti);
      }
    }
    if (af->out_arg >= 0) { /* posix_memalign: through the out pointer */
      LLVMValueRef out = LLVMGetOperand(i, (unsigned)af->out_arg);
      for (unsigned k = 0; k < t->W; k++)
        LLVMBuildStore(t->b, lanes[k], shadow_addr(t, out, k, 1));
      return 0;
    }
  }
  lt_map_put(&t->sh, i, lt_tg_join(t, lanes, LLVMTypeOf(i)));
  return 0;
}

/* p may address a block whose shadow is plain (heap.c). */
static int any_plain(LtTg *t, LLVMValueRef p) {
  for (unsigned b = 0; b < t->g->g.nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(t->g->g.block[b]); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMIsACallInst(i) && lt_shadow_plain(&t->g->act_of, i) &&
          lt_points_may_alias(&t->g->act_of.pts, p, i))
        return 1;
  return 0;
}

static int fwd_free(LtTg *t, LLVMValueRef i) {
  LLVMValueRef p = LLVMGetOperand(i, 0);
  /* the shadows this function allocated go with their blocks (plain ones,
   * which the caller's shadow data may hold, stay: heap.c) */
  if (!shadowed(t, p) || !lt_points_all_heap(&t->g->act_of.pts, p) || any_plain(t, p))
    return 0;
  for (unsigned k = 0; k < t->W; k++)
    lt_shadow_free(t->c, t->b, shadow_lane(t, p, k));
  return 0;
}

/* A kept call: the callee's tangent function computes the primal and the
 * tangent (or shadow) of the result. */
static int fwd_kept(LtTg *t, LLVMValueRef i, const LtDeriv *d) {
  LLVMValueRef ti = lt_tg_val(t, i);
  LLVMPositionBuilderBefore(t->b, ti);
  if (lt_call_is_parallel(i)) {
    /* a parallel region: the team runs the outlined function's tangent
     * function, which takes the runtime's thread ids first */
    unsigned np = LLVMGetNumArgOperands(i), n = 0;
    LLVMValueRef args[np * (t->W + 1) + 1];
    for (unsigned p = 2; p < np; p++)
      args[n++] = LLVMGetOperand(ti, p);
    for (unsigned p = 2; p < np; p++) {
      if (!lt_is_dup(d->act[p]))
        continue;
      LLVMValueRef op = LLVMGetOperand(i, p);
      for (unsigned k = 0; k < t->W; k++)
        args[n++] = lt_is_ptr_ty(LLVMTypeOf(op)) ? shadow_lane(t, op, k) : tang(t, op, (int)k);
    }
    LLVMValueRef nc = lt_omp_fork(t->c, t->b, lt_omp_loc(t->c, i), d->aug, args, n);
    LLVMInstructionSetDebugLoc(nc, LLVMInstructionGetDebugLoc(ti));
    LLVMInstructionEraseFromParent(ti);
    lt_map_put(&t->vm, i, nc);
    return 0;
  }
  unsigned np = LLVMGetNumArgOperands(i), n = 0;
  LLVMValueRef args[np * (t->W + 1) + 1];
  for (unsigned p = 0; p < np; p++)
    args[n++] = LLVMGetOperand(ti, p);
  for (unsigned p = 0; p < np; p++) {
    if (!lt_is_dup(d->act[p]))
      continue;
    LLVMValueRef op = LLVMGetOperand(i, p);
    for (unsigned k = 0; k < t->W; k++)
      args[n++] = lt_is_ptr_ty(LLVMTypeOf(op)) ? shadow_lane(t, op, k) : tang(t, op, (int)k);
  }
  LLVMValueRef nc = LLVMBuildCall2(t->b, LLVMGlobalGetValueType(d->aug), d->aug, args, n, "");
  LLVMInstructionSetDebugLoc(nc, LLVMInstructionGetDebugLoc(ti));
  LLVMValueRef prim = NULL, tan = NULL;
  if (d->want_primal && d->ret_shadow) {
    prim = LLVMBuildExtractValue(t->b, nc, 0, "");
    tan = LLVMBuildExtractValue(t->b, nc, 1, "");
  } else if (d->want_primal) {
    prim = nc;
  } else if (d->ret_shadow) {
    tan = nc;
  }
  if (LLVMGetTypeKind(LLVMTypeOf(ti)) != LLVMVoidTypeKind)
    LLVMReplaceAllUsesWith(ti, prim ? prim : LLVMGetPoison(LLVMTypeOf(ti)));
  LLVMInstructionEraseFromParent(ti);
  lt_map_put(&t->vm, i, prim ? prim : nc);
  if (tan)
    lt_map_put(lt_is_ptr_ty(LLVMTypeOf(i)) ? &t->sh : &t->tan, i, tan);
  return 0;
}

/* A registered forward derivative (__enzyme_register_derivative_<name> =
 * {fn, fn_fwd}, Enzyme's ABI): fn_fwd takes each argument followed by its
 * shadow (a pointer's shadow, a float's tangent; integers get one only
 * when fn_fwd has two parameters per argument) and returns {result,
 * tangent}, or the tangent alone; with a width it is called per lane. */
static int fwd_custom(LtTg *t, LLVMValueRef i) {
  const LtReg *r = lt_annotation(t->c, i);
  LLVMValueRef ti = lt_tg_val(t, i), f = r ? r->fwd : NULL;
  if (!f) {
    lt_internal_error(t->c, i, "a custom call without a forward derivative");
    return -1;
  }
  LLVMTypeRef fty = LLVMGlobalGetValueType(f);
  unsigned np = LLVMGetNumArgOperands(i), nf = LLVMCountParamTypes(fty), nd = 0;
  for (unsigned p = 0; p < np; p++) {
    LLVMTypeRef pt = LLVMTypeOf(LLVMGetOperand(i, p));
    nd += lt_is_ptr_ty(pt) || lt_is_diff_ty(pt);
  }
  int all = nf == 2 * np;
  LLVMTypeRef rt = LLVMTypeOf(i), fr = LLVMGetReturnType(fty);
  int pair = LLVMGetTypeKind(fr) == LLVMStructTypeKind && LLVMCountStructElementTypes(fr) == 2 &&
             LLVMStructGetTypeAtIndex(fr, 0) == rt && LLVMStructGetTypeAtIndex(fr, 1) == rt;
  int tan_only = LLVMGetTypeKind(rt) != LLVMVoidTypeKind && fr == rt;
  if ((nf != np + nd && !all) ||
      (LLVMGetTypeKind(rt) == LLVMVoidTypeKind ? LLVMGetTypeKind(fr) != LLVMVoidTypeKind
                                               : !pair && !tan_only)) {
    lt_error(t->c, i, "the forward derivative registered by '%s' has the wrong "
                      "type: it takes each argument followed by its shadow and "
                      "returns {result, tangent} (or void for a void function)",
             r->fwd_name);
    return -1;
  }
  LLVMValueRef lanes[64], prim = NULL;
  LLVMPositionBuilderBefore(t->b, ti);
  for (unsigned k = 0; k < t->W; k++) {
    LLVMValueRef args[2 * np + 1];
    unsigned n = 0;
    for (unsigned p = 0; p < np; p++) {
      LLVMValueRef op = LLVMGetOperand(i, p);
      LLVMTypeRef pt = LLVMTypeOf(op);
      args[n++] = LLVMGetOperand(ti, p);
      if (lt_is_ptr_ty(pt) && lt_shadow_maynull(&t->g->act_of, op)) {
        /* no shadow at run time: the pointer itself, as for an inactive
         * pointer (custom.c) */
        LLVMValueRef s = shadow_lane(t, op, k), pr = args[n - 1];
        args[n++] = LLVMBuildSelect(t->b, LLVMBuildIsNull(t->b, s, ""), pr, s, "");
      } else if (lt_is_ptr_ty(pt))
        args[n++] = shadow_lane(t, op, k);
      else if (lt_is_diff_ty(pt))
        args[n++] = tang(t, op, (int)k);
      else if (all)
        args[n++] = LLVMConstNull(pt);
    }
    LLVMValueRef call = LLVMBuildCall2(t->b, fty, f, args, n, "");
    LLVMSetInstructionCallConv(call, LLVMGetFunctionCallConv(f));
    LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(ti));
    if (pair) {
      if (!k)
        prim = LLVMBuildExtractValue(t->b, call, 0, "");
      lanes[k] = LLVMBuildExtractValue(t->b, call, 1, "");
    } else {
      lanes[k] = call;
    }
  }
  /* join the lanes while the builder still points at the primal call */
  if (LLVMGetTypeKind(rt) != LLVMVoidTypeKind)
    lt_map_put(lt_is_ptr_ty(rt) ? &t->sh : &t->tan, i, lt_tg_join(t, lanes, rt));
  /* The derivative computed the result (or, for a void function, did its
   * work): the primal call goes, as in Enzyme, whose forward mode replaces
   * the call by the registered derivative.  A derivative returning only the
   * tangent (our extension) leaves the primal call to compute the result. */
  if (prim || LLVMGetTypeKind(rt) == LLVMVoidTypeKind) {
    if (prim)
      LLVMReplaceAllUsesWith(ti, prim);
    LLVMPositionBuilderAtEnd(t->b, LLVMGetInstructionParent(ti));
    LLVMInstructionEraseFromParent(ti);
    lt_map_put(&t->vm, i, prim ? prim : lanes[0]);
  }
  return 0;
}

/* A link call (calls.c), made again on the shadows, per lane. */
static int fwd_link(LtTg *t, LLVMValueRef i) {
  LLVMValueRef ti = lt_tg_val(t, i), args[8], lanes[64];
  unsigned n = LLVMGetNumArgOperands(i);
  int any = 0, mn = 0;
  for (unsigned q = 0; q < n && q < 8; q++) {
    any |= shadowed(t, LLVMGetOperand(i, q));
    mn |= lt_shadow_maynull(&t->g->act_of, LLVMGetOperand(i, q));
  }
  if (!any || n > 8)
    return 0;
  for (unsigned k = 0; k < t->W && k < 64; k++) {
    for (unsigned q = 0; q < n; q++) {
      LLVMValueRef op = LLVMGetOperand(i, q);
      args[q] = !lt_is_ptr_ty(LLVMTypeOf(op)) ? LLVMGetOperand(ti, q)
                : shadowed(t, op)              ? shadow_lane(t, op, k)
                                               : LLVMConstNull(LLVMTypeOf(op));
    }
    lanes[k] = lt_link_call(t->c, t->b, ti, args, mn);
  }
  if (lt_is_ptr_ty(LLVMTypeOf(i)) && shadowed(t, i))
    lt_map_put(&t->sh, i, lt_tg_join(t, lanes, LLVMTypeOf(i)));
  return 0;
}

static int fwd_call(LtTg *t, LLVMValueRef i) {
  const LtRule *rule;
  LtCallKind k = lt_call_kind(i, &rule);
  const LtDeriv *d = lt_map_get(&t->kept, i);
  if (d)
    return fwd_kept(t, i, d);
  switch (k) {
  case LT_CALL_CUSTOM:
    return fwd_custom(t, i);
  case LT_CALL_RULE: {
    if (!varied(t, i))
      return 0;
    LLVMValueRef dx[LT_RULE_MAXARGS];
    if (partials(t, i, rule, dx))
      return -1;
    return value_tangent(t, i, dx, 1);
  }
  case LT_CALL_COMPLEX: {
    int is_div = 0;
    if (!varied(t, i) || !lt_is_complex_call(i, &is_div))
      return 0;
    lt_map_put(&t->tan, i, complex_tangent(t, i, is_div));
    return 0;
  }
  case LT_CALL_MEMCPY:
  case LT_CALL_MEMSET:
    return fwd_memcall(t, i, k);
  case LT_CALL_MALLOC:
    if (shadowed(t, i) || (lt_alloc_fn(i)->out_arg >= 0 &&
                           lt_points_any_active(&t->g->act_of.pts, i)))
      return fwd_alloc(t, i);
    return 0;
  case LT_CALL_FREE:
    return fwd_free(t, i);
  case LT_CALL_MPI:
    return lt_mpi_tangent(t, i);
  case LT_CALL_BLAS:
    return lt_blas_tangent(t, i);
  case LT_CALL_LINK:
    return fwd_link(t, i);
  default:
    return 0; /* inactive, zero derivative (constant tangent 0) */
  }
}

int lt_fwdinst(LtTg *t, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  LLVMTypeRef ty = LLVMTypeOf(i);
  switch (op) {
  case LLVMLoad:
    return fwd_load(t, i);
  case LLVMStore:
    return fwd_store(t, i);
  case LLVMCall:
    return fwd_call(t, i);
  case LLVMAlloca:
    return shadowed(t, i) ? fwd_alloc(t, i) : 0;
  case LLVMAtomicRMW:
    if (shadowed(t, LLVMGetOperand(i, 0)) && lt_atomic_differentiable(i))
      return fwd_atomicrmw(t, i);
    /* fall through */
  case LLVMAtomicCmpXchg:
    if (shadowed(t, LLVMGetOperand(i, 0)) && (varied(t, i) || varied(t, LLVMGetOperand(i, 1)))) {
      lt_error(t->c, i, "an atomic operation on active memory is not supported "
                        "in forward mode");
      return -1;
    }
    return 0;
  default:
    break;
  }
  if (lt_is_ptr_ty(ty))
    return shadowed(t, i) ? lt_fwd_pointer(t, i) : 0;
  if (lt_is_ptr_word(&t->g->act_of, i))
    return lt_fwd_word(t, i);
  if (LLVMGetTypeKind(ty) == LLVMVoidTypeKind || !varied(t, i))
    return 0;
  if (value_tangent(t, i, NULL, 0)) {
    lt_error(t->c, i, "this operation on an active value has no forward-mode "
                      "derivative in Leantape yet");
    return -1;
  }
  return 0;
}
