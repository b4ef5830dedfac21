/* ckpt.c: checkpointed time loops (issue 20), the compile-time half.
 *
 * With -leantape-checkpoint[=BUDGET] or the enzyme_tape_budget marker,
 * preprocessing makes the body of each time loop a step function, a kept
 * call per iteration (prep/outline.c). Its derivative is then requested
 * with `ckpt`, and while the step's facts are at hand snapshot.c builds
 * <step>.lt.snap, which saves and restores the step's state.
 *
 * At the call site, A and R call the run-time helpers (ckptrt.c) instead
 * of the step's A and R, in straight-line code: A gives lt.ckpt.fwd the
 * step's arguments and shadows (in the context, once per step) and
 * callbacks that run one step untaped (adv), taped (aug), reversed (rev)
 * or snapshot its state (snap); the helper tapes the step as usual or, with
 * a tape budget, runs it untaped and keeps snapshots. The context and the
 * step's tape (null when checkpointing) go into the loop's record; R hands
 * them back to lt.ckpt.rev, which reverses the step from its tape, or, at
 * the first step it reverses, all steps from the snapshots.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ARGS 192 /* where the context keeps the step's arguments (ckptrt.c) */

/* ---- the call site: callbacks, A and R ------------------------------------ */

/* The step's arguments (params, then shadows of dup params) as the
 * callbacks read them from the context: args[k] at ARGS + 8 k. */
static unsigned load_args(LtCtx *c, LLVMBuilderRef b, const LtDeriv *d, LLVMValueRef cargs,
                          LLVMValueRef *out, int shadows) {
  LLVMTypeRef ft = LLVMGlobalGetValueType(d->fn);
  unsigned np = LLVMCountParamTypes(ft), n = 0, slot = 0;
  LLVMTypeRef *pt = lt_xcalloc(np + 1, sizeof *pt);
  LLVMGetParamTypes(ft, pt);
  for (int pass = 0; pass < 1 + shadows; pass++)
    for (unsigned p = 0; p < np; p++) {
      if (pass && !lt_is_dup(d->act[p]))
        continue;
      LLVMValueRef off = LLVMConstInt(c->i64, 8 * slot++, 0);
      out[n++] = LLVMBuildLoad2(b, pt[p], LLVMBuildGEP2(b, c->i8, cargs, &off, 1, ""), "");
    }
  free(pt);
  return n;
}

static LLVMValueRef callback(LtCtx *c, const char *base, const char *what, LLVMTypeRef rt,
                             LLVMTypeRef *pt, unsigned np, LLVMBuilderRef b) {
  char name[300];
  snprintf(name, sizeof name, "%s.lt.ck.%s", base, what);
  LLVMValueRef fn = LLVMAddFunction(c->mod, name, LLVMFunctionType(rt, pt, np, 0));
  LLVMSetLinkage(fn, LLVMInternalLinkage);
  LLVMPositionBuilderAtEnd(b, LLVMAppendBasicBlockInContext(c->llctx, fn, "entry"));
  return fn;
}

/* The out-gradients outs (R's result) added into acc, 8 bytes each. */
static void add_outs(LtCtx *c, LLVMBuilderRef b, const LtDeriv *d, LLVMValueRef outs,
                     LLVMValueRef acc) {
  for (unsigned k = 0; k < d->nouts; k++) {
    LLVMValueRef v = d->nouts == 1 ? outs : LLVMBuildExtractValue(b, outs, k, "");
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef off = LLVMConstInt(c->i64, 8 * k, 0);
    LLVMValueRef at = LLVMBuildGEP2(b, c->i8, acc, &off, 1, "");
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, t, at, ""), v, ""), at);
  }
}

/* adv(args): the step, untaped; aug(args, tape): its A; rev(args, tape,
 * outs): its R, the out-gradients added into outs; augd(args, tape): its A
 * as lt.ckpt.back runs it, right before R (ckptdead.c), or NULL;
 * snap(args, buf, op). */
static void callbacks(LtGen *g, const LtDeriv *d, LLVMValueRef *cb, unsigned *ncells) {
  LtCtx *c = g->c;
  const char *base = LLVMGetValueName2(d->fn, &(size_t){0});
  unsigned np = LLVMCountParams(d->fn);
  LLVMValueRef *a = lt_xcalloc(2 * np + 3, sizeof *a);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMTypeRef p1[1] = {c->ptr}, p2[2] = {c->ptr, c->ptr}, p3[3] = {c->ptr, c->ptr, c->ptr};
  LLVMTypeRef snp[3] = {c->ptr, c->ptr, LLVMInt32TypeInContext(c->llctx)};

  cb[0] = callback(c, base, "adv", c->vd, p1, 1, b);
  unsigned n = load_args(c, b, d, LLVMGetParam(cb[0], 0), a, 0);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(d->fn), d->fn, a, n, "");
  LLVMBuildRetVoid(b);

  cb[1] = callback(c, base, "aug", c->vd, p2, 2, b);
  n = load_args(c, b, d, LLVMGetParam(cb[1], 0), a, 1);
  a[n++] = LLVMGetParam(cb[1], 1);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(d->aug), d->aug, a, n, "");
  LLVMBuildRetVoid(b);

  cb[2] = callback(c, base, "rev", c->vd, p3, 3, b);
  n = load_args(c, b, d, LLVMGetParam(cb[2], 0), a, 1);
  a[n++] = LLVMGetParam(cb[2], 1);
  LLVMValueRef outs = LLVMBuildCall2(b, LLVMGlobalGetValueType(d->rev), d->rev, a, n, "");
  add_outs(c, b, d, outs, LLVMGetParam(cb[2], 2));
  LLVMBuildRetVoid(b);

  /* sync(args, op): the rotated pointers' cells (noalias pointer
   * parameters the step loads pointers from, prep/outline.c) hold one of
   * the same buffers at every step, and their shadow cells the shadow of
   * it; A sets those as it goes, a step run again untaped does not. Op 0
   * learns the pairs at step 0 (after the arguments, in the context), op 1
   * sets each shadow cell to the shadow of the buffer in its cell. */
  LLVMTypeRef syp[2] = {c->ptr, LLVMInt32TypeInContext(c->llctx)};
  cb[4] = callback(c, base, "sync", c->vd, syp, 2, b);
  {
    LLVMValueRef fn = cb[4], cargs = LLVMGetParam(fn, 0), op = LLVMGetParam(fn, 1);
    unsigned na = LLVMGetEnumAttributeKindForName("noalias", 7), nsh = 0, ncell = 0;
    unsigned *shslot = lt_xcalloc(np + 1, sizeof *shslot);
    for (unsigned p = 0; p < np; p++)
      shslot[p] = lt_is_dup(d->act[p]) ? np + nsh++ : 0;
    /* the cells: rotated ones (noalias, learnt from) first, then those
     * the step stores a pointer into (what the loop leaves: set only) */
    LLVMValueRef cellp[np + 1], shp[np + 1];
    unsigned nlearn = 0;
    for (int pass = 0; pass < 2; pass++)
      for (unsigned p = 0; p < np; p++) {
        LLVMValueRef a0 = LLVMGetParam(d->fn, p);
        if (!lt_is_dup(d->act[p]) || !lt_is_ptr_ty(LLVMTypeOf(a0)))
          continue;
        int rot = LLVMGetEnumAttributeAtIndex(d->fn, p + 1, na) != NULL, cell = 0;
        for (LLVMUseRef u = LLVMGetFirstUse(a0); u && !cell; u = LLVMGetNextUse(u)) {
          LLVMValueRef us = LLVMGetUser(u);
          cell = rot ? LLVMIsALoadInst(us) && lt_is_ptr_ty(LLVMTypeOf(us))
                     : LLVMIsAStoreInst(us) && LLVMGetOperand(us, 1) == a0 &&
                           lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(us, 0)));
        }
        if (!cell || rot != !pass)
          continue;
        LLVMValueRef o1 = LLVMConstInt(c->i64, 8 * p, 0),
                     o2 = LLVMConstInt(c->i64, 8 * shslot[p], 0);
        cellp[ncell] = LLVMBuildLoad2(b, c->ptr, LLVMBuildGEP2(b, c->i8, cargs, &o1, 1, ""), "");
        shp[ncell++] = LLVMBuildLoad2(b, c->ptr, LLVMBuildGEP2(b, c->i8, cargs, &o2, 1, ""), "");
        nlearn += rot;
      }
    /* the pairs, after the arguments: (buffer, its shadow) per cell */
    LLVMValueRef po = LLVMConstInt(c->i64, 8 * (np + nsh), 0);
    LLVMValueRef pairs = LLVMBuildGEP2(b, c->i8, cargs, &po, 1, "");
    LLVMBasicBlockRef learn = LLVMAppendBasicBlockInContext(c->llctx, fn, "learn");
    LLVMBasicBlockRef set = LLVMAppendBasicBlockInContext(c->llctx, fn, "set");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, op, LLVMConstInt(LLVMTypeOf(op), 0, 0), ""),
                    learn, set);
    LLVMPositionBuilderAtEnd(b, learn);
    for (unsigned k = 0; k < nlearn; k++) {
      LLVMValueRef o1 = LLVMConstInt(c->i64, 16 * k, 0), o2 = LLVMConstInt(c->i64, 16 * k + 8, 0);
      LLVMBuildStore(b, LLVMBuildLoad2(b, c->ptr, cellp[k], ""),
                     LLVMBuildGEP2(b, c->i8, pairs, &o1, 1, ""));
      LLVMBuildStore(b, LLVMBuildLoad2(b, c->ptr, shp[k], ""),
                     LLVMBuildGEP2(b, c->i8, pairs, &o2, 1, ""));
    }
    LLVMBuildRetVoid(b);
    LLVMPositionBuilderAtEnd(b, set);
    for (unsigned k = 0; k < ncell; k++) {
      LLVMValueRef v = LLVMBuildLoad2(b, c->ptr, cellp[k], "");
      LLVMValueRef sh = LLVMBuildLoad2(b, c->ptr, shp[k], "");
      for (unsigned m = 0; m < nlearn; m++) {
        LLVMValueRef o1 = LLVMConstInt(c->i64, 16 * m, 0),
                     o2 = LLVMConstInt(c->i64, 16 * m + 8, 0);
        LLVMValueRef pv = LLVMBuildLoad2(b, c->ptr, LLVMBuildGEP2(b, c->i8, pairs, &o1, 1, ""), "");
        LLVMValueRef ps = LLVMBuildLoad2(b, c->ptr, LLVMBuildGEP2(b, c->i8, pairs, &o2, 1, ""), "");
        sh = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, v, pv, ""), ps, sh, "");
      }
      LLVMBuildStore(b, sh, shp[k]);
    }
    LLVMBuildRetVoid(b);
    free(shslot);
    *ncells = nlearn;
  }

  /* augd(args, tape): A as lt.ckpt.back runs it, right before R
   * (ckptdead.c), where the step's parameters are apart; or NULL */
  cb[5] = NULL;
  unsigned nptr = 0;
  for (unsigned p = 0; p < np; p++)
    nptr += lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(d->fn, p)));
  if (d->back && (d->apart_test || nptr < 2)) {
    cb[5] = callback(c, base, "augd", c->vd, p2, 2, b);
    n = load_args(c, b, d, LLVMGetParam(cb[5], 0), a, 1);
    a[n++] = LLVMGetParam(cb[5], 1);
    LLVMValueRef fn = cb[5];
    if (d->apart_test) {
      LLVMBasicBlockRef apart = LLVMAppendBasicBlockInContext(c->llctx, fn, "apart");
      LLVMBasicBlockRef whole = LLVMAppendBasicBlockInContext(c->llctx, fn, "whole");
      LLVMValueRef t = LLVMBuildCall2(b, LLVMGlobalGetValueType(d->apart_test), d->apart_test,
                                      a, np, "lt.apart");
      LLVMBuildCondBr(b, t, apart, whole);
      LLVMPositionBuilderAtEnd(b, whole);
      LLVMBuildCall2(b, LLVMGlobalGetValueType(d->aug), d->aug, a, n, "");
      LLVMBuildRetVoid(b);
      LLVMPositionBuilderAtEnd(b, apart);
    }
    LLVMBuildCall2(b, LLVMGlobalGetValueType(d->back), d->back, a, n, "");
    LLVMBuildRetVoid(b);
  }

  cb[3] = callback(c, base, "snap", c->i64, snp, 3, b);
  n = load_args(c, b, d, LLVMGetParam(cb[3], 0), a, 0);
  a[n++] = LLVMGetParam(cb[3], 1);
  a[n++] = LLVMGetParam(cb[3], 2);
  LLVMValueRef back = LLVMConstInt(c->i64, (unsigned long long)-ARGS, 1);
  a[n++] = LLVMBuildLoad2(b, c->i64, LLVMBuildGEP2(b, c->i8, LLVMGetParam(cb[3], 0), &back, 1, ""),
                          "lt.steps"); /* the context's T */
  LLVMBuildRet(b, LLVMBuildCall2(b, LLVMGlobalGetValueType(d->snap), d->snap, a, n, ""));
  LLVMDisposeBuilder(b);
  free(a);
}

/* The step loop's counter k and trip count T in P: the outlined loop ends
 * in br (k + 1 < T), or, online, in br (load of the step's "go on" cell)
 * with T null (prep/outline.c). */
static int counter_and_trips(LLVMValueRef call, LLVMValueRef *k, LLVMValueRef *T) {
  LLVMValueRef t = LLVMGetBasicBlockTerminator(LLVMGetInstructionParent(call));
  if (!t || !LLVMIsConditional(t))
    return 0;
  LLVMValueRef cmp = LLVMGetCondition(t);
  if (LLVMIsALoadInst(cmp)) {
    *k = LLVMGetFirstInstruction(LLVMGetInstructionParent(call));
    *T = NULL;
    return LLVMIsAPHINode(*k) && LLVMGetTypeKind(LLVMTypeOf(*k)) == LLVMIntegerTypeKind &&
           LLVMGetIntTypeWidth(LLVMTypeOf(*k)) == 64;
  }
  if (!LLVMIsAICmpInst(cmp))
    return 0;
  LLVMValueRef k1 = LLVMGetOperand(cmp, 0);
  if (!LLVMIsABinaryOperator(k1) || LLVMGetInstructionOpcode(k1) != LLVMAdd)
    return 0;
  *k = LLVMGetOperand(k1, 0);
  *T = LLVMGetOperand(cmp, 1);
  return LLVMIsAPHINode(*k) != NULL;
}

static LLVMValueRef in_a(LtGen *g, LLVMValueRef v) {
  LLVMValueRef m = lt_map_get(&g->fmap, v);
  return m ? m : v;
}

static LLVMTypeRef ckpt_fwd_type(LtCtx *c) {
  LLVMTypeRef p[12] = {c->ptr, c->i64, c->i64, c->ptr, c->ptr, c->ptr,
                       c->ptr, c->ptr, c->i64, c->i64, c->i64, c->i64};
  return LLVMFunctionType(c->ptr, p, 12, 0);
}

int lt_ckpt_forward(LtGen *g, LLVMBuilderRef b, LLVMValueRef call,
                    LLVMValueRef (*shadow)(LtGen *, LLVMValueRef)) {
  LtCtx *c = g->c;
  const LtDeriv *d = lt_map_get(&g->callee, call);
  LLVMValueRef ac = lt_map_get(&g->fmap, call), kP, TP;
  if (!counter_and_trips(call, &kP, &TP))
    return -1;
  LLVMValueRef get = lt_ckpt_rt(c, "lt.ckpt.get"), fwd = lt_ckpt_rt(c, "lt.ckpt.fwd");
  if (!get || !fwd)
    return -1;
  LLVMValueRef cb[6];
  unsigned ncells = 0;
  callbacks(g, d, cb, &ncells);
  /* the context's cell, null at A's entry */
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(g->A);
  LLVMPositionBuilderBefore(b, lt_first_non_phi(entry));
  LLVMValueRef cell = LLVMBuildAlloca(b, c->ptr, "lt.ckpt.cell");
  LLVMBuildStore(b, LLVMConstNull(c->ptr), cell);

  LLVMPositionBuilderBefore(b, ac);
  unsigned np = LLVMGetNumArgOperands(call), n = 0;
  LLVMValueRef *args = lt_xcalloc(2 * np + 1, sizeof *args);
  for (unsigned p = 0; p < np; p++)
    args[n++] = LLVMGetOperand(ac, p);
  for (unsigned p = 0; p < np; p++)
    if (lt_is_dup(d->act[p]))
      args[n++] = shadow(g, LLVMGetOperand(call, p));
  /* Split mode: A's frame is gone when R runs steps again, so A's own
   * stack memory the arguments point into (what the iterations carry,
   * prep/outline.c; at -O2 also a pointer into the middle of a local
   * array, passed beside it or alone) lives in the context, after the
   * arguments and sync's pairs, each alloca once, copied from A's before
   * each step and back after it; an argument into one points at the same
   * offset into its copy (fuzz --steps-var --scratch --split: a step's
   * pointer to tsc + 1 was left pointing into A's dead frame). */
  unsigned long long at = 8ull * n + 16 * ncells, *cat = lt_xcalloc(np + 1, sizeof *cat);
  unsigned long long *csz = lt_xcalloc(np + 1, sizeof *csz);
  LLVMValueRef *cell_of = lt_xcalloc(np + 1, sizeof *cell_of); /* the alloca */
  unsigned *cell_ix = lt_xcalloc(np + 1, sizeof *cell_ix), ncell = 0;
  for (unsigned p = 0; g->split && p < np; p++) {
    LLVMValueRef a = lt_is_ptr_ty(LLVMTypeOf(args[p])) ? lt_base_of(args[p]) : NULL;
    if (!a || !LLVMIsAAllocaInst(a) || !LLVMIsAConstantInt(LLVMGetOperand(a, 0)))
      continue;
    unsigned j = 0;
    while (j < ncell && cell_of[j] != a)
      j++;
    if (j == ncell) {
      cell_of[ncell] = a;
      csz[ncell] = LLVMABISizeOfType(c->td, LLVMGetAllocatedType(a)) *
                   LLVMConstIntGetZExtValue(LLVMGetOperand(a, 0));
      cat[ncell] = ((ARGS + at + 15) & ~15ull) - ARGS; /* the context is calloc's */
      at = cat[ncell] + csz[ncell];
      ncell++;
    }
    cell_ix[p] = j + 1;
  }
  LLVMTypeRef gt[2] = {c->ptr, c->i64};
  LLVMValueRef ga[2] = {cell, LLVMConstInt(c->i64, at, 0)};
  LLVMValueRef ctx = LLVMBuildCall2(b, LLVMFunctionType(c->ptr, gt, 2, 0), get, ga, 2,
                                    "lt.ckpt");
  LLVMValueRef *copy = lt_xcalloc(ncell + 1, sizeof *copy);
  for (unsigned j = 0; j < ncell; j++) {
    LLVMValueRef co = LLVMConstInt(c->i64, ARGS + cat[j], 0);
    copy[j] = LLVMBuildGEP2(b, c->i8, ctx, &co, 1, "lt.ckpt.cell");
    LLVMBuildMemCpy(b, copy[j], 16, cell_of[j], LLVMGetAlignment(cell_of[j]),
                    LLVMConstInt(c->i64, csz[j], 0));
  }
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef off = LLVMConstInt(c->i64, ARGS + 8 * k, 0), v = args[k];
    if (k < np && cell_ix[k]) {
      unsigned j = cell_ix[k] - 1;
      LLVMValueRef d = LLVMBuildSub(b, LLVMBuildPtrToInt(b, v, c->i64, ""),
                                    LLVMBuildPtrToInt(b, cell_of[j], c->i64, ""), "");
      v = LLVMBuildGEP2(b, c->i8, copy[j], &d, 1, "lt.ckpt.arg");
    }
    LLVMBuildStore(b, v, LLVMBuildGEP2(b, c->i8, ctx, &off, 1, ""));
  }
  {
    LLVMValueRef off = LLVMConstInt(c->i64, ARGS - 8, 0);
    LLVMBuildStore(b, cb[5] ? cb[5] : LLVMConstNull(c->ptr),
                   LLVMBuildGEP2(b, c->i8, ctx, &off, 1, ""));
  }
  long long kslot = -1;
  for (unsigned p = 0; p < np; p++)
    if (LLVMGetStringAttributeAtIndex(d->fn, p + 1, "leantape-step", 13))
      kslot = 8 * p;
  LLVMValueRef fa[12] = {ctx,
                         in_a(g, kP),
                         TP ? LLVMBuildZExt(b, in_a(g, TP), c->i64, "")
                            : LLVMConstAllOnes(c->i64), /* online */
                         cb[0],
                         cb[1],
                         cb[2],
                         cb[3],
                         cb[4],
                         LLVMConstInt(c->i64, 8 * (d->nouts ? d->nouts : 1), 0),
                         LLVMConstInt(c->i64, d->tape_size ? d->tape_size : 1, 0),
                         LLVMConstInt(c->i64, (unsigned long long)g->budget, 0),
                         LLVMConstInt(c->i64, (unsigned long long)kslot, 1)};
  LLVMValueRef tp = LLVMBuildCall2(b, ckpt_fwd_type(c), fwd, fa, 12, "lt.ckpt.tape");
  LLVMInstructionSetDebugLoc(tp, LLVMInstructionGetDebugLoc(ac));
  for (unsigned j = 0; j < ncell; j++) {
    LLVMValueRef co = LLVMConstInt(c->i64, ARGS + cat[j], 0);
    LLVMBuildMemCpy(b, cell_of[j], LLVMGetAlignment(cell_of[j]),
                    LLVMBuildGEP2(b, c->i8, ctx, &co, 1, ""), 16,
                    LLVMConstInt(c->i64, csz[j], 0));
  }
  free(args);
  free(cat);
  free(csz);
  free(cell_of);
  free(cell_ix);
  free(copy);
  lt_map_put(&g->ckpt_ctx, call, ctx);
  lt_map_put(&g->ckpt_tape, call, tp);
  LLVMInstructionEraseFromParent(ac);
  lt_map_put(&g->fmap, call, NULL);
  return 0;
}

int lt_ckpt_reverse(LtGen *g, LLVMValueRef call) {
  LtCtx *c = g->c;
  const LtDeriv *d = lt_map_get(&g->callee, call);
  LLVMValueRef kP, TP;
  LLVMValueRef rev = lt_ckpt_rt(c, "lt.ckpt.rev");
  if (!rev || !counter_and_trips(call, &kP, &TP))
    return -1;
  LLVMValueRef ctx = lt_tape_load(g, LT_SLOT_CKPT, call, c->ptr);
  LLVMValueRef tp = lt_tape_load(g, LT_SLOT_CKPTTAPE, call, c->ptr);
  LLVMTypeRef at = LLVMArrayType2(c->i64, d->nouts ? d->nouts : 1);
  LLVMBuilderRef eb = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(eb, lt_first_non_phi(LLVMGetEntryBasicBlock(g->R)));
  LLVMValueRef outs = LLVMBuildAlloca(eb, at, "lt.ckpt.outs");
  LLVMDisposeBuilder(eb);
  LLVMTypeRef pt[4] = {c->ptr, c->i64, c->ptr, c->ptr};
  LLVMValueRef ra[4] = {ctx, lt_rv(g, kP), tp, outs};
  LLVMBuildCall2(g->b, LLVMFunctionType(c->vd, pt, 4, 0), rev, ra, 4, "");
  LLVMTypeRef ft = LLVMGlobalGetValueType(d->fn);
  unsigned np = LLVMCountParamTypes(ft);
  LLVMTypeRef *ptys = lt_xcalloc(np + 1, sizeof *ptys);
  LLVMGetParamTypes(ft, ptys);
  for (unsigned p = 0, k = 0; p < np; p++) {
    if (d->act[p] != LT_OUT)
      continue;
    LLVMValueRef off = LLVMConstInt(c->i64, 8 * k++, 0);
    LLVMValueRef v = LLVMBuildLoad2(g->b, ptys[p], LLVMBuildGEP2(g->b, c->i8, outs, &off, 1, ""),
                                    "");
    lt_adj_add(g, LLVMGetOperand(call, p), v);
  }
  free(ptys);
  return 0;
}
