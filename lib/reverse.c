/* reverse.c: the reverse function R.
 *
 * R has one block per reachable primal block; control runs from the block
 * that returned back to the entry, choosing among several predecessors by
 * the index the forward pass taped (one i32 per merge block). Adjoints live
 * in entry allocas (promoted by the cleanup pipeline); a read zeroes the
 * accumulator. Primal values R needs are materialised in R's entry block:
 * constants and arguments directly, pure operations recomputed from their
 * operands, anything else loaded from the tape.
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
  case LLVMExtractValue:
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
  return k == LT_CALL_RULE || k == LT_CALL_ZERO;
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
  int s = lt_scope_of(g, v);
  LLVMBuilderRef at = s < 0 ? g->eb : g->b;
  return LLVMBuildSub(at, lt_trip_emit(at, &t), LLVMConstInt(g->c->i64, 1, 0),
                      "lt.last");
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
  int s = lt_scope_of(g, v);
  LtMap *val = s < 0 ? &g->rprimal : &g->rloop_val;
  LLVMValueRef m = memo_get(g, val, &g->rloop_bb, v, s);
  if (m)
    return m;
  int l = loop_of_counter(g, v), seen = lt_map_get(val, v) != NULL;
  if (l >= 0) {
    m = LLVMBuildLoad2(g->b, g->c->i64, g->r_iv[l], "lt.iv");
  } else if ((m = exit_iteration(g, v))) {
    g->st_affine[s + 1] += !seen;
  } else if (s >= 0 && (m = affine(g, v, s))) {
    g->st_affine[s + 1] += !seen;
  } else if (!g->split && LLVMIsALoadInst(v) && always_runs(g, v, s) &&
             lt_overwrite_reloadable(&g->ow, v)) {
    m = reload(g, s < 0 ? g->eb : g->b, v);
    g->st_reload[s + 1] += !seen;
  } else if ((pure_op(LLVMGetInstructionOpcode(v)) || pure_call(v)) &&
             depth < MAX_RECOMPUTE_DEPTH) {
    m = recompute(g, s < 0 ? g->eb : g->b, v, depth);
    g->st_recompute[s + 1] += !seen;
  } else
    m = lt_tape_load(g, LT_SLOT_PRIMAL, v, LLVMTypeOf(v));
  memo_put(g, val, &g->rloop_bb, v, s, m);
  return m;
}

LLVMValueRef lt_rv(LtGen *g, LLVMValueRef v) { return rv_depth(g, v, 0); }

LLVMValueRef lt_rs(LtGen *g, LLVMValueRef v) {
  if (LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v))
    return v;
  int s = lt_scope_of(g, v);
  LtMap *val = s < 0 ? &g->rshadow : &g->rsloop_val;
  LLVMBuilderRef at = s < 0 ? g->eb : g->b;
  LLVMValueRef m = memo_get(g, val, &g->rsloop_bb, v, s);
  if (m)
    return m;
  if (!lt_is_shadowed(&g->act_of, v))
    return NULL; /* inactive memory */
  if (LLVMIsAArgument(v)) {
    int p = param_index(g, v);
    unsigned ns = 0;
    for (int q = 0; q < p; q++)
      ns += g->act[q] == LT_DUP || g->act[q] == LT_DUPNONEED;
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
  } else if ((LLVMIsABitCastInst(v) || LLVMIsAAddrSpaceCastInst(v)) &&
             lt_rs(g, LLVMGetOperand(v, 0))) {
    m = LLVMBuildPointerCast(at, lt_rs(g, LLVMGetOperand(v, 0)),
                             LLVMTypeOf(v), "");
  } else if (LLVMIsAInstruction(v) && lt_is_shadowed(&g->act_of, v)) {
    m = lt_tape_load(g, LT_SLOT_SHADOW, v, g->c->ptr);
  } else {
    return NULL; /* no shadow: inactive memory */
  }
  memo_put(g, val, &g->rsloop_bb, v, s, m);
  return m;
}

/* Accumulators start at -0.0, the identity of fadd (x + -0.0 == x for
 * every x), so that instcombine folds the first accumulation away. */
static LLVMValueRef neg_zero(LLVMTypeRef t) { return LLVMConstReal(t, -0.0); }

static LLVMValueRef adj_slot(LtGen *g, LLVMValueRef v) {
  LLVMValueRef s = lt_map_get(&g->adj, v);
  if (s)
    return s;
  s = LLVMBuildAlloca(g->eb, LLVMTypeOf(v), "lt.adj");
  LLVMBuildStore(g->eb, neg_zero(LLVMTypeOf(v)), s);
  lt_map_put(&g->adj, v, s);
  return s;
}

LLVMValueRef lt_adj_read(LtGen *g, LLVMValueRef v) {
  LLVMValueRef s = adj_slot(g, v);
  LLVMValueRef d = LLVMBuildLoad2(g->b, LLVMTypeOf(v), s, "lt.d");
  LLVMBuildStore(g->b, neg_zero(LLVMTypeOf(v)), s);
  return d;
}

void lt_adj_add(LtGen *g, LLVMValueRef v, LLVMValueRef d) {
  if (!d || LLVMIsAConstant(v) || !lt_is_varied(&g->act_of, v))
    return;
  LLVMValueRef s = adj_slot(g, v);
  LLVMValueRef old = LLVMBuildLoad2(g->b, LLVMTypeOf(v), s, "");
  LLVMBuildStore(g->b, LLVMBuildFAdd(g->b, old, d, ""), s);
}

static LLVMBasicBlockRef rblock(LtGen *g, unsigned id) {
  return LLVMValueAsBasicBlock(
      lt_map_get(&g->rblock, LLVMBasicBlockAsValue(g->g.block[id])));
}

static void phi_edge(LtGen *g, LLVMBasicBlockRef bb, LLVMValueRef *dphi,
                     unsigned nphi, LLVMBasicBlockRef pred) {
  unsigned k = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i);
       i = LLVMGetNextInstruction(i)) {
    if (!lt_is_varied(&g->act_of, i))
      continue;
    for (unsigned e = 0, n = LLVMCountIncoming(i); e < n; e++)
      if (LLVMGetIncomingBlock(i, e) == pred) {
        lt_adj_add(g, LLVMGetIncomingValue(i, e), dphi[k]);
        break;
      }
    if (++k >= nphi)
      break;
  }
}

/* Which side of its dominator's conditional branch a predecessor p of
 * block id lies on: 0 or 1, or -1 when that does not decide it. */
static int branch_side(const LtCfg *cfg, unsigned d, unsigned id, unsigned p) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(cfg->block[d]);
  int s[2];
  for (unsigned k = 0; k < 2; k++)
    s[k] = lt_cfg_id(cfg, LLVMGetSuccessor(t, k));
  if (p == d) {
    if (s[0] == (int)id && s[1] != (int)id)
      return 0;
    if (s[1] == (int)id && s[0] != (int)id)
      return 1;
    return -1;
  }
  for (int k = 0; k < 2; k++)
    if (s[k] >= 0 && s[k] != (int)id && s[k] != s[1 - k] &&
        cfg->npred[s[k]] == 1 && lt_cfg_dominates(cfg, (unsigned)s[k], p))
      return k;
  return -1;
}

/* A merge of the two sides of an if: the predecessor index follows from
 * the branch condition, so the reverse pass recomputes it (or tapes one
 * i1) instead of taping a choice. NULL when that is not the shape. */
static LLVMValueRef recompute_choice(LtGen *g, unsigned id, const unsigned *up,
                                     unsigned n) {
  if (n != 2 || id == 0)
    return NULL;
  unsigned d = g->g.idom[id];
  if (g->loops.innermost[d] != g->loops.innermost[id])
    return NULL; /* the condition belongs to another iteration space */
  LLVMValueRef t = LLVMGetBasicBlockTerminator(g->g.block[d]);
  if (!LLVMIsABranchInst(t) || !LLVMIsConditional(t))
    return NULL;
  int s0 = branch_side(&g->g, d, id, up[0]);
  int s1 = branch_side(&g->g, d, id, up[1]);
  if (s0 < 0 || s1 < 0 || s0 == s1)
    return NULL;
  /* condition true -> successor 0 -> the predecessor on side 0 */
  LLVMValueRef cond = lt_rv(g, LLVMGetCondition(t));
  return LLVMBuildSelect(g->b, cond, LLVMConstInt(g->c->i32, s0 == 0 ? 0 : 1, 0),
                         LLVMConstInt(g->c->i32, s0 == 0 ? 1 : 0, 0), "lt.from");
}

/* Leaving loops forward is entering them in reverse: start each exited
 * loop's reverse counter at the iteration that left (lt.ivx). */
static void enter_loops(LtGen *g, LLVMBasicBlockRef bb) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i);
       i = LLVMGetNextInstruction(i)) {
    size_t l = (size_t)lt_map_get(&g->ivx_loop, i);
    if (l)
      LLVMBuildStore(g->b, lt_rv(g, i), g->r_iv[l - 1]);
  }
}

static int header_of(LtGen *g, unsigned id) {
  for (unsigned l = 0; l < g->loops.nloops; l++)
    if (g->loops.loop[l].header == id)
      return (int)l;
  return -1;
}

/* The reverse of a loop header ends a reverse iteration: back to the
 * latch while iterations remain, else to the preheader. */
static void header_edges(LtGen *g, unsigned l, LLVMValueRef *dphi,
                         unsigned nphi) {
  const LtLoop *L = &g->loops.loop[l];
  LLVMBasicBlockRef bb = g->g.block[L->header];
  LLVMValueRef one = LLVMConstInt(g->c->i64, 1, 0);
  LLVMValueRef iv = LLVMBuildLoad2(g->b, g->c->i64, g->r_iv[l], "");
  LLVMValueRef m = LLVMBuildLoad2(g->b, g->c->i64, g->r_m[l], "");
  LLVMBuildStore(g->b, LLVMBuildSub(g->b, m, one, ""), g->r_m[l]);
  LLVMValueRef first = LLVMBuildICmp(g->b, LLVMIntEQ, iv,
                                     LLVMConstInt(g->c->i64, 0, 0), "lt.first");
  LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef to_ph = LLVMAppendBasicBlockInContext(g->c->llctx, g->R, "rev.enter");
  LLVMBasicBlockRef to_lt = LLVMAppendBasicBlockInContext(g->c->llctx, g->R, "rev.back");
  LLVMPositionBuilderAtEnd(g->b, to_ph);
  phi_edge(g, bb, dphi, nphi, g->g.block[L->preheader]);
  LLVMBuildBr(g->b, rblock(g, (unsigned)L->preheader));
  LLVMPositionBuilderAtEnd(g->b, to_lt);
  LLVMBuildStore(g->b, LLVMBuildSub(g->b, iv, one, ""), g->r_iv[l]);
  phi_edge(g, bb, dphi, nphi, g->g.block[L->latch]);
  LLVMBuildBr(g->b, rblock(g, (unsigned)L->latch));
  LLVMPositionBuilderAtEnd(g->b, here);
  LLVMBuildCondBr(g->b, first, to_ph, to_lt);
}

static int gen_block(LtGen *g, unsigned id, LLVMBasicBlockRef exitb) {
  LLVMBasicBlockRef bb = g->g.block[id];
  LLVMPositionBuilderAtEnd(g->b, rblock(g, id));
  LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
  if (LLVMIsAReturnInst(t) && LLVMGetNumOperands(t) == 1)
    lt_adj_add(g, LLVMGetOperand(t, 0), g->rdret);
  for (LLVMValueRef i = LLVMGetPreviousInstruction(t); i && !LLVMIsAPHINode(i);
       i = LLVMGetPreviousInstruction(i))
    if (lt_revinst(g, i))
      return -1;
  unsigned nphi = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i);
       i = LLVMGetNextInstruction(i))
    nphi += lt_is_varied(&g->act_of, i);
  LLVMValueRef dphi[nphi + 1];
  unsigned k = 0;
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i);
       i = LLVMGetNextInstruction(i))
    if (lt_is_varied(&g->act_of, i))
      dphi[k++] = lt_adj_read(g, i);
  enter_loops(g, bb);
  int hl = header_of(g, id);
  if (hl >= 0) {
    header_edges(g, (unsigned)hl, dphi, nphi);
    return 0;
  }
  unsigned up[g->g.npred[id] + 1];
  unsigned n = lt_cfg_unique_preds(&g->g, id, up);
  if (n == 0) {
    LLVMBuildBr(g->b, exitb);
    return 0;
  }
  if (n == 1) {
    phi_edge(g, bb, dphi, nphi, g->g.block[up[0]]);
    LLVMBuildBr(g->b, rblock(g, up[0]));
    return 0;
  }
  LLVMValueRef choice = recompute_choice(g, id, up, n);
  if (!choice)
    choice = lt_tape_load(g, LT_SLOT_CHOICE, bb, g->c->i32);
  LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
  LLVMBasicBlockRef edges[n];
  for (unsigned e = 0; e < n; e++) {
    edges[e] = LLVMAppendBasicBlockInContext(g->c->llctx, g->R, "rev.edge");
    LLVMPositionBuilderAtEnd(g->b, edges[e]);
    phi_edge(g, bb, dphi, nphi, g->g.block[up[e]]);
    LLVMBuildBr(g->b, rblock(g, up[e]));
  }
  LLVMPositionBuilderAtEnd(g->b, here);
  LLVMValueRef sw = LLVMBuildSwitch(g->b, choice, edges[n - 1], n - 1);
  for (unsigned e = 0; e + 1 < n; e++)
    LLVMAddCase(sw, LLVMConstInt(g->c->i32, e, 0), edges[e]);
  return 0;
}

/* From R's start to the reverse of the block that returned. */
static void gen_start(LtGen *g, LLVMBasicBlockRef start, LLVMBasicBlockRef exitb) {
  unsigned rets[g->g.nblocks + 1], n = 0;
  for (unsigned b = 0; b < g->g.nblocks; b++)
    if (LLVMIsAReturnInst(LLVMGetBasicBlockTerminator(g->g.block[b])))
      rets[n++] = b;
  LLVMPositionBuilderAtEnd(g->b, start);
  if (n == 0) {
    LLVMBuildBr(g->b, exitb);
  } else if (n == 1) {
    LLVMBuildBr(g->b, rblock(g, rets[0]));
  } else {
    LLVMValueRef which = lt_tape_load(g, LT_SLOT_EXIT, g->P, g->c->i32);
    LLVMValueRef sw = LLVMBuildSwitch(g->b, which, rblock(g, rets[n - 1]), n - 1);
    for (unsigned k = 0; k + 1 < n; k++)
      LLVMAddCase(sw, LLVMConstInt(g->c->i32, k, 0), rblock(g, rets[k]));
  }
}

/* Per loop: its cache and header count from the tape, the reverse
 * counters, and a placeholder for the record size (known once R is built). */
static void init_loops(LtGen *g) {
  LtCtx *c = g->c;
  unsigned n = g->loops.nloops;
  g->r_m = lt_xcalloc(n, sizeof *g->r_m);
  g->r_iv = lt_xcalloc(n, sizeof *g->r_iv);
  g->r_buf = lt_xcalloc(n, sizeof *g->r_buf);
  g->r_rs = lt_xcalloc(n, sizeof *g->r_rs);
  for (unsigned l = 0; l < n; l++) {
    g->r_m[l] = LLVMBuildAlloca(g->eb, c->i64, "lt.m");
    LLVMBuildStore(g->eb, lt_tape_load(g, LT_SLOT_LOOPCOUNT, g->loop_iv[l], c->i64),
                   g->r_m[l]);
    g->r_iv[l] = LLVMBuildAlloca(g->eb, c->i64, "lt.riv");
    LLVMBuildStore(g->eb, LLVMConstInt(c->i64, 0, 0), g->r_iv[l]);
    g->r_buf[l] = lt_tape_load(g, LT_SLOT_LOOPBUF, g->loop_iv[l], c->ptr);
    g->r_rs[l] = LLVMBuildFreeze(g->eb, LLVMGetPoison(c->i64), "lt.recsize");
  }
}

static void gen_exit(LtGen *g, LLVMBasicBlockRef exitb, LLVMTypeRef outs_ty) {
  LLVMPositionBuilderAtEnd(g->b, exitb);
  for (unsigned l = 0; l < g->loops.nloops; l++)
    if (g->rec_size[l])
      lt_build_free(g->b, g->c->mod, g->r_buf[l]);
  if (g->split)
    lt_build_free(g->b, g->c->mod, g->rtape);
  LLVMValueRef outs[256];
  unsigned n = 0;
  for (unsigned p = 0; p < g->nparams && n < 256; p++)
    if (g->act[p] == LT_OUT)
      outs[n++] = LLVMBuildFAdd( /* +0.0 turns an untouched -0.0 into 0.0 */
          g->b, lt_adj_read(g, LLVMGetParam(g->P, p)),
          LLVMConstNull(LLVMTypeOf(LLVMGetParam(g->P, p))), "");
  if (n == 0)
    LLVMBuildRetVoid(g->b);
  else if (n == 1)
    LLVMBuildRet(g->b, outs[0]);
  else {
    LLVMValueRef agg = LLVMGetUndef(outs_ty);
    for (unsigned k = 0; k < n; k++)
      agg = LLVMBuildInsertValue(g->b, agg, outs[k], k, "");
    LLVMBuildRet(g->b, agg);
  }
}

int lt_reverse_build(LtGen *g, const char *name, LLVMTypeRef outs_ty) {
  LtCtx *c = g->c;
  LLVMTypeRef pt[260];
  unsigned np = g->nparams, n = 0;
  for (unsigned p = 0; p < np; p++)
    pt[n++] = LLVMTypeOf(LLVMGetParam(g->P, p));
  for (unsigned p = 0; p < np; p++)
    if (g->act[p] == LT_DUP || g->act[p] == LT_DUPNONEED)
      pt[n++] = c->ptr;
  LLVMTypeRef rty = LLVMGetReturnType(LLVMGlobalGetValueType(g->P));
  int has_dret = lt_is_float_ty(rty);
  if (has_dret)
    pt[n++] = rty;
  pt[n++] = c->ptr;
  g->R = lt_clone_decl(g->P, name, LLVMFunctionType(outs_ty, pt, n, 0));
  g->rdret = has_dret ? LLVMGetParam(g->R, n - 2) : NULL;
  g->rtape = LLVMGetParam(g->R, n - 1);
  LLVMSetValueName2(g->rtape, "tape", 4);
  lt_map_init(&g->rprimal, 128);
  lt_map_init(&g->rshadow, 32);
  lt_map_init(&g->adj, 64);
  lt_map_init(&g->rblock, g->g.nblocks);
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->llctx, g->R, "entry");
  LLVMBasicBlockRef start = LLVMAppendBasicBlockInContext(c->llctx, g->R, "rev.start");
  g->eb = LLVMCreateBuilderInContext(c->llctx);
  g->b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(g->eb, entry);
  LLVMPositionBuilderBefore(g->eb, LLVMBuildBr(g->eb, start));
  for (unsigned b = g->g.nblocks; b-- > 0;) {
    char nm[128];
    snprintf(nm, sizeof nm, "rev.%s", LLVMGetBasicBlockName(g->g.block[b]));
    LLVMBasicBlockRef rb = LLVMAppendBasicBlockInContext(c->llctx, g->R, nm);
    lt_map_put(&g->rblock, LLVMBasicBlockAsValue(g->g.block[b]),
               LLVMBasicBlockAsValue(rb));
  }
  LLVMBasicBlockRef exitb = LLVMAppendBasicBlockInContext(c->llctx, g->R, "rev.exit");
  init_loops(g);
  gen_start(g, start, exitb);
  for (unsigned b = g->g.nblocks; b-- > 0;)
    if (gen_block(g, b, exitb))
      return -1;
  gen_exit(g, exitb, outs_ty);
  for (unsigned l = 0; l < g->loops.nloops; l++) {
    LLVMReplaceAllUsesWith(g->r_rs[l], LLVMConstInt(c->i64, g->rec_size[l], 0));
    LLVMInstructionEraseFromParent(g->r_rs[l]);
  }
  return g->failed ? -1 : 0;
}
