/* outline.c: the iteration of a time loop as a function of its own.
 *
 * Checkpointing (issue 20) reverses a time loop step by step, running
 * steps again from snapshots of the state; for that one step has to be
 * something A and R can run on demand, in any order. A kept call is such
 * a thing: it has its own augmented forward and reverse (gen/callee.c),
 * with its own lean tape for the inner loops. So preprocessing moves the
 * body of an outermost loop with a known trip count (or online, below)
 * into a new function <P>.lt.step, and the loop becomes
 *
 *     preheader:  T = trip count
 *     loop:       k = phi [0, preheader], [k + 1, loop]
 *                 call <P>.lt.step(values the body reads from outside)
 *                 br k + 1 < T, loop, exit
 *
 * What the iterations carry (the header's phis, the loop's own counter
 * among them) lives in allocas of P that the step loads at its start and
 * stores at its end, and what the loop leaves to the code after it (the
 * exit block's LCSSA phis) in allocas stored by the step and loaded after
 * the loop. The step then reads only loop-invariant arguments, so the k-th
 * step can be run from the state (the memory the step writes, those
 * allocas among it) alone.
 *
 * A loop whose trip count is not known when it starts (a while loop with
 * a data-dependent exit, an adaptive time step: `while (t < t_end)`) is
 * outlined the same way, online: the step stores the latch's "go on" test
 * into a cell of P (an i1 alloca, a parameter like the others), the loop
 * branches on its load, and k counts the steps so far; the step is marked
 * "leantape-online" for gen/ckpt.c.
 *
 * The loop must be in rotated, simplified, LCSSA form with its latch as
 * the only exiting block, so that one call is one pass from header to
 * latch and the latch's exit test is the trip count's (or the cell's),
 * a loop with a second exit is not outlined; its body must
 * contain a loop (what makes a time loop: a step is a sweep over the
 * state), and no parallel region.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct Loop {
  LtCtx *c;
  LLVMValueRef P;
  LLVMBasicBlockRef *blocks; /* the loop's blocks, header first */
  unsigned nblocks;
  LLVMBasicBlockRef header, latch, pre, exit;
  LtMap in;                  /* block of the loop -> 1 */
  LtMap cells;               /* the cells of pointers it rotates -> 1 */
  const LtInduction *ind;
  unsigned l;
  LLVMValueRef kph;          /* the step number k, a placeholder in P */
} Loop;

static int inside(Loop *L, LLVMValueRef v) {
  return LLVMIsAInstruction(v) && lt_map_get(&L->in, LLVMGetInstructionParent(v));
}

static LLVMValueRef entry_alloca(Loop *L, LLVMBuilderRef b, LLVMTypeRef t, const char *nm) {
  LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(L->P);
  LLVMPositionBuilderBefore(b, lt_first_non_phi(e));
  return LLVMBuildAlloca(b, t, nm);
}

/* The loop's counters with a constant step (start + step * k) are made
 * again from the step number k in the header, so that what a step writes
 * through them is affine in k (gen/snapshot.c bounds it over all steps). */
static void counters_from_k(Loop *L, LLVMBuilderRef b) {
  LtCtx *c = L->c;
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(L->pre));
  L->kph = LLVMBuildFreeze(b, LLVMGetPoison(c->i64), "lt.k");
  for (unsigned j = 0; j < L->ind->nctr[L->l]; j++) {
    const LtCounter *ct = &L->ind->ctr[L->l][j];
    LLVMTypeRef t = LLVMTypeOf(ct->phi);
    if (ct->vstep || !ct->step || LLVMGetTypeKind(t) != LLVMIntegerTypeKind ||
        LLVMGetIntTypeWidth(t) > 64)
      continue;
    LLVMPositionBuilderBefore(b, lt_first_non_phi(L->header));
    LLVMValueRef k = LLVMGetIntTypeWidth(t) == 64 ? L->kph : LLVMBuildTrunc(b, L->kph, t, "");
    LLVMValueRef v = LLVMBuildAdd(b, ct->start,
                                  LLVMBuildMul(b, k, LLVMConstInt(t, (unsigned long long)ct->step, 1),
                                               ""),
                                  "lt.counter");
    LLVMReplaceAllUsesWith(ct->phi, v);
    LLVMInstructionEraseFromParent(ct->phi);
  }
}

/* The value a header phi takes from the latch. */
static LLVMValueRef latch_value(Loop *L, LLVMValueRef phi) {
  for (unsigned n = 0; n < LLVMCountIncoming(phi); n++)
    if (LLVMGetIncomingBlock(phi, n) == L->latch)
      return LLVMGetIncomingValue(phi, n);
  return NULL;
}

/* The header's phis into allocas: the preheader stores the first value,
 * the latch the next one, the header loads it. */
static void demote_header_phis(Loop *L, LLVMBuilderRef b) {
  LLVMValueRef pre_t = LLVMGetBasicBlockTerminator(L->pre);
  LLVMValueRef latch_t = LLVMGetBasicBlockTerminator(L->latch);
  LtVec phis = {0};
  for (LLVMValueRef i = LLVMGetFirstInstruction(L->header); i && LLVMIsAPHINode(i);
       i = LLVMGetNextInstruction(i))
    lt_vec_push(&phis, i);
  /* the loads first, so that a latch value that is another phi (two
   * buffers swapped each step) is stored as loaded */
  LLVMValueRef *slot = lt_xcalloc(phis.n + 1, sizeof *slot);
  LLVMValueRef *ld = lt_xcalloc(phis.n + 1, sizeof *ld);
  LLVMValueRef at = lt_first_non_phi(L->header);
  for (size_t k = 0; k < phis.n; k++) {
    LLVMValueRef phi = phis.v[k];
    slot[k] = entry_alloca(L, b, LLVMTypeOf(phi), "lt.carry");
    LLVMPositionBuilderBefore(b, at);
    ld[k] = LLVMBuildLoad2(b, LLVMTypeOf(phi), slot[k], "lt.carried");
  }
  for (size_t k = 0; k < phis.n; k++) {
    LLVMValueRef phi = phis.v[k];
    for (unsigned n = 0; n < LLVMCountIncoming(phi); n++) {
      LLVMBasicBlockRef from = LLVMGetIncomingBlock(phi, n);
      LLVMValueRef v = LLVMGetIncomingValue(phi, n);
      for (size_t m = 0; m < phis.n; m++)
        if (v == phis.v[m])
          v = ld[m];
      LLVMPositionBuilderBefore(b, from == L->pre ? pre_t : latch_t);
      LLVMBuildStore(b, v, slot[k]);
    }
  }
  /* Pointers the iterations only swap among themselves (buffers rotated
   * each step) are marked for gen/ckpt.c: their cells' set of values is
   * the same at every step. */
  unsigned char *rot = lt_xcalloc(phis.n + 1, 1);
  for (size_t k = 0; k < phis.n; k++)
    rot[k] = lt_is_ptr_ty(LLVMTypeOf(phis.v[k]));
  for (int changed = 1; changed;) {
    changed = 0;
    for (size_t k = 0; k < phis.n; k++) {
      if (!rot[k])
        continue;
      LLVMValueRef next = latch_value(L, phis.v[k]);
      int ok = 0;
      for (size_t m = 0; m < phis.n; m++)
        ok |= next == phis.v[m] && rot[m];
      if (!ok)
        rot[k] = 0, changed = 1;
    }
  }
  /* A rotation whose pointers each take a different one's value (a
   * permutation: two buffers swapped) keeps the cells' values, not only
   * their set, at every step, in another order: 2 (gen/snapshot.c may
   * then leave out what a step writes before it reads it). */
  int permuted = 1;
  for (size_t k = 0; k < phis.n && permuted; k++)
    for (size_t m = 0; m < k && permuted; m++)
      permuted = !rot[k] || !rot[m] || latch_value(L, phis.v[k]) != latch_value(L, phis.v[m]);
  for (size_t k = 0; k < phis.n; k++)
    if (rot[k])
      lt_map_put(&L->cells, slot[k], (void *)(size_t)(permuted ? 2 : 1));
  free(rot);
  for (size_t k = 0; k < phis.n; k++) {
    LLVMReplaceAllUsesWith(phis.v[k], ld[k]);
    LLVMInstructionEraseFromParent(phis.v[k]);
  }
  free(slot);
  free(ld);
  lt_vec_free(&phis);
}

/* The exit block's LCSSA phis (all from the latch) into allocas the latch
 * stores and the exit block loads. */
static void demote_exit_phis(Loop *L, LLVMBuilderRef b) {
  LLVMValueRef latch_t = LLVMGetBasicBlockTerminator(L->latch);
  LLVMValueRef at = lt_first_non_phi(L->exit);
  for (LLVMValueRef i = LLVMGetFirstInstruction(L->exit), next; i && LLVMIsAPHINode(i);
       i = next) {
    next = LLVMGetNextInstruction(i);
    LLVMValueRef slot = entry_alloca(L, b, LLVMTypeOf(i), "lt.leave");
    LLVMPositionBuilderBefore(b, latch_t);
    LLVMBuildStore(b, LLVMGetIncomingValue(i, 0), slot);
    LLVMPositionBuilderBefore(b, at);
    LLVMValueRef v = LLVMBuildLoad2(b, LLVMTypeOf(i), slot, "lt.left");
    LLVMReplaceAllUsesWith(i, v);
    LLVMInstructionEraseFromParent(i);
  }
}

/* The values the loop reads from outside: instructions of P before it
 * and P's parameters, in order of first use. */
static void outside_values(Loop *L, LtVec *out, LtMap *seen) {
  for (unsigned k = 0; k < L->nblocks; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(L->blocks[k]); i;
         i = LLVMGetNextInstruction(i))
      for (int n = 0, no = LLVMGetNumOperands(i); n < no; n++) {
        LLVMValueRef op = LLVMGetOperand(i, (unsigned)n);
        if (!op || LLVMValueIsBasicBlock(op) || lt_map_get(seen, op))
          continue;
        if ((LLVMIsAInstruction(op) && !inside(L, op)) || LLVMIsAArgument(op)) {
          lt_map_put(seen, op, (void *)(size_t)(out->n + 1));
          lt_vec_push(out, op);
        }
      }
}

/* S, with a copy of the loop's blocks reading its parameters where they
 * read args (argno: value -> parameter + 1); the loop's own blocks are
 * deleted (nothing outside refers to them any more). Copied, not moved:
 * the copy drops the debug records and locations that name P's
 * subprogram, which S is not. */
static LLVMValueRef build_step(Loop *L, LtVec *args) {
  LtCtx *c = L->c;
  LLVMTypeRef *pt = lt_xcalloc(args->n + 1, sizeof *pt);
  for (size_t k = 0; k < args->n; k++)
    pt[k] = LLVMTypeOf(args->v[k]);
  /* named after the user's function (P is <fn>.lt.pre) */
  size_t len;
  const char *pn = LLVMGetValueName2(L->P, &len);
  if (len > 7 && !strcmp(pn + len - 7, ".lt.pre"))
    len -= 7;
  char name[300];
  snprintf(name, sizeof name, "%.*s.lt.step", (int)(len < 250 ? len : 250), pn);
  LLVMValueRef S = LLVMAddFunction(c->mod, name,
                                   LLVMFunctionType(c->vd, pt, (unsigned)args->n, 0));
  free(pt);
  LLVMSetLinkage(S, LLVMInternalLinkage);
  /* the cells of rotated pointers (noalias: only the step reaches them) */
  unsigned na = LLVMGetEnumAttributeKindForName("noalias", 7);
  for (size_t k = 0; k < args->n; k++)
    if (lt_map_get(&L->cells, args->v[k])) {
      LLVMAddAttributeAtIndex(S, (unsigned)k + 1, LLVMCreateEnumAttribute(c->llctx, na, 0));
      if ((size_t)lt_map_get(&L->cells, args->v[k]) == 2)
        LLVMAddAttributeAtIndex(S, (unsigned)k + 1,
                                LLVMCreateStringAttribute(c->llctx, "leantape-permuted", 17, "", 0));
    }
  LLVMBasicBlockRef entry = LLVMAppendBasicBlockInContext(c->llctx, S, "entry");
  LtMap vm;
  lt_map_init(&vm, 64);
  for (size_t k = 0; k < args->n; k++)
    lt_map_put(&vm, args->v[k], LLVMGetParam(S, (unsigned)k));
  LLVMBasicBlockRef h = lt_clone_blocks(&vm, L->blocks, L->nblocks, S, NULL, 0);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildBr(b, h);
  /* one pass: the latch returns instead of branching back or out */
  LLVMValueRef t = LLVMGetBasicBlockTerminator(
      LLVMValueAsBasicBlock(lt_map_get(&vm, LLVMBasicBlockAsValue(L->latch))));
  LLVMPositionBuilderBefore(b, t);
  LLVMBuildRetVoid(b);
  LLVMInstructionEraseFromParent(t);
  LLVMDisposeBuilder(b);
  lt_map_free(&vm);
  /* lifetime markers of P's allocas, now parameters of S: dropped (they
   * may only mark allocas) */
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(S); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      size_t len;
      if (LLVMIsACallInst(i) && !strncmp(lt_callee_name(i, &len), "llvm.lifetime.", 14) &&
          !LLVMIsAAllocaInst(lt_base_of(LLVMGetOperand(i, LLVMGetNumArgOperands(i) - 1))))
        LLVMInstructionEraseFromParent(i);
    }
  for (unsigned k = 0; k < L->nblocks; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(L->blocks[k]); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMGetFirstUse(i))
        LLVMReplaceAllUsesWith(i, LLVMGetPoison(LLVMTypeOf(i)));
  for (unsigned k = 0; k < L->nblocks; k++)
    LLVMDeleteBasicBlock(L->blocks[k]);
  return S;
}

/* Outline loop l of P (its facts in g, loops, ind); the call of the new
 * step, NULL when the loop does not qualify. */
static LLVMValueRef outline(LtCtx *c, LLVMValueRef P, const LtCfg *g, const LtLoops *ls,
                           const LtInduction *ind, unsigned l) {
  const LtLoop *lp = &ls->loop[l];
  if (lp->depth != 1 || lp->preheader < 0 || lp->latch < 0 || lp->nexiting != 1 ||
      lp->exiting[0] != (unsigned)lp->latch || lp->nexits != 1 || !lp->nchildren)
    return NULL;
  int online = !ind->trip[l].known;
  LLVMValueRef lt = LLVMGetBasicBlockTerminator(g->block[lp->latch]);
  if (online && (!lt || LLVMGetInstructionOpcode(lt) != LLVMBr || !LLVMIsConditional(lt)))
    return NULL;
  for (unsigned k = 0; k < lp->nblocks; k++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[lp->blocks[k]]); i;
         i = LLVMGetNextInstruction(i))
      if ((LLVMIsACallInst(i) && lt_call_is_parallel(i)) || LLVMIsAInvokeInst(i) ||
          LLVMIsALandingPadInst(i))
        return NULL;
  Loop L = {c, P, NULL, 0, g->block[lp->header], g->block[lp->latch],
            g->block[lp->preheader], g->block[lp->exits[0]], {0}, {0}, ind, l, NULL};
  lt_map_init(&L.cells, 8);
  L.blocks = lt_xcalloc(lp->nblocks, sizeof *L.blocks);
  lt_map_init(&L.in, 16);
  L.blocks[L.nblocks++] = L.header;
  for (unsigned k = 0; k < lp->nblocks; k++)
    if (g->block[lp->blocks[k]] != L.header)
      L.blocks[L.nblocks++] = g->block[lp->blocks[k]];
  for (unsigned k = 0; k < L.nblocks; k++)
    lt_map_put(&L.in, L.blocks[k], (void *)1);

  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  /* the trip count, where the preheader ends; or, online, whether to go
   * on, which the step leaves in a cell */
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(L.pre));
  LLVMValueRef T = online ? NULL : lt_trip_emit(b, &ind->trip[l]), more = NULL;
  if (online) {
    more = entry_alloca(&L, b, LLVMInt1TypeInContext(c->llctx), "lt.more");
    LLVMValueRef go = LLVMGetCondition(lt);
    LLVMPositionBuilderBefore(b, lt);
    if (LLVMGetSuccessor(lt, 0) != L.header)
      go = LLVMBuildNot(b, go, "");
    LLVMBuildStore(b, go, more);
  }
  counters_from_k(&L, b);
  demote_header_phis(&L, b);
  demote_exit_phis(&L, b);
  LtVec args = {0};
  LtMap seen;
  lt_map_init(&seen, 16);
  outside_values(&L, &args, &seen);
  lt_map_free(&seen);

  /* the new loop: preheader -> loop -> exit */
  LLVMBasicBlockRef nl = LLVMInsertBasicBlockInContext(c->llctx, L.exit, "lt.steps");
  LLVMValueRef pt = LLVMGetBasicBlockTerminator(L.pre);
  for (unsigned s = 0, ns = LLVMGetNumSuccessors(pt); s < ns; s++)
    if (LLVMGetSuccessor(pt, s) == L.header)
      LLVMSetSuccessor(pt, s, nl);
  LLVMValueRef S = build_step(&L, &args);
  LLVMPositionBuilderAtEnd(b, nl);
  LLVMValueRef k = LLVMBuildPhi(b, c->i64, "lt.step.k");
  for (size_t j = 0; j < args.n; j++)
    if (args.v[j] == L.kph) { /* the step number, marked for gen/ckpt.c */
      args.v[j] = k;
      LLVMAddAttributeAtIndex(S, (unsigned)j + 1,
                              LLVMCreateStringAttribute(c->llctx, "leantape-step", 13, "", 0));
    }
  LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(S), S,
                                     (LLVMValueRef *)args.v, (unsigned)args.n, "");
  LLVMInstructionSetDebugLoc(call, LLVMInstructionGetDebugLoc(pt));
  lt_mark_call(call, "diff");
  LLVMValueRef k1 = LLVMBuildAdd(b, k, LLVMConstInt(c->i64, 1, 0), "lt.step.next");
  LLVMSetNUW(k1, 1);
  if (online) /* marked for gen/ckpt.c: no trip count when the loop starts */
    LLVMAddAttributeAtIndex(S, LLVMAttributeFunctionIndex,
                            LLVMCreateStringAttribute(c->llctx, "leantape-online", 15, "", 0));
  LLVMBuildCondBr(b,
                  online ? LLVMBuildLoad2(b, LLVMInt1TypeInContext(c->llctx), more, "lt.go")
                         : LLVMBuildICmp(b, LLVMIntULT, k1, T, ""),
                  nl, L.exit);
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0);
  LLVMAddIncoming(k, &zero, &L.pre, 1);
  LLVMAddIncoming(k, &k1, &nl, 1);
  LLVMDisposeBuilder(b);
  if (!LLVMGetFirstUse(L.kph))
    LLVMInstructionEraseFromParent(L.kph);
  lt_vec_free(&args);
  lt_map_free(&L.in);
  lt_map_free(&L.cells);
  free(L.blocks);
  return call;
}

/* Is fn differentiated in forward mode, an argument of __enzyme_fwddiff
 * or called (up to depth calls deep) from a function that is? */
static int under_fwd(LLVMValueRef fn, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(fn); u && depth < 8; u = LLVMGetNextUse(u)) {
    LLVMValueRef us = LLVMGetUser(u);
    if (!LLVMIsACallInst(us))
      continue;
    size_t len;
    const char *nm = lt_callee_name(us, &len);
    if (nm && !strncmp(nm, "__enzyme_fwddiff", 16))
      return 1;
    if (LLVMGetCalledValue(us) == fn &&
        under_fwd(LLVMGetBasicBlockParent(LLVMGetInstructionParent(us)), depth + 1))
      return 1;
  }
  return 0;
}

int lt_outline_wanted(LtCtx *c, LLVMValueRef call, int ckpt) {
  if (!call || !under_fwd(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), 0))
    return 1;
  if (ckpt)
    lt_remark_emit(c, call, "leantape", "checkpoint",
                   "time loops are not checkpointed in a gradient that forward mode "
                   "differentiates (forward over reverse): their steps are taped");
  return 0;
}

/* The reverse sweep runs steps again (from snapshots) and restores their
 * state, so the locals of P that a step reaches stay live until the
 * gradient returns: their lifetime markers go. A lifetime end in A let
 * the snapshots read, and the re-run steps write, a dead local (ASan:
 * stack-use-after-scope; stack colouring may give its slot to another
 * local; fuzz --timeloop seed 201020 at -O1). */
static void keep_step_locals_live(LLVMValueRef P, const LtVec *steps) {
  LtMap live;
  lt_map_init(&live, 8);
  for (size_t j = 0; j < steps->n; j++)
    for (unsigned a = 0, na = LLVMGetNumArgOperands(steps->v[j]); a < na; a++) {
      LLVMValueRef v = LLVMGetOperand(steps->v[j], a);
      if (LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind &&
          LLVMIsAAllocaInst(lt_base_of(v)))
        lt_map_put(&live, lt_base_of(v), (void *)1);
    }
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(P); bb && live.n;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      size_t len;
      if (LLVMIsACallInst(i) && !strncmp(lt_callee_name(i, &len), "llvm.lifetime.", 14) &&
          lt_map_get(&live, lt_base_of(LLVMGetOperand(i, LLVMGetNumArgOperands(i) - 1))))
        LLVMInstructionEraseFromParent(i);
    }
  lt_map_free(&live);
}

int lt_outline_time_loops(LtCtx *c, LLVMValueRef P) {
  if (lt_run_pipeline(c, P, "loop(loop-rotate),loop-simplify,lcssa"))
    return -1;
  LtVec steps = {0};
  for (LLVMValueRef done = P; done;) {
    done = NULL;
    LtCfg g;
    LtLoops ls;
    LtInduction ind;
    lt_cfg_build(&g, P);
    lt_loops_build(&ls, &g);
    lt_induction_build(&ind, &ls);
    for (unsigned l = 0; l < ls.nloops && !done && !ls.irreducible; l++)
      done = outline(c, P, &g, &ls, &ind, l);
    if (done)
      lt_vec_push(&steps, done);
    lt_induction_free(&ind);
    lt_loops_free(&ls);
    lt_cfg_free(&g);
  }
  keep_step_locals_live(P, &steps);
  int n = (int)steps.n;
  lt_vec_free(&steps);
  return n;
}
