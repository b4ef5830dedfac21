/* fwdinst.c: the tangent of one instruction (forward mode).
 *
 * Called after the instruction's clone in T, in reverse post-order. A
 * float result gets its tangent, a pointer into active memory its shadow,
 * and a memory operation does the same to shadow memory. With width W the
 * tangent of a scalar float is computed once on <W x T> vectors (primal
 * operands splatted); other values lane by lane. Only operands that vary
 * contribute: a constant's tangent is exactly zero, even where the
 * partial is infinite. Memory operations are fwdmem.c's, calls
 * fwdcall.c's; the shadows of pointers fwdshadow.c's.
 */
#include "lt.h"

int lt_fwd_varied(LtTg *t, LLVMValueRef v) {
  return !LLVMIsAConstant(v) && lt_is_varied(&t->g->act_of, v);
}

int lt_fwd_shadowed(LtTg *t, LLVMValueRef v) {
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

LLVMValueRef lt_fwd_tang(LtTg *t, LLVMValueRef v, int lane) {
  LLVMTypeRef ty = LLVMTypeOf(v);
  if (!lt_fwd_varied(t, v))
    return LLVMConstNull(lane >= 0 ? ty : lt_tg_type(t, ty));
  LLVMValueRef x = lt_tg_tan(t, v);
  return lane >= 0 ? lt_tg_lane(t, x, ty, (unsigned)lane) : x;
}

LLVMValueRef lt_fwd_shadow_lane(LtTg *t, LLVMValueRef p, unsigned k) {
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

/* d(a op b) for the complex multiply and divide runtime calls: the result
 * is {re, im} (a struct, or <2 x T> for float). */
static LLVMValueRef complex_lane(LtTg *t, LLVMValueRef i, int lane, int is_div) {
  LLVMValueRef a = prim(t, LLVMGetOperand(i, 0), lane), b = prim(t, LLVMGetOperand(i, 1), lane);
  LLVMValueRef c = prim(t, LLVMGetOperand(i, 2), lane), d = prim(t, LLVMGetOperand(i, 3), lane);
  LLVMValueRef ta = lt_fwd_tang(t, LLVMGetOperand(i, 0), lane);
  LLVMValueRef tb = lt_fwd_tang(t, LLVMGetOperand(i, 1), lane);
  LLVMValueRef tc = lt_fwd_tang(t, LLVMGetOperand(i, 2), lane);
  LLVMValueRef td = lt_fwd_tang(t, LLVMGetOperand(i, 3), lane);
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
        acc = fadd_opt(t, acc, fmul(t, p, lt_fwd_tang(t, LLVMGetOperand(i, k), lane)));
      }
    return zero_or(t, acc, i, lane);
  }
  switch (op) {
  case LLVMFAdd:
  case LLVMFSub: {
    LLVMValueRef ta = lt_fwd_varied(t, a) ? lt_fwd_tang(t, a, lane) : NULL;
    LLVMValueRef tb = lt_fwd_varied(t, b) ? lt_fwd_tang(t, b, lane) : NULL;
    if (op == LLVMFSub && tb)
      tb = LLVMBuildFNeg(B, tb, "");
    return zero_or(t, ta && tb ? LLVMBuildFAdd(B, ta, tb, "") : ta ? ta : tb, i, lane);
  }
  case LLVMFNeg:
    return LLVMBuildFNeg(B, lt_fwd_tang(t, a, lane), "");
  case LLVMFMul: {
    LLVMValueRef acc = NULL;
    if (lt_fwd_varied(t, a))
      acc = fmul(t, lt_fwd_tang(t, a, lane), prim(t, b, lane));
    if (lt_fwd_varied(t, b))
      acc = fadd_opt(t, acc, fmul(t, prim(t, a, lane), lt_fwd_tang(t, b, lane)));
    return zero_or(t, acc, i, lane);
  }
  case LLVMFDiv: {
    LLVMValueRef pb = prim(t, b, lane), num = lt_fwd_varied(t, a) ? lt_fwd_tang(t, a, lane) : NULL;
    if (lt_fwd_varied(t, b)) {
      LLVMValueRef q = fmul(t, prim(t, i, lane), lt_fwd_tang(t, b, lane));
      num = num ? LLVMBuildFSub(B, num, q, "") : LLVMBuildFNeg(B, q, "");
    }
    return zero_or(t, num ? LLVMBuildFDiv(B, num, pb, "") : NULL, i, lane);
  }
  case LLVMFRem: {
    LLVMValueRef acc = lt_fwd_varied(t, a) ? lt_fwd_tang(t, a, lane) : NULL;
    if (lt_fwd_varied(t, b)) {
      LLVMValueRef q = LLVMBuildFDiv(B, prim(t, a, lane), prim(t, b, lane), "");
      LLVMTypeRef qt = LLVMTypeOf(q);
      LLVMValueRef tr = LLVMBuildCall2(
          B, LLVMIntrinsicGetType(t->c->llctx, LLVMLookupIntrinsicID("llvm.trunc", 10), &qt, 1),
          LLVMGetIntrinsicDeclaration(t->c->mod, LLVMLookupIntrinsicID("llvm.trunc", 10), &qt, 1),
          &q, 1, "");
      LLVMValueRef m = fmul(t, tr, lt_fwd_tang(t, b, lane));
      acc = acc ? LLVMBuildFSub(B, acc, m, "") : LLVMBuildFNeg(B, m, "");
    }
    return zero_or(t, acc, i, lane);
  }
  case LLVMFPExt:
  case LLVMFPTrunc:
    return LLVMBuildFPCast(B, lt_fwd_tang(t, a, lane), ft, "");
  case LLVMBitCast:
    return LLVMBuildBitCast(B, lt_fwd_tang(t, a, lane), ft, "");
  case LLVMFreeze:
    return lt_fwd_tang(t, a, lane);
  case LLVMSelect:
    return LLVMBuildSelect(B, lt_tg_val(t, a), lt_fwd_tang(t, b, lane),
                           lt_fwd_tang(t, LLVMGetOperand(i, 2), lane), "");
  case LLVMExtractValue: {
    unsigned n = LLVMGetNumIndices(i);
    const unsigned *idx = LLVMGetIndices(i);
    LLVMValueRef v = lt_fwd_tang(t, a, lane);
    for (unsigned k = 0; k < n; k++)
      v = LLVMBuildExtractValue(B, v, idx[k], "");
    return v;
  }
  case LLVMInsertValue: {
    unsigned n = LLVMGetNumIndices(i);
    if (n != 1)
      return NULL;
    return LLVMBuildInsertValue(B, lt_fwd_tang(t, a, lane), lt_fwd_tang(t, b, lane),
                                LLVMGetIndices(i)[0], "");
  }
  case LLVMExtractElement:
    return LLVMBuildExtractElement(B, lt_fwd_tang(t, a, lane), lt_tg_val(t, b), "");
  case LLVMInsertElement:
    return LLVMBuildInsertElement(B, lt_fwd_tang(t, a, lane), lt_fwd_tang(t, b, lane),
                                  lt_tg_val(t, LLVMGetOperand(i, 2)), "");
  case LLVMShuffleVector: {
    unsigned n = LLVMGetNumMaskElements(i);
    LLVMValueRef m[n + 1];
    for (unsigned k = 0; k < n; k++) {
      int e = LLVMGetMaskValue(i, k);
      m[k] = e < 0 ? LLVMGetPoison(t->c->i32) : LLVMConstInt(t->c->i32, (unsigned)e, 0);
    }
    return LLVMBuildShuffleVector(B, lt_fwd_tang(t, a, lane), lt_fwd_tang(t, b, lane),
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
    if (lt_fwd_varied(t, o) && !lt_is_float_ty(LLVMTypeOf(o)))
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

int lt_fwd_value_tangent(LtTg *t, LLVMValueRef i, LLVMValueRef *dx, int is_rule) {
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

LLVMValueRef lt_fwd_complex_tangent(LtTg *t, LLVMValueRef i, int is_div) {
  LLVMValueRef lanes[64];
  for (unsigned k = 0; k < t->W; k++)
    lanes[k] = complex_lane(t, i, (int)k, is_div);
  return lt_tg_join(t, lanes, LLVMTypeOf(i));
}

int lt_fwdinst(LtTg *t, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  LLVMTypeRef ty = LLVMTypeOf(i);
  switch (op) {
  case LLVMLoad:
    return lt_fwd_load(t, i);
  case LLVMStore:
    return lt_fwd_store(t, i);
  case LLVMCall:
    return lt_fwd_call(t, i);
  case LLVMAlloca:
    return lt_fwd_shadowed(t, i) ? lt_fwd_alloc(t, i) : 0;
  case LLVMAtomicRMW:
    if (lt_fwd_shadowed(t, LLVMGetOperand(i, 0)) && lt_atomic_differentiable(i))
      return lt_fwd_atomicrmw(t, i);
    /* fall through */
  case LLVMAtomicCmpXchg:
    if (lt_fwd_shadowed(t, LLVMGetOperand(i, 0)) &&
        (lt_fwd_varied(t, i) || lt_fwd_varied(t, LLVMGetOperand(i, 1)))) {
      lt_error(t->c, i, "an atomic operation on active memory is not supported "
                        "in forward mode");
      return -1;
    }
    return 0;
  default:
    break;
  }
  if (lt_is_ptr_ty(ty))
    return lt_fwd_shadowed(t, i) ? lt_fwd_pointer(t, i) : 0;
  if (lt_is_ptr_word(&t->g->act_of, i))
    return lt_fwd_word(t, i);
  if (LLVMGetTypeKind(ty) == LLVMVoidTypeKind || !lt_fwd_varied(t, i))
    return 0;
  if (lt_fwd_value_tangent(t, i, NULL, 0)) {
    lt_error(t->c, i, "this operation on an active value has no forward-mode "
                      "derivative in Leantape yet");
    return -1;
  }
  return 0;
}
