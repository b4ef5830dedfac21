/* materialize.c: a primal value or shadow in R, as its plan record says.
 *
 * The plan (plan/source.c) decides where each value comes from; this file
 * emits it: the reverse counter of a loop, a loop's exit iteration from
 * its trip count, an affine form of the counters, a re-load (after the
 * undo log restored the memory, for logged loads), a recomputation from
 * materialised operands, or a tape load (tape.c). Values made once live in
 * R's entry; values of loops (and of paths not always taken) are made in
 * each reverse block that uses them, and memoised per block.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static LLVMValueRef rv_depth(LtGen *g, LLVMValueRef v, int depth);

static int param_index(LtGen *g, LLVMValueRef arg) {
  for (unsigned p = 0; p < g->nparams; p++)
    if (LLVMGetParam(g->P, p) == arg)
      return (int)p;
  return -1;
}

static LLVMValueRef recompute(LtGen *g, LLVMBuilderRef at, LLVMValueRef i,
                              int depth) {
  int n = LLVMGetNumOperands(i);
  LLVMValueRef ops[n + 1];
  for (int k = 0; k < n; k++) {
    LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
    ops[k] = op && !LLVMIsAConstant(op) && !LLVMIsABasicBlock(op) &&
                     !LLVMIsAMDNode(op) && !LLVMIsAMDString(op) &&
                     !LLVMIsAValueAsMetadata(op)
                 ? rv_depth(g, op, depth + 1)
                 : NULL;
  }
  /* R's entry recomputes values of every primal path; on a path not taken
   * the operands are undefined, and a call with noundef parameters (libm
   * declarations have them) would make that UB: freeze them. */
  if (LLVMIsACallInst(i) && at == g->eb)
    for (int k = 0; k < n; k++) {
      LLVMValueRef op = LLVMGetOperand(i, (unsigned)k);
      if (ops[k] && LLVMIsAInstruction(op) && !lt_plan_every_path(&g->plan, op))
        ops[k] = LLVMBuildFreeze(at, ops[k], "");
    }
  /* Operands first, so that they precede the clone in R's entry. */
  LLVMValueRef ni = LLVMInstructionClone(i);
  LLVMInsertIntoBuilderWithName(at, ni, "");
  LLVMInstructionSetDebugLoc(ni, NULL);
  for (int k = 0; k < n; k++)
    if (ops[k])
      LLVMSetOperand(ni, (unsigned)k, ops[k]);
  return ni;
}

/* Memo of values materialised in R: once in R's entry for values outside
 * loops; per reverse block for values inside loops (they change with the
 * iteration, and a value made in one block must dominate its uses). */
typedef struct Memo {
  int where;          /* lt_plan_where: < 0 for R's entry */
  LtMap *val, *bb;    /* value, and for loops the block it was made in */
  LLVMBuilderRef at;  /* where a value not found is made */
} Memo;

/* The memo of v among entry (R's entry) or loop_val/loop_bb (per block);
 * *m is the value made already, or NULL. */
static Memo memo_find(LtGen *g, LLVMValueRef v, LtMap *entry, LtMap *loop_val,
                      LtMap *loop_bb, LLVMValueRef *m) {
  int where = lt_plan_where(&g->plan, v);
  Memo mo = {where, where < 0 ? entry : loop_val, loop_bb, where < 0 ? g->eb : g->b};
  *m = where >= 0 && lt_map_get(loop_bb, v) != LLVMGetInsertBlock(g->b)
           ? NULL
           : lt_map_get(mo.val, v);
  return mo;
}

static void memo_put(LtGen *g, const Memo *mo, LLVMValueRef v, LLVMValueRef m) {
  lt_map_put(mo->val, v, m);
  if (mo->where >= 0)
    lt_map_put(mo->bb, v, LLVMGetInsertBlock(g->b));
}

/* An integer induction value from the reverse counters: never taped. */
static LLVMValueRef affine(LtGen *g, LLVMValueRef v, int s) {
  LtAffine a;
  if (lt_affine_of(&g->ind, g->c->td, v, s, &a))
    return NULL; /* the plan checked it: does not happen */
  LLVMTypeRef i64 = g->c->i64;
  LLVMValueRef acc = LLVMConstInt(i64, (unsigned long long)a.off, 1);
  for (unsigned k = 0; k < a.nterm; k++) {
    LLVMValueRef it = LLVMBuildLoad2(g->b, i64, g->r_iv[a.loop[k]], "");
    acc = LLVMBuildAdd(g->b, acc,
                       LLVMBuildMul(g->b, it, LLVMConstInt(i64, (unsigned long long)a.coef[k], 1), ""), "");
  }
  for (unsigned k = 0; k < a.ninv; k++) {
    LLVMValueRef x = LLVMBuildSExtOrBitCast(g->b, lt_rv(g, a.inv[k]), i64, "");
    acc = LLVMBuildAdd(g->b, acc,
                       LLVMBuildMul(g->b, x, LLVMConstInt(i64, (unsigned long long)a.icoef[k], 1), ""), "");
  }
  lt_affine_free(&a);
  return LLVMBuildTruncOrBitCast(g->b, acc, LLVMTypeOf(v), "lt.affine");
}

/* The iteration in which loop l was left: its trip count - 1. */
static LLVMValueRef exit_iteration(LtGen *g, unsigned l, LLVMBuilderRef at) {
  LtTrip t = g->ind.trip[l];
  t.start = lt_rv(g, t.start);
  t.bound = lt_rv(g, t.bound);
  if (t.vstep)
    t.vstep = lt_rv(g, t.vstep);
  return LLVMBuildSub(at, lt_trip_emit(at, &t), LLVMConstInt(g->c->i64, 1, 0),
                      "lt.last");
}

/* A load whose memory the primal never overwrites is read again. */
static LLVMValueRef reload(LtGen *g, LLVMBuilderRef at, LLVMValueRef v) {
  LLVMValueRef p = lt_rv(g, LLVMGetOperand(v, 0));
  LLVMValueRef m = LLVMBuildLoad2(at, LLVMTypeOf(v), p, "lt.reload");
  LLVMSetAlignment(m, LLVMGetAlignment(v));
  lt_scope_primal(g, m);
  return m;
}

/* A defined value for an undef or poison constant of type t: 1.0 for
 * floats (an unused lane's adjoint, zero, divided by it stays zero), zero
 * otherwise. */
static LLVMValueRef some_value(LLVMTypeRef t) {
  return lt_is_float_ty(t) ? LLVMConstReal(t, 1.0) : LLVMConstNull(t);
}

/* A constant as R uses it: undef and poison lanes of a vector constant
 * (InstCombine leaves them where a lane's result is unused: `fmul <2 x
 * double> %v, <c, poison>`, lane 0 splatted after) get a value
 * (some_value). Such a lane's adjoint is zero, but zero times poison is
 * poison, which the optimiser may make anything: a silent wrong gradient
 * (fuzz --eigen seed 1040095 with -mavx2 -mfma at -O2: dy[6] 0.448 for
 * 0.428). */
static LLVMValueRef defined_const(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  int whole = LLVMIsAUndefValue(v) != NULL; /* poison too */
  if (LLVMGetTypeKind(t) != LLVMVectorTypeKind)
    return whole ? some_value(t) : v;
  if (!whole && !LLVMIsAConstantVector(v))
    return v;
  unsigned n = LLVMGetVectorSize(t);
  LLVMValueRef *e = lt_xcalloc(n + 1, sizeof *e);
  int any = 0;
  for (unsigned k = 0; k < n; k++) {
    e[k] = whole ? NULL : LLVMGetAggregateElement(v, k);
    if (!e[k] || LLVMIsAUndefValue(e[k])) {
      e[k] = some_value(LLVMGetElementType(t));
      any = 1;
    }
  }
  LLVMValueRef r = any ? LLVMConstVector(e, n) : v;
  free(e);
  return r;
}

static LLVMValueRef rv_depth(LtGen *g, LLVMValueRef v, int depth) {
  if (LLVMIsAConstant(v))
    return defined_const(v);
  if (LLVMIsAInlineAsm(v))
    return v;
  LLVMValueRef same = lt_loop_phi_same(&g->loops, v);
  if (same)
    return rv_depth(g, same, depth);
  if (LLVMIsAArgument(v))
    return LLVMGetParam(g->R, (unsigned)param_index(g, v));
  LLVMValueRef m;
  Memo mo = memo_find(g, v, &g->rprimal, &g->rloop_val, &g->rloop_bb, &m);
  if (m)
    return m;
  LLVMBuilderRef at = mo.at;
  const LtPlanRec *r = lt_plan_value(&g->plan, v, depth);
  switch (r->src) {
  case LT_SRC_COUNTER:
    m = LLVMBuildLoad2(g->b, g->c->i64, g->r_iv[r->loop], "lt.iv");
    break;
  case LT_SRC_EXIT:
    m = exit_iteration(g, (unsigned)r->loop, at);
    break;
  case LT_SRC_AFFINE:
    m = affine(g, v, r->scope);
    break;
  case LT_SRC_RELOAD_LOG:
    lt_undo_note_reload(g, v);
    /* fall through */
  case LT_SRC_RELOAD:
    m = reload(g, at, v);
    break;
  case LT_SRC_RECOMPUTE:
    m = recompute(g, at, v, depth);
    break;
  default:
    m = lt_tape_load_at(g, LT_SLOT_PRIMAL, v, LLVMTypeOf(v), at);
    break;
  }
  if (!m) {
    lt_internal_error(g->c, g->P, "a planned value could not be made");
    g->failed = 1;
    m = LLVMGetPoison(LLVMTypeOf(v));
  }
  memo_put(g, &mo, v, m);
  return m;
}

LLVMValueRef lt_rv(LtGen *g, LLVMValueRef v) { return rv_depth(g, v, 0); }

LLVMValueRef lt_rs(LtGen *g, LLVMValueRef v) {
  if (LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v))
    return v;
  if (LLVMIsAConstant(v) && lt_is_shadowed(&g->act_of, v))
    return lt_shadow_const(g->c, v); /* a shadow global's address */
  LLVMValueRef same = lt_loop_phi_same(&g->loops, v);
  if (same && lt_is_shadowed(&g->act_of, same))
    return lt_rs(g, same);
  LLVMValueRef m;
  Memo mo = memo_find(g, v, &g->rshadow, &g->rsloop_val, &g->rsloop_bb, &m);
  if (m)
    return m;
  LLVMBuilderRef at = mo.at;
  const LtPlanRec *r = lt_plan_shadow(&g->plan, v);
  switch (r->sh) {
  case LT_SH_ARG: {
    int p = param_index(g, v);
    unsigned ns = 0;
    for (int q = 0; q < p; q++)
      ns += lt_is_dup(g->act[q]);
    m = LLVMGetParam(g->R, g->nparams + ns);
    break;
  }
  case LT_SH_GEP: {
    unsigned n = (unsigned)LLVMGetNumOperands(v) - 1;
    LLVMValueRef idx[64];
    for (unsigned k = 0; k < n && k < 64; k++)
      idx[k] = lt_rv(g, LLVMGetOperand(v, k + 1));
    LLVMValueRef base = lt_rs(g, LLVMGetOperand(v, 0));
    if (!base)
      return NULL;
    m = LLVMBuildGEP2(at, LLVMGetGEPSourceElementType(v), base, idx,
                      n < 64 ? n : 64, "");
    if (lt_shadow_maynull(&g->act_of, LLVMGetOperand(v, 0)))
      m = lt_guard_gep(g->c, at, base, m);
    break;
  }
  case LT_SH_CAST: {
    LLVMValueRef base = lt_rs(g, LLVMGetOperand(v, 0));
    if (!base)
      return NULL;
    m = LLVMBuildPointerCast(at, base, LLVMTypeOf(v), "");
    break;
  }
  case LT_SH_TAPE:
    m = lt_tape_load_at(g, LT_SLOT_SHADOW, v, LLVMTypeOf(v), at);
    break;
  default:
    return NULL; /* no shadow: inactive memory */
  }
  memo_put(g, &mo, v, m);
  return m;
}
