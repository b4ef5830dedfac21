/* materialize.c: where the reverse pass gets a primal value or shadow.
 *
 * The cache plan (DESIGN section 3), decided per value on first use, in
 * order: constants and arguments; the loop counters (the canonical counter
 * is the reverse iteration, induction values are affine in the counters, a
 * loop's exit iteration follows from its trip count); recomputation of pure
 * operations and scalar math from materialised operands; re-loading memory
 * nothing writes after the load, or only stores the undo log puts back
 * (combined mode, loads that ran on every path; undo.c);
 * else a tape slot (tape.c). Values outside loops are made once in R's
 * entry; values inside loops in each reverse block that uses them.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_RECOMPUTE_DEPTH 24

static int pure_op(LLVMOpcode op) {
  switch (op) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr:
  case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
  case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv: case LLVMFNeg:
  case LLVMFRem:
  case LLVMTrunc: case LLVMZExt: case LLVMSExt: case LLVMFPToUI:
  case LLVMFPToSI: case LLVMUIToFP: case LLVMSIToFP: case LLVMFPTrunc:
  case LLVMFPExt: case LLVMPtrToInt: case LLVMIntToPtr: case LLVMBitCast:
  case LLVMAddrSpaceCast: case LLVMICmp: case LLVMFCmp:
  case LLVMGetElementPtr: case LLVMSelect: case LLVMFreeze:
  case LLVMExtractValue: case LLVMInsertValue: case LLVMExtractElement:
  case LLVMInsertElement: case LLVMShuffleVector:
    return 1;
  default:
    return 0;
  }
}

static LLVMValueRef rv_depth(LtGen *g, LLVMValueRef v, int depth);

/* Scalar math (sin, exp, ...) is recomputed from its operands rather than
 * taped: a loop-carried recurrence then tapes only the carried value. */
static int pure_call(LLVMValueRef v) {
  const LtRule *rule;
  if (!LLVMIsACallInst(v) || LLVMGetNumArgOperands(v) > LT_RULE_MAXARGS)
    return 0;
  LtCallKind k = lt_call_kind(v, &rule);
  if (rule && rule->writes_arg)
    return 0;
  return k == LT_CALL_RULE || k == LT_CALL_ZERO || k == LT_CALL_COMPLEX;
}

static int param_index(LtGen *g, LLVMValueRef arg) {
  for (unsigned p = 0; p < g->nparams; p++)
    if (LLVMGetParam(g->P, p) == arg)
      return (int)p;
  return -1;
}

/* Values outside loops are materialised in R's entry, for every path; a
 * load may only be repeated there if it ran on every path that returns
 * (else its address may be garbage). Inside loops, values are made in the
 * reverse block that uses them, which the load dominates. */
static int always_runs(LtGen *g, LLVMValueRef v, int s) {
  if (s >= 0)
    return 1;
  int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(v));
  for (unsigned b = 0; b < g->g.nblocks; b++)
    if (LLVMIsAReturnInst(LLVMGetBasicBlockTerminator(g->g.block[b])) &&
        !lt_cfg_dominates(&g->g, (unsigned)id, b))
      return 0;
  return 1;
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
      if (ops[k] && LLVMIsAInstruction(op) && !always_runs(g, op, -1))
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
static LLVMValueRef memo_get(LtGen *g, LtMap *val, LtMap *bb, LLVMValueRef v,
                             int scope) {
  if (scope < 0)
    return lt_map_get(val, v);
  if (lt_map_get(bb, v) != LLVMGetInsertBlock(g->b))
    return NULL;
  return lt_map_get(val, v);
}

static void memo_put(LtGen *g, LtMap *val, LtMap *bb, LLVMValueRef v,
                     int scope, LLVMValueRef m) {
  lt_map_put(val, v, m);
  if (scope >= 0)
    lt_map_put(bb, v, LLVMGetInsertBlock(g->b));
}

static int loop_of_counter(LtGen *g, LLVMValueRef v) {
  for (unsigned l = 0; l < g->loops.nloops; l++)
    if (g->loop_iv[l] == v)
      return (int)l;
  return -1;
}

/* An integer induction value from the reverse counters: never taped. */
static LLVMValueRef affine(LtGen *g, LLVMValueRef v, int s) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (!LLVMIsAPHINode(v) || LLVMGetTypeKind(t) != LLVMIntegerTypeKind ||
      LLVMGetIntTypeWidth(t) > 64)
    return NULL;
  LtAffine a;
  if (lt_affine_of(&g->ind, g->c->td, v, s, &a))
    return NULL;
  LLVMTypeRef i64 = g->c->i64;
  LLVMValueRef acc = LLVMConstInt(i64, (unsigned long long)a.off, 1);
  for (unsigned k = 0; k < a.nterm; k++) {
    LLVMValueRef it = LLVMBuildLoad2(g->b, i64, g->r_iv[a.loop[k]], "");
    acc = LLVMBuildAdd(g->b, acc,
                       LLVMBuildMul(g->b, it, LLVMConstInt(i64, (unsigned long long)a.coef[k], 1), ""), "");
  }
  for (unsigned k = 0; k < a.ninv; k++) {
    LLVMValueRef x = lt_rv(g, a.inv[k]);
    if (LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMIntegerTypeKind) {
      lt_affine_free(&a);
      return NULL;
    }
    x = LLVMBuildSExtOrBitCast(g->b, x, i64, "");
    acc = LLVMBuildAdd(g->b, acc,
                       LLVMBuildMul(g->b, x, LLVMConstInt(i64, (unsigned long long)a.icoef[k], 1), ""), "");
  }
  lt_affine_free(&a);
  return LLVMBuildTruncOrBitCast(g->b, acc, t, "lt.affine");
}

/* Where v is made in R: once in R's entry when it is outside loops and
 * computed on every path (-1), else in each reverse block that uses it
 * (0): a value of a path not taken is never recomputed or read from the
 * tape, which would read memory its path did not write. */
static int placement(LtGen *g, LLVMValueRef v, int s) {
  if (!g->split && LLVMIsAInstruction(v) &&
      (lt_overwrite_late(&g->ow, v) || lt_overwrite_reloadable(&g->ow, v) == 2))
    return 0; /* read where the undo log has restored its memory */
  return s < 0 && (!LLVMIsAInstruction(v) || always_runs(g, v, -1)) ? -1 : 0;
}

/* The iteration in which a loop with a known trip count T was left is
 * T - 1 (there is one exiting block, so every exit is the last one). */
static LLVMValueRef exit_iteration(LtGen *g, LLVMValueRef v) {
  size_t l = (size_t)lt_map_get(&g->ivx_loop, v);
  if (!l || !g->ind.trip[l - 1].known)
    return NULL;
  LtTrip t = g->ind.trip[l - 1];
  if (t.pred == LLVMIntNE && t.step != 1 && t.step != -1)
    return NULL;
  t.start = lt_rv(g, t.start);
  t.bound = lt_rv(g, t.bound);
  if (t.vstep)
    t.vstep = lt_rv(g, t.vstep);
  LLVMBuilderRef at = placement(g, v, lt_scope_of(g, v)) < 0 ? g->eb : g->b;
  return LLVMBuildSub(at, lt_trip_emit(at, &t), LLVMConstInt(g->c->i64, 1, 0),
                      "lt.last");
}

/* p points into a parameter's memory that the caller does not change
 * between the halves (enzyme_not_overwritten, splitpair.c, or the
 * caller's overwrite analysis for a callee: callee.c). */
int lt_kept_param(const LtGen *g, LLVMValueRef p) {
  LLVMValueRef base = lt_base_of(p);
  if (!g->keep || !LLVMIsAArgument(base))
    return 0;
  for (unsigned k = 0; k < g->nparams; k++)
    if (LLVMGetParam(g->P, k) == base)
      return g->keep[k];
  return 0;
}

/* A load whose memory the primal never overwrites is read again. */
static LLVMValueRef reload(LtGen *g, LLVMBuilderRef at, LLVMValueRef v) {
  LLVMValueRef p = lt_rv(g, LLVMGetOperand(v, 0));
  LLVMValueRef m = LLVMBuildLoad2(at, LLVMTypeOf(v), p, "lt.reload");
  LLVMSetAlignment(m, LLVMGetAlignment(v));
  return m;
}

static LLVMValueRef rv_depth(LtGen *g, LLVMValueRef v, int depth) {
  if (LLVMIsAConstant(v) || LLVMIsAInlineAsm(v))
    return v;
  if (LLVMIsAArgument(v))
    return LLVMGetParam(g->R, (unsigned)param_index(g, v));
  int s = lt_scope_of(g, v), where = placement(g, v, s);
  LtMap *val = where < 0 ? &g->rprimal : &g->rloop_val;
  LLVMBuilderRef at = where < 0 ? g->eb : g->b;
  LLVMValueRef m = memo_get(g, val, &g->rloop_bb, v, where);
  if (m)
    return m;
  int l = loop_of_counter(g, v), seen = lt_map_get(val, v) != NULL;
  if (l >= 0) {
    m = LLVMBuildLoad2(g->b, g->c->i64, g->r_iv[l], "lt.iv");
  } else if ((m = exit_iteration(g, v))) {
    g->st_affine[s + 1] += !seen;
  } else if (s >= 0 && (m = affine(g, v, s))) {
    g->st_affine[s + 1] += !seen;
  } else if (LLVMIsALoadInst(v) && (!g->split || lt_kept_param(g, LLVMGetOperand(v, 0))) &&
             always_runs(g, v, s) && lt_overwrite_reloadable(&g->ow, v)) {
    if (lt_overwrite_reloadable(&g->ow, v) == 2)
      lt_undo_note_reload(g, v);
    m = reload(g, at, v);
    g->st_reload[s + 1] += !seen;
  } else if ((pure_op(LLVMGetInstructionOpcode(v)) || pure_call(v)) &&
             depth < MAX_RECOMPUTE_DEPTH) {
    m = recompute(g, at, v, depth);
    g->st_recompute[s + 1] += !seen;
  } else
    m = lt_tape_load_at(g, LT_SLOT_PRIMAL, v, LLVMTypeOf(v), at);
  memo_put(g, val, &g->rloop_bb, v, where, m);
  return m;
}

LLVMValueRef lt_rv(LtGen *g, LLVMValueRef v) { return rv_depth(g, v, 0); }

LLVMValueRef lt_rs(LtGen *g, LLVMValueRef v) {
  if (LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v))
    return v;
  int s = lt_scope_of(g, v), where = placement(g, v, s);
  LtMap *val = where < 0 ? &g->rshadow : &g->rsloop_val;
  LLVMBuilderRef at = where < 0 ? g->eb : g->b;
  LLVMValueRef m = memo_get(g, val, &g->rsloop_bb, v, where);
  if (m)
    return m;
  if (!lt_is_shadowed(&g->act_of, v))
    return NULL; /* inactive memory */
  if (LLVMIsAArgument(v)) {
    int p = param_index(g, v);
    unsigned ns = 0;
    for (int q = 0; q < p; q++)
      ns += lt_is_dup(g->act[q]);
    m = LLVMGetParam(g->R, g->nparams + ns);
  } else if (LLVMIsAGetElementPtrInst(v)) {
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
  } else if ((LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v)) &&
             lt_rs(g, LLVMGetOperand(v, 0))) {
    m = LLVMBuildPointerCast(at, lt_rs(g, LLVMGetOperand(v, 0)),
                             LLVMTypeOf(v), "");
  } else if (LLVMIsAInstruction(v) && lt_is_shadowed(&g->act_of, v)) {
    m = lt_tape_load_at(g, LT_SLOT_SHADOW, v, LLVMTypeOf(v), at);
  } else {
    return NULL; /* no shadow: inactive memory */
  }
  memo_put(g, val, &g->rsloop_bb, v, where, m);
  return m;
}

