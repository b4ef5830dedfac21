/* reverse.c: the reverse function R.
 *
 * R has one block per reachable primal block; control runs from the block
 * that returned back to the entry. At a merge it picks the predecessor from
 * the branch condition (if/else) or a taped index; a loop header goes back
 * to the latch while reverse iterations remain (the counter starts at the
 * iteration that left the loop) and to the preheader after iteration 0.
 * Adjoints are adjoint.c's accumulators; primal values and shadows come
 * from materialize.c, as the plan says.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/* More than two predecessors, each but one deciding by a branch of its own
 * whether to come here, on conditions made before the block: the
 * predecessors form a chain p1 dom p2 ... dom pn, each pk but pn ends in a
 * conditional branch with one side to id, in id's innermost loop (once an
 * iteration), its condition made in a block that dominates id. Coming
 * here, an iteration passed p1, then p2 if p1 did not branch here, and so
 * on: the choice is the first pk whose condition says so. fdtd-2d's time
 * loop, whose body the guards of its inner loops (ny > 1, nx > 1) leave
 * by three edges, taped a byte a step for them. NULL otherwise. */
static LLVMValueRef recompute_chain(LtGen *g, unsigned id, const unsigned *up, unsigned n) {
  if (n < 3 || n > 16 || id == 0)
    return NULL;
  unsigned ord[16];
  for (unsigned k = 0; k < n; k++) /* ord[k]: the predecessor k others dominate */
    ord[k] = n;
  for (unsigned e = 0; e < n; e++) {
    unsigned below = 0;
    for (unsigned f = 0; f < n; f++)
      below += f != e && lt_cfg_dominates(&g->g, up[f], up[e]);
    if (ord[below] != n)
      return NULL; /* two at one depth: no chain */
    ord[below] = e;
  }
  LLVMValueRef v = LLVMConstInt(g->c->i32, ord[n - 1], 0);
  LLVMValueRef cond[16];
  int side[16];
  for (unsigned k = 0; k + 1 < n; k++) {
    unsigned p = up[ord[k]];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->g.block[p]);
    if (g->loops.innermost[p] != g->loops.innermost[id] || !LLVMIsABranchInst(t) ||
        !LLVMIsConditional(t))
      return NULL;
    side[k] = branch_side(&g->g, p, id, p);
    cond[k] = LLVMGetCondition(t);
    int cb = LLVMIsAInstruction(cond[k])
                 ? lt_cfg_id(&g->g, LLVMGetInstructionParent(cond[k]))
                 : (int)id; /* an argument: made before everything */
    if (side[k] < 0 || cb < 0 ||
        (LLVMIsAInstruction(cond[k]) && !lt_cfg_dominates(&g->g, (unsigned)cb, id)))
      return NULL;
  }
  for (unsigned k = n - 1; k-- > 0;) {
    LLVMValueRef c = LLVMBuildFreeze(g->b, lt_rv(g, cond[k]), "");
    if (side[k])
      c = LLVMBuildNot(g->b, c, "");
    v = LLVMBuildSelect(g->b, c, LLVMConstInt(g->c->i32, ord[k], 0), v, "lt.from");
  }
  return v;
}

/* Leaving loops forward is entering them in reverse: start each exited
 * loop's reverse counter at the iteration that left (lt.ivx). */
static void enter_loops(LtGen *g, LLVMBasicBlockRef bb) {
  /* Outer loops first (lower ids): an inner loop's exit iteration may be
   * computed from the outer counter. */
  for (unsigned l = 0; l < g->loops.nloops; l++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && LLVMIsAPHINode(i);
         i = LLVMGetNextInstruction(i))
      if ((size_t)lt_map_get(&g->ivx_loop, i) == l + 1) {
        LLVMValueRef st = LLVMBuildStore(g->b, lt_rv(g, i), g->r_iv[l]);
        lt_vec_push(&g->undo_enter, (void *)(size_t)(l + 1)); /* undo.c */
        lt_vec_push(&g->undo_enter, st);
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
  g->r_enter[l] = to_ph;
  phi_edge(g, bb, dphi, nphi, g->g.block[L->preheader]);
  LLVMBuildBr(g->b, rblock(g, (unsigned)L->preheader));
  LLVMPositionBuilderAtEnd(g->b, to_lt);
  LLVMBuildStore(g->b, LLVMBuildSub(g->b, iv, one, ""), g->r_iv[l]);
  phi_edge(g, bb, dphi, nphi, g->g.block[L->latch]);
  LLVMBuildBr(g->b, rblock(g, (unsigned)L->latch));
  LLVMPositionBuilderAtEnd(g->b, here);
  LLVMBuildCondBr(g->b, first, to_ph, to_lt);
}

/* No adjoint and no memory effect: address arithmetic between loads. A
 * bitcast that moves float bits (bits.c) has an adjoint: not inert. */
static int inert(LtGen *g, LLVMValueRef i) {
  if (lt_is_varied(&g->act_of, i))
    return 0;
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMGetElementPtr: case LLVMBitCast: case LLVMSExt: case LLVMZExt:
  case LLVMTrunc: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl:
  case LLVMOr: case LLVMAnd: case LLVMICmp:
    return 1;
  default:
    return 0;
  }
}

/* The first instruction of a run of loads (and address arithmetic) ending
 * at `last`, or last itself when it is not such a run of two loads. */
static LLVMValueRef load_run(LtGen *g, LLVMValueRef last) {
  if (!LLVMIsALoadInst(last))
    return last;
  LLVMValueRef first = last;
  unsigned nloads = 1;
  for (LLVMValueRef p = LLVMGetPreviousInstruction(last);
       p && (LLVMIsALoadInst(p) || inert(g, p)); p = LLVMGetPreviousInstruction(p))
    if (LLVMIsALoadInst(p)) {
      first = p;
      nloads++;
    }
  return nloads > 1 ? first : last;
}

/* Load adjoints are independent shadow accumulations, so a run of them is
 * emitted in program order: the load right after a store to the same
 * place (y[i] = y[i] + x[i]) then meets its zeroing store, and LLVM folds
 * the pair instead of keeping both stores around the other accumulations. */
static int reverse_loads(LtGen *g, LLVMValueRef first, LLVMValueRef last) {
  for (LLVMValueRef i = first;; i = LLVMGetNextInstruction(i)) {
    if (!LLVMIsALoadInst(i) && !lt_is_varied(&g->act_of, i))
      lt_map_put(&g->reversed, i, (void *)1); /* inert: nothing to emit */
    if (LLVMIsALoadInst(i) && lt_revinst(g, i))
      return -1;
    if (i == last)
      return 0;
  }
}

static int gen_block(LtGen *g, unsigned id, LLVMBasicBlockRef exitb) {
  LLVMBasicBlockRef bb = g->g.block[id];
  LLVMPositionBuilderAtEnd(g->b, rblock(g, id));
  LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
  if (LLVMIsAReturnInst(t) && LLVMGetNumOperands(t) == 1)
    lt_adj_add(g, LLVMGetOperand(t, 0), g->rdret);
  for (LLVMValueRef i = LLVMGetPreviousInstruction(t); i && !LLVMIsAPHINode(i);) {
    LLVMValueRef first = load_run(g, i);
    if (first != i) {
      if (reverse_loads(g, first, i))
        return -1;
      i = LLVMGetPreviousInstruction(first);
      continue;
    }
    if (lt_revinst(g, i))
      return -1;
    i = LLVMGetPreviousInstruction(i);
  }
  /* Every varied instruction of the block had its adjoint emitted: one
   * skipped would be a silently wrong gradient (a load run once skipped
   * the bitcast inside it). */
  for (LLVMValueRef i = lt_first_non_phi(bb); i != t; i = LLVMGetNextInstruction(i))
    if (lt_is_varied(&g->act_of, i) && !lt_map_get(&g->reversed, i)) {
      lt_internal_error(g->c, g->P, "a varied instruction was not reversed");
      return -1;
    }
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
  if (n > 256) {
    lt_error(g->c, lt_first_non_phi(bb), "a block with more than 256 "
                                         "predecessors is not supported");
    return -1;
  }
  LLVMValueRef choice = recompute_choice(g, id, up, n);
  if (!choice)
    choice = recompute_chain(g, id, up, n);
  if (!choice)
    choice = LLVMBuildZExt(g->b, lt_tape_load(g, LT_SLOT_CHOICE, bb, g->c->i8),
                           g->c->i32, "");
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
  g->r_enter = lt_xcalloc(n + 1, sizeof *g->r_enter);
  g->r_free = lt_xcalloc(n + 1, sizeof *g->r_free);
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
  lt_undo_reverse_finish(g);
  lt_omp_flush(g);
  /* (a cache preallocated on the arena is released instead where the
   * reverse pass leaves its nest: loopfwd.c moves it there) */
  for (unsigned l = 0; l < g->loops.nloops && !g->nofree; l++)
    if (g->plan.rec_size[l]) {
      lt_build_free(g->b, g->c->mod, g->r_buf[l]);
      g->r_free[l] = LLVMGetLastInstruction(LLVMGetInsertBlock(g->b));
    }
  if (g->split && !g->sub && !g->keep_header && !g->nofree)
    lt_build_free(g->b, g->c->mod, g->rtape);
  LLVMValueRef outs[256];
  unsigned n = 0;
  for (unsigned p = 0; p < g->nparams && n < 256; p++)
    if (g->act[p] == LT_OUT)
      outs[n++] = lt_build_accum( /* +0.0 turns an untouched -0.0 into 0.0 */
          g->b, lt_adj_read(g, LLVMGetParam(g->P, p)),
          LLVMConstNull(LLVMTypeOf(LLVMGetParam(g->P, p))));
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
  LLVMTypeRef rty = LLVMGetReturnType(LLVMGlobalGetValueType(g->P));
  int has_dret = lt_is_diff_ty(rty);
  LLVMTypeRef fty = lt_rev_type(c, g->P, g->act, outs_ty);
  unsigned n = LLVMCountParamTypes(fty);
  if (!g->R)
    g->R = lt_clone_decl(g->P, name, fty);
  g->rdret = has_dret ? LLVMGetParam(g->R, n - 2) : NULL;
  g->rtape = LLVMGetParam(g->R, n - 1);
  LLVMSetValueName2(g->rtape, "tape", 4);
  lt_map_init(&g->rprimal, 128);
  lt_map_init(&g->undo_loads, 16);
  lt_map_init(&g->rshadow, 32);
  lt_map_init(&g->adj, 64);
  lt_map_init(&g->adj_ssa, 64);
  lt_map_init(&g->adj_local, 256);
  lt_map_init(&g->reversed, 256);
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
  /* the region itself, not the functions it calls (a buffer per call of
   * a helper called per iteration would cost more than it saves) */
  if (g->parallel && g->at && LLVMIsACallInst(g->at) && lt_call_is_parallel(g->at))
    lt_omp_privatize(g);
  gen_start(g, start, exitb);
  for (unsigned b = g->g.nblocks; b-- > 0;)
    if (gen_block(g, b, exitb))
      return -1;
  gen_exit(g, exitb, outs_ty);
  for (unsigned l = 0; l < g->loops.nloops; l++) {
    LLVMReplaceAllUsesWith(g->r_rs[l], LLVMConstInt(c->i64, g->plan.rec_size[l], 0));
    LLVMInstructionEraseFromParent(g->r_rs[l]);
  }
  lt_tape_seal(g);
  return g->failed ? -1 : 0;
}
