/* undo.c: the undo log of overwritten memory (combined mode).
 *
 * A load whose memory only logged stores may change after it is re-read
 * by the reverse pass instead of taped (overwrite.c decides which), the
 * classic to-be-recorded scheme of source-transformation AD: before a
 * logged store the forward pass saves the address and the old value; when
 * the reverse pass passes the store it puts the old value back, so memory
 * then holds what the load read. The restore swaps (the entry keeps the
 * value the store wrote), and when the reverse pass is done the entries
 * are replayed forwards, which leaves memory as the primal left it. One
 * entry is 24 bytes {address, size, value}, in a buffer allocated once at
 * A's entry when the logged stores' execution counts are computable there
 * (trip counts), else grown geometrically; the entries of stores in a
 * triangular nest are reserved before the nest from its exact count of
 * iterations instead (the largest trip counts overshoot there). The log is
 * O(logged stores), the alternative to taping O(loads).
 *
 * State, an alloca in A and in R: {ptr log, i64 count, i64 on, i64 total,
 * i64 capacity, ptr base}. Under __enzyme_autodiff a log allocated at
 * entry comes from the last-in first-out arena (arena.c) with the loops'
 * caches, one chunk for all of them from the second gradient on: base is
 * that block (null: the log is malloc's, or none); a log that outgrows it
 * moves to malloc, and R pops the arena back to base when done.
 * A passes log, count and base to R in the tape header. In A, `on` is the run
 * time test of overwrite.c's pairs (range.c: may a logged store touch what
 * a re-read load reads?), 1 when a range is not computable; nothing is
 * logged when it is 0, the usual case of arrays that do not overlap. R is
 * on when A logged anything.
 * The helpers are internal functions: the branch on `on` stays out of
 * the loops' code.
 */
#include "lt.h"

#include <stdlib.h>

#define ENTRY 24
#define BLOCK (1ull << 62) /* the entry's size: its value points to a block */
#define RUN (1ull << 61)   /* the entry's size: a run entry (undoblock.c),
                              its value saved before its loop */

static LLVMTypeRef state_ty(LtCtx *c) {
  LLVMTypeRef f[6] = {c->ptr, c->i64, c->i64, c->i64, c->i64, c->ptr};
  return LLVMStructTypeInContext(c->llctx, f, 6, 0);
}

static LLVMValueRef field(LtCtx *c, LLVMBuilderRef b, LLVMValueRef st, unsigned k) {
  return LLVMBuildStructGEP2(b, state_ty(c), st, k, "");
}

static LLVMValueRef at(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, unsigned long long off) {
  LLVMValueRef o = LLVMConstInt(c->i64, off, 0);
  return LLVMBuildGEP2(b, c->i8, p, &o, 1, "");
}

static void copy(LtCtx *c, LLVMBuilderRef b, LLVMValueRef dst, LLVMValueRef src,
                 LLVMValueRef n) {
  (void)c;
  LLVMBuildMemCpy(b, dst, 1, src, 1, n);
}

/* The helper `name` (ptr %state, ...), defined once: its entry returns
 * when the log is off, else branches to its block "on", which fill fills
 * (the builder stands there). */
static LLVMValueRef helper(LtCtx *c, const char *name, LLVMTypeRef *pt, unsigned np,
                           void (*fill)(LtCtx *, LLVMBuilderRef, LLVMValueRef)) {
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, name, LLVMFunctionType(c->vd, pt, np, 0), &e);
  if (!e)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->llctx, f, "on");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef st = LLVMGetParam(f, 0);
  LLVMValueRef on = LLVMBuildLoad2(b, c->i64, field(c, b, st, 2), "on");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, on, LLVMConstInt(c->i64, 0, 0), ""),
                  body, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMPositionBuilderAtEnd(b, body);
  fill(c, b, f);
  LLVMDisposeBuilder(b);
  return f;
}

/* The log's memory grown to `bytes` (old: `used` bytes in it): realloc,
 * or, while it is the arena's block (base), a malloc and a copy. */
static LLVMValueRef regrow(LtCtx *c, LLVMBuilderRef b, LLVMValueRef st, LLVMValueRef bytes,
                           LLVMValueRef used) {
  LLVMValueRef log = LLVMBuildLoad2(b, c->ptr, field(c, b, st, 0), "");
  LLVMValueRef base = LLVMBuildLoad2(b, c->ptr, field(c, b, st, 5), "");
  LLVMTypeRef rt[2] = {c->ptr, c->i64};
  LLVMTypeRef rfty = LLVMFunctionType(c->ptr, rt, 2, 0);
  LLVMValueRef inarena = LLVMBuildICmp(b, LLVMIntEQ, log, base, "");
  /* realloc(NULL or the malloc'd log) unless in the arena: then realloc
   * of NULL, a fresh block, and the entries copied over */
  LLVMValueRef ra[2] = {LLVMBuildSelect(b, inarena, LLVMConstNull(c->ptr), log, ""), bytes};
  LLVMValueRef nl = LLVMBuildCall2(b, rfty, lt_decl_fn(c->mod, "realloc", rfty), ra, 2, "");
  LLVMValueRef n = LLVMBuildSelect(b, inarena, used, LLVMConstInt(c->i64, 0, 0), "");
  LLVMBuildMemCpy(b, nl, 1, log, 1, n);
  return nl;
}

/* The next entry of the log (its count raised), grown first when full
 * (or never preallocated): doubled, 16 entries at least. The builder
 * stands in helper f's "on" block. */
static LLVMValueRef next_entry(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef st) {
  LLVMValueRef k = LLVMBuildLoad2(b, c->i64, field(c, b, st, 1), "k");
  LLVMValueRef cap = LLVMBuildLoad2(b, c->i64, field(c, b, st, 4), "cap");
  LLVMBasicBlockRef grow = LLVMAppendBasicBlockInContext(c->llctx, f, "grow");
  LLVMBasicBlockRef put = LLVMAppendBasicBlockInContext(c->llctx, f, "put");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGE, k, cap, ""), grow, put);
  LLVMPositionBuilderAtEnd(b, grow);
  LLVMValueRef two = LLVMBuildShl(b, cap, LLVMConstInt(c->i64, 1, 0), "");
  LLVMValueRef ncap = LLVMBuildSelect(
      b, LLVMBuildICmp(b, LLVMIntULT, two, LLVMConstInt(c->i64, 16, 0), ""),
      LLVMConstInt(c->i64, 16, 0), two, "");
  LLVMValueRef nl = regrow(c, b, st, LLVMBuildMul(b, ncap, LLVMConstInt(c->i64, ENTRY, 0), ""),
                           LLVMBuildMul(b, k, LLVMConstInt(c->i64, ENTRY, 0), ""));
  LLVMBuildStore(b, nl, field(c, b, st, 0));
  LLVMBuildStore(b, ncap, field(c, b, st, 4));
  LLVMBuildBr(b, put);
  LLVMPositionBuilderAtEnd(b, put);
  LLVMValueRef log = LLVMBuildLoad2(b, c->ptr, field(c, b, st, 0), "log");
  LLVMValueRef off = LLVMBuildMul(b, k, LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMBuildStore(b, LLVMBuildAdd(b, k, LLVMConstInt(c->i64, 1, 0), ""), field(c, b, st, 1));
  return LLVMBuildGEP2(b, c->i8, log, &off, 1, "e");
}

/* {addr, size | flag, *addr}, appended. */
static void save_entry(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, unsigned long long flag) {
  LLVMValueRef st = LLVMGetParam(f, 0), addr = LLVMGetParam(f, 1), n = LLVMGetParam(f, 2);
  LLVMValueRef e = next_entry(c, b, f, st);
  LLVMBuildStore(b, addr, e);
  LLVMBuildStore(b, flag ? LLVMBuildOr(b, n, LLVMConstInt(c->i64, flag, 0), "") : n,
                 at(c, b, e, 8));
  copy(c, b, at(c, b, e, 16), addr, n);
  LLVMBuildRetVoid(b);
}

/* lt.undo.save(state, addr, size): append {addr, size, *addr}. */
static void fill_save(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) { save_entry(c, b, f, 0); }

/* lt.undo.run(state, addr, size): a run entry (size 0: an empty one). */
static void fill_run(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) { save_entry(c, b, f, RUN); }

/* lt.undo.block(state, addr, n): append {addr, n | BLOCK, block}, the
 * block a copy of the n bytes at addr (undoblock.c). */
static void fill_block(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  LLVMValueRef st = LLVMGetParam(f, 0), addr = LLVMGetParam(f, 1), n = LLVMGetParam(f, 2);
  LLVMValueRef e = next_entry(c, b, f, st);
  LLVMValueRef blk = lt_build_malloc(b, c->mod, n);
  copy(c, b, blk, addr, n);
  LLVMBuildStore(b, addr, e);
  LLVMBuildStore(b, LLVMBuildOr(b, n, LLVMConstInt(c->i64, BLOCK, 0), ""), at(c, b, e, 8));
  LLVMBuildStore(b, blk, at(c, b, e, 16));
  LLVMBuildRetVoid(b);
}

static LLVMValueRef block_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  return helper(c, "lt.undo.block", pt, 3, fill_block);
}

static LLVMValueRef save_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  return helper(c, "lt.undo.save", pt, 3, fill_save);
}

static LLVMValueRef run_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  return helper(c, "lt.undo.run", pt, 3, fill_run);
}

/* Swap the n bytes at p and q (a block entry's restore): words of 8
 * bytes, then the bytes left. Ends in a block of f, the builder there. */
static void swap(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef p, LLVMValueRef q,
                 LLVMValueRef n) {
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), one = LLVMConstInt(c->i64, 1, 0);
  LLVMValueRef words = LLVMBuildLShr(b, n, LLVMConstInt(c->i64, 3, 0), "words");
  LLVMValueRef tail = LLVMBuildShl(b, words, LLVMConstInt(c->i64, 3, 0), "");
  for (int pass = 0; pass < 2; pass++) {
    LLVMTypeRef t = pass ? c->i8 : c->i64;
    LLVMValueRef from = pass ? tail : zero, to = pass ? n : words;
    LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
    LLVMBasicBlockRef head = LLVMAppendBasicBlockInContext(c->llctx, f, "swap");
    LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->llctx, f, "swap.body");
    LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "swap.done");
    LLVMBuildBr(b, head);
    LLVMPositionBuilderAtEnd(b, head);
    LLVMValueRef j = LLVMBuildPhi(b, c->i64, "j");
    LLVMAddIncoming(j, &from, &pre, 1);
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, j, to, ""), body, done);
    LLVMPositionBuilderAtEnd(b, body);
    LLVMValueRef pp = LLVMBuildGEP2(b, t, p, &j, 1, ""), qq = LLVMBuildGEP2(b, t, q, &j, 1, "");
    LLVMValueRef x = LLVMBuildLoad2(b, t, pp, ""), y = LLVMBuildLoad2(b, t, qq, "");
    LLVMSetAlignment(x, 1);
    LLVMSetAlignment(y, 1);
    LLVMSetAlignment(LLVMBuildStore(b, y, pp), 1);
    LLVMSetAlignment(LLVMBuildStore(b, x, qq), 1);
    LLVMValueRef j1 = LLVMBuildAdd(b, j, one, "");
    LLVMAddIncoming(j, &j1, &body, 1);
    LLVMBuildBr(b, head);
    LLVMPositionBuilderAtEnd(b, done);
  }
}

/* lt.undo.restore(state): pop the last entry, swapping memory and entry
 * (or the entry's block). */
static void fill_restore(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  LLVMValueRef st = LLVMGetParam(f, 0);
  LLVMBasicBlockRef body = LLVMGetInsertBlock(b);
  LLVMValueRef tmp;
  {
    LLVMBuilderRef eb = LLVMCreateBuilderInContext(c->llctx);
    LLVMPositionBuilderBefore(eb, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(f)));
    tmp = lt_build_slot(eb, c->i64, 0, "tmp");
    LLVMDisposeBuilder(eb);
  }
  LLVMPositionBuilderAtEnd(b, body);
  LLVMValueRef k = LLVMBuildSub(b, LLVMBuildLoad2(b, c->i64, field(c, b, st, 1), ""),
                                LLVMConstInt(c->i64, 1, 0), "k");
  LLVMBuildStore(b, k, field(c, b, st, 1));
  LLVMValueRef off = LLVMBuildMul(b, k, LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef e = LLVMBuildGEP2(b, c->i8, LLVMBuildLoad2(b, c->ptr, field(c, b, st, 0), ""),
                                 &off, 1, "e");
  LLVMValueRef addr = LLVMBuildLoad2(b, c->ptr, e, "addr");
  LLVMValueRef n = LLVMBuildLoad2(b, c->i64, at(c, b, e, 8), "n");
  LLVMBasicBlockRef one = LLVMAppendBasicBlockInContext(c->llctx, f, "value");
  LLVMBasicBlockRef blk = LLVMAppendBasicBlockInContext(c->llctx, f, "block");
  LLVMValueRef isblk = LLVMBuildICmp(
      b, LLVMIntNE, LLVMBuildAnd(b, n, LLVMConstInt(c->i64, BLOCK, 0), ""),
      LLVMConstInt(c->i64, 0, 0), "");
  LLVMBuildCondBr(b, isblk, blk, one);
  LLVMPositionBuilderAtEnd(b, one);
  LLVMValueRef nv = LLVMBuildAnd(b, n, LLVMConstInt(c->i64, ~RUN, 0), "");
  copy(c, b, tmp, addr, nv);
  copy(c, b, addr, at(c, b, e, 16), nv);
  copy(c, b, at(c, b, e, 16), tmp, nv);
  LLVMBuildRetVoid(b);
  LLVMPositionBuilderAtEnd(b, blk);
  swap(c, b, f, addr, LLVMBuildLoad2(b, c->ptr, at(c, b, e, 16), "blk"),
       LLVMBuildAnd(b, n, LLVMConstInt(c->i64, ~BLOCK, 0), ""));
  LLVMBuildRetVoid(b);
}

static LLVMValueRef restore_fn(LtCtx *c) {
  LLVMTypeRef pt[1] = {c->ptr};
  return helper(c, "lt.undo.restore", pt, 1, fill_restore);
}

/* lt.undo.restore.run(state): a restore in a loop of run entries, which
 * leaves a run entry on top alone (A skipped the loop's saves). */
static void fill_restore_run(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  LLVMValueRef st = LLVMGetParam(f, 0);
  LLVMValueRef k = LLVMBuildSub(b, LLVMBuildLoad2(b, c->i64, field(c, b, st, 1), ""),
                                LLVMConstInt(c->i64, 1, 0), "k");
  LLVMValueRef off = LLVMBuildMul(b, k, LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef e = LLVMBuildGEP2(b, c->i8, LLVMBuildLoad2(b, c->ptr, field(c, b, st, 0), ""),
                                 &off, 1, "e");
  LLVMValueRef n = LLVMBuildLoad2(b, c->i64, at(c, b, e, 8), "n");
  LLVMBasicBlockRef pop = LLVMAppendBasicBlockInContext(c->llctx, f, "pop");
  LLVMBasicBlockRef keep = LLVMAppendBasicBlockInContext(c->llctx, f, "keep");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, n, LLVMConstInt(c->i64, RUN, 0), ""),
                                   LLVMConstInt(c->i64, 0, 0), ""),
                  keep, pop);
  LLVMPositionBuilderAtEnd(b, keep);
  LLVMBuildRetVoid(b);
  LLVMPositionBuilderAtEnd(b, pop);
  LLVMValueRef r = restore_fn(c);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(r), r, &st, 1, "");
  LLVMBuildRetVoid(b);
}

static LLVMValueRef restore_run_fn(LtCtx *c) {
  LLVMTypeRef pt[1] = {c->ptr};
  return helper(c, "lt.undo.restore.run", pt, 1, fill_restore_run);
}

/* i1 lt.undo.top.run(state): the log is on and its last entry is a run
 * entry (R entering the reverse of a loop of run entries: then its
 * restores there do nothing, and R skips them). */
static LLVMValueRef top_run_fn(LtCtx *c) {
  LLVMBasicBlockRef e;
  LLVMTypeRef pt[1] = {c->ptr};
  LLVMValueRef f = lt_helper_fn(c, "lt.undo.top.run", LLVMFunctionType(c->i1, pt, 1, 0), &e);
  if (!e)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef peek = LLVMAppendBasicBlockInContext(c->llctx, f, "peek");
  LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(c->llctx, f, "no");
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef st = LLVMGetParam(f, 0);
  LLVMValueRef on = LLVMBuildLoad2(b, c->i64, field(c, b, st, 2), "on");
  LLVMValueRef k = LLVMBuildLoad2(b, c->i64, field(c, b, st, 1), "count");
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0);
  LLVMBuildCondBr(b, LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, on, zero, ""),
                                  LLVMBuildICmp(b, LLVMIntNE, k, zero, ""), ""),
                  peek, no);
  LLVMPositionBuilderAtEnd(b, no);
  LLVMBuildRet(b, LLVMConstInt(c->i1, 0, 0));
  LLVMPositionBuilderAtEnd(b, peek);
  LLVMValueRef off = LLVMBuildMul(b, LLVMBuildSub(b, k, LLVMConstInt(c->i64, 1, 0), ""),
                                  LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef en = LLVMBuildGEP2(b, c->i8, LLVMBuildLoad2(b, c->ptr, field(c, b, st, 0), ""),
                                  &off, 1, "e");
  LLVMValueRef n = LLVMBuildLoad2(b, c->i64, at(c, b, en, 8), "n");
  LLVMBuildRet(b, LLVMBuildICmp(b, LLVMIntNE,
                                LLVMBuildAnd(b, n, LLVMConstInt(c->i64, RUN, 0), ""), zero, ""));
  LLVMDisposeBuilder(b);
  return f;
}

/* The call runs only when cond is `when`: its own block, behind a branch
 * on cond. */
static void behind(LtCtx *c, LLVMBuilderRef b, LLVMValueRef call, LLVMValueRef cond, int when) {
  LLVMBasicBlockRef pre = lt_split_before(c->llctx, call);
  LLVMValueRef next = LLVMGetNextInstruction(call);
  LLVMBasicBlockRef in = lt_split_before(c->llctx, next);
  LLVMBasicBlockRef rest = LLVMGetInstructionParent(next);
  LLVMPositionBuilderAtEnd(b, pre);
  LLVMBuildCondBr(b, cond, when ? in : rest, when ? rest : in);
  LLVMPositionBuilderAtEnd(b, in);
  LLVMBuildBr(b, rest);
}

/* Where R enters the reverse of run loop l, once per run (its one exit's
 * block, undo_enter), a flag: the run entry is on top; R's restores in l
 * are the plain ones behind it (a branch on an invariant, not a call per
 * iteration). Without that one place, the restores stay
 * lt.undo.restore.run. */
static void run_flag(LtGen *g, unsigned l) {
  LtCtx *c = g->c;
  const LtLoop *L = &g->loops.loop[l];
  LLVMValueRef enter = NULL;
  int n = 0;
  for (size_t k = 0; k < g->undo_enter.n; k += 2)
    if ((size_t)g->undo_enter.v[k] == l + 1) {
      enter = g->undo_enter.v[k + 1];
      n++;
    }
  if (n != 1 || L->nexits != 1)
    return;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(g->R)));
  LLVMValueRef slot = LLVMBuildAlloca(b, c->i1, "lt.undo.runtop");
  LLVMBuildStore(b, LLVMConstInt(c->i1, 0, 0), slot);
  LLVMPositionBuilderBefore(b, enter);
  LLVMValueRef tf = top_run_fn(c);
  LLVMBuildStore(b, LLVMBuildCall2(b, LLVMGlobalGetValueType(tf), tf, &g->r_undo, 1, ""), slot);
  LLVMValueRef rr = restore_run_fn(c), rf = restore_fn(c);
  for (size_t k = 0; k < g->undo_calls.n; k += 2) {
    LLVMValueRef call = g->undo_calls.v[k + 1];
    if ((size_t)lt_map_get(&g->undo_run, g->undo_calls.v[k]) != l + 1 ||
        LLVMGetCalledValue(call) != rr)
      continue;
    LLVMPositionBuilderBefore(b, call);
    LLVMValueRef top = LLVMBuildLoad2(b, c->i1, slot, "");
    LLVMValueRef nc = LLVMBuildCall2(b, LLVMGlobalGetValueType(rf), rf, &g->r_undo, 1, "");
    LLVMInstructionEraseFromParent(call);
    g->undo_calls.v[k + 1] = nc;
    behind(c, b, nc, top, 0);
  }
  LLVMDisposeBuilder(b);
}

/* lt.undo.finish(state): replay every entry forwards, free the log. */
static void fill_finish(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  LLVMValueRef st = LLVMGetParam(f, 0);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->llctx, f, "replay");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->llctx, f, "entry.replay");
  LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(c->llctx, f, "free");
  LLVMValueRef log = LLVMBuildLoad2(b, c->ptr, field(c, b, st, 0), "log");
  LLVMValueRef total = LLVMBuildLoad2(b, c->i64, field(c, b, st, 3), "total");
  LLVMBuildBr(b, loop);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef j = LLVMBuildPhi(b, c->i64, "j");
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0);
  LLVMAddIncoming(j, &zero, &pre, 1);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, j, total, ""), body, end);
  LLVMPositionBuilderAtEnd(b, body);
  LLVMValueRef off = LLVMBuildMul(b, j, LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef e = LLVMBuildGEP2(b, c->i8, log, &off, 1, "e");
  LLVMValueRef addr = LLVMBuildLoad2(b, c->ptr, e, "");
  LLVMValueRef n = LLVMBuildLoad2(b, c->i64, at(c, b, e, 8), "");
  LLVMBasicBlockRef one = LLVMAppendBasicBlockInContext(c->llctx, f, "value");
  LLVMBasicBlockRef blk = LLVMAppendBasicBlockInContext(c->llctx, f, "block");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(c->llctx, f, "next");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE,
                                   LLVMBuildAnd(b, n, LLVMConstInt(c->i64, BLOCK, 0), ""),
                                   LLVMConstInt(c->i64, 0, 0), ""),
                  blk, one);
  LLVMPositionBuilderAtEnd(b, one);
  copy(c, b, addr, at(c, b, e, 16), LLVMBuildAnd(b, n, LLVMConstInt(c->i64, ~RUN, 0), ""));
  LLVMBuildBr(b, next);
  /* a block: copied back, then freed */
  LLVMPositionBuilderAtEnd(b, blk);
  LLVMValueRef bp = LLVMBuildLoad2(b, c->ptr, at(c, b, e, 16), "");
  copy(c, b, addr, bp, LLVMBuildAnd(b, n, LLVMConstInt(c->i64, ~BLOCK, 0), ""));
  lt_build_free(b, c->mod, bp);
  LLVMBuildBr(b, next);
  LLVMPositionBuilderAtEnd(b, next);
  LLVMValueRef j1 = LLVMBuildAdd(b, j, LLVMConstInt(c->i64, 1, 0), "");
  LLVMAddIncoming(j, &j1, &next, 1);
  LLVMBuildBr(b, loop);
  LLVMPositionBuilderAtEnd(b, end);
  /* the log: malloc's, or the arena's block (popped, and what follows) */
  LLVMValueRef base = LLVMBuildLoad2(b, c->ptr, field(c, b, st, 5), "base");
  LLVMBasicBlockRef heap = LLVMAppendBasicBlockInContext(c->llctx, f, "heap");
  LLVMBasicBlockRef arena = LLVMAppendBasicBlockInContext(c->llctx, f, "arena");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "freed");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, log, base, ""), heap, arena);
  LLVMPositionBuilderAtEnd(b, heap);
  lt_build_free(b, c->mod, log);
  LLVMBuildBr(b, arena);
  LLVMPositionBuilderAtEnd(b, arena);
  LLVMBasicBlockRef pop = LLVMAppendBasicBlockInContext(c->llctx, f, "pop");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, base, LLVMConstNull(c->ptr), ""), pop, done);
  LLVMPositionBuilderAtEnd(b, pop);
  lt_arena_pop(c, b, base);
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
}

static LLVMValueRef finish_fn(LtCtx *c) {
  LLVMTypeRef pt[1] = {c->ptr};
  return helper(c, "lt.undo.finish", pt, 1, fill_finish);
}

static LLVMValueRef new_state(LtCtx *c, LLVMValueRef fn) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
  LLVMValueRef st = lt_build_slot(b, state_ty(c), 0, "lt.undo");
  LLVMDisposeBuilder(b);
  return st;
}

void lt_undo_reverse_store(LtGen *g, LLVMValueRef store) {
  if (g->split || !lt_map_get(&g->ow.store_class, store) ||
      !lt_map_get(&g->fmap, store))
    return; /* not a candidate for logging, or not in A (dupnoneed) */
  if (!g->r_undo)
    g->r_undo = new_state(g->c, g->R);
  LLVMValueRef f = restore_fn(g->c);
  LLVMValueRef call = LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, &g->r_undo, 1, "");
  lt_vec_push(&g->undo_calls, store);
  lt_vec_push(&g->undo_calls, call);
}

void lt_undo_note_reload(LtGen *g, LLVMValueRef load) {
  if (!lt_map_get(&g->undo_loads, load)) {
    lt_map_put(&g->undo_loads, load, (void *)1);
    lt_vec_push(&g->undo_order, load);
  }
}

/* The logged classes: those of the loads R re-read through the log. */
static void needed(LtGen *g, LtMap *need) {
  for (size_t k = 0; k < g->undo_order.n; k++) {
    LtVec *lists = lt_map_get(&g->ow.cand, g->undo_order.v[k]);
    for (size_t j = 0; lists && j < lists->n; j++)
      lt_map_put(need, lists->v[j], (void *)1);
  }
}

void lt_undo_reverse_finish(LtGen *g) {
  if (!g->r_undo)
    return;
  LtCtx *c = g->c;
  lt_map_init(&g->undo_need, 16);
  lt_map_init(&g->undo_block, 16);
  needed(g, &g->undo_need);
  /* restores of stores nobody needs logged go; all of them, if none is */
  for (size_t k = 0; k < g->undo_calls.n; k += 2)
    if (!lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, g->undo_calls.v[k])))
      LLVMInstructionEraseFromParent(g->undo_calls.v[k + 1]);
  if (!g->undo_order.n) {
    LLVMInstructionEraseFromParent(g->r_undo);
    g->r_undo = NULL;
    return;
  }
  /* stores logged as blocks (undoblock.c): their restores go, and one
   * restore per block where R leaves their loop; stores logged by runs:
   * their restores leave a run entry alone, and one restore per run */
  lt_map_init(&g->undo_run, 16);
  lt_map_init(&g->undo_apart, 16);
  for (size_t k = 0; k < g->undo_calls.n; k += 2) {
    LLVMValueRef st = g->undo_calls.v[k];
    int need = lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, st)) != NULL;
    int l = need ? lt_undo_block_loop(g, st) : -1, run = 0;
    if (l < 0 && need && (l = lt_undo_run_loop(g, st)) >= 0)
      run = 1;
    if (l < 0)
      continue;
    LLVMBuilderRef rb = LLVMCreateBuilderInContext(c->llctx);
    LLVMValueRef rf = restore_fn(c);
    if (run) {
      LLVMValueRef rr = restore_run_fn(c);
      LLVMPositionBuilderBefore(rb, g->undo_calls.v[k + 1]);
      LLVMValueRef call = LLVMBuildCall2(rb, LLVMGlobalGetValueType(rr), rr, &g->r_undo, 1, "");
      LLVMInstructionEraseFromParent(g->undo_calls.v[k + 1]);
      g->undo_calls.v[k + 1] = call;
      lt_map_put(&g->undo_run, st, (void *)(size_t)(l + 1));
    } else {
      LLVMInstructionEraseFromParent(g->undo_calls.v[k + 1]);
      lt_map_put(&g->undo_block, st, (void *)(size_t)(l + 1));
    }
    if (!run || !lt_map_get(&g->undo_apart, (void *)(size_t)(l + 1))) {
      if (run) /* marks the loop's restore as placed; A's apart replaces it */
        lt_map_put(&g->undo_apart, (void *)(size_t)(l + 1), (void *)1);
      LLVMPositionBuilderBefore(rb, LLVMGetFirstInstruction(g->r_enter[l]));
      LLVMBuildCall2(rb, LLVMGlobalGetValueType(rf), rf, &g->r_undo, 1, "");
    }
    LLVMDisposeBuilder(rb);
  }
  for (size_t k = 0; k < g->undo_calls.n; k += 2) {
    size_t rl = (size_t)lt_map_get(&g->undo_run, g->undo_calls.v[k]);
    if (rl && lt_map_get(&g->undo_apart, (void *)rl) == (void *)1) {
      lt_map_put(&g->undo_apart, (void *)rl, (void *)2); /* flagged */
      run_flag(g, (unsigned)rl - 1);
    }
  }
  /* R's state: the log and its count from the tape; on when A logged */
  LLVMValueRef log = lt_tape_load(g, LT_SLOT_UNDOLOG, g->P, c->ptr);
  LLVMValueRef n = lt_tape_load(g, LT_SLOT_UNDOCOUNT, g->P, c->i64);
  LLVMValueRef base = lt_tape_load(g, LT_SLOT_UNDOBASE, g->P, c->ptr);
  LLVMBuildStore(g->eb, base, field(c, g->eb, g->r_undo, 5));
  LLVMBuildStore(g->eb, log, field(c, g->eb, g->r_undo, 0));
  LLVMBuildStore(g->eb, n, field(c, g->eb, g->r_undo, 1));
  LLVMValueRef on = LLVMBuildICmp(g->eb, LLVMIntNE, log, LLVMConstNull(c->ptr), "");
  g->r_undo_on = on;
  LLVMBuildStore(g->eb, LLVMBuildZExt(g->eb, on, c->i64, ""), field(c, g->eb, g->r_undo, 2));
  LLVMBuildStore(g->eb, n, field(c, g->eb, g->r_undo, 3));
  LLVMValueRef f = finish_fn(c);
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, &g->r_undo, 1, "");
}

/* A's `on`: may a logged store touch what a load re-read through the log
 * reads? One test per logged class against the loads it may alias (1
 * when a range is not computable). */
static LLVMValueRef undo_on(LtGen *g, LLVMBuilderRef b) {
  LtCtx *c = g->c;
  LLVMValueRef on = g->ow.runtime ? LLVMConstInt(c->i1, 0, 0) : NULL;
  LtMap seen;
  lt_map_init(&seen, 16);
  for (size_t k = 0; on && k < g->undo_order.n; k++) {
    LtVec *lists = lt_map_get(&g->ow.cand, g->undo_order.v[k]);
    for (size_t j = 0; on && lists && j < lists->n; j++) {
      LtVec *w = lists->v[j];
      if (lt_map_get(&seen, w))
        continue;
      lt_map_put(&seen, w, (void *)1);
      LtVec r = {0}; /* the re-read loads this class may write under */
      for (size_t q = 0; q < g->undo_order.n; q++) {
        LtVec *lq = lt_map_get(&g->ow.cand, g->undo_order.v[q]);
        for (size_t t = 0; lq && t < lq->n; t++)
          if (lq->v[t] == w) {
            lt_vec_push(&r, g->undo_order.v[q]);
            lt_vec_push(&r, LLVMGetOperand(g->undo_order.v[q], 0));
            break;
          }
      }
      LLVMValueRef o = lt_range_overlap(&g->fx, g->A, b, (LLVMValueRef *)w->v, w->n,
                                        (LLVMValueRef *)r.v, r.n);
      lt_vec_free(&r);
      on = o ? LLVMBuildOr(b, on, o, "") : NULL;
    }
  }
  lt_map_free(&seen);
  return on ? LLVMBuildZExt(b, on, c->i64, "lt.undo.on") : LLVMConstInt(c->i64, 1, 0);
}

/* lt.undo.begin(state, n): the whole log of n entries, when on; from
 * the arena in lt.undo.begin.arena. */
static void begin_log(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, int arena) {
  LLVMValueRef st = LLVMGetParam(f, 0), n = LLVMGetParam(f, 1);
  LLVMValueRef sz = LLVMBuildMul(b, n, LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef log = arena ? lt_arena_push(c, b, sz) : lt_build_malloc(b, c->mod, sz);
  LLVMBuildStore(b, log, field(c, b, st, 0));
  if (arena)
    LLVMBuildStore(b, log, field(c, b, st, 5));
  LLVMBuildStore(b, n, field(c, b, st, 4));
  LLVMBuildRetVoid(b);
}

static void fill_begin(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) { begin_log(c, b, f, 0); }
static void fill_begin_arena(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  begin_log(c, b, f, 1);
}

static LLVMValueRef begin_fn(LtCtx *c, int arena) {
  LLVMTypeRef pt[2] = {c->ptr, c->i64};
  return arena ? helper(c, "lt.undo.begin.arena", pt, 2, fill_begin_arena)
               : helper(c, "lt.undo.begin", pt, 2, fill_begin);
}

/* lt.undo.reserve(state, n): room for n entries more than the log has
 * (the entries counted at entry may still be ahead: a store of the
 * nest's outer loop), when on. */
static void fill_reserve(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  LLVMValueRef st = LLVMGetParam(f, 0), n = LLVMGetParam(f, 1);
  LLVMValueRef cap = LLVMBuildLoad2(b, c->i64, field(c, b, st, 4), "cap");
  LLVMValueRef need = LLVMBuildAdd(b, cap, n, "need");
  LLVMBasicBlockRef grow = LLVMAppendBasicBlockInContext(c->llctx, f, "grow");
  LLVMBasicBlockRef keep = LLVMAppendBasicBlockInContext(c->llctx, f, "keep");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGT, need, cap, ""), grow, keep);
  LLVMPositionBuilderAtEnd(b, grow);
  LLVMValueRef used = LLVMBuildMul(b, LLVMBuildLoad2(b, c->i64, field(c, b, st, 1), ""),
                                   LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef nl =
      regrow(c, b, st, LLVMBuildMul(b, need, LLVMConstInt(c->i64, ENTRY, 0), ""), used);
  LLVMBuildStore(b, nl, field(c, b, st, 0));
  LLVMBuildStore(b, need, field(c, b, st, 4));
  LLVMBuildRetVoid(b);
  LLVMPositionBuilderAtEnd(b, keep);
  LLVMBuildRetVoid(b);
}

/* The loop of a logged store in a triangular nest, else -1. */
static int triangle_loop(LtGen *g, LLVMValueRef store) {
  int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(store));
  int l = id >= 0 ? lt_loop_of(&g->loops, (unsigned)id) : -1;
  if (l < 0 || !lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, store)))
    return -1;
  return lt_map_get(&g->undo_tri, store) ? l : -1;
}

/* Logged stores in triangular nests: their entries are reserved before
 * each run of the nest, from its exact count of iterations (loopfwd.c),
 * rather than at entry from the largest trip counts, which overshoot by
 * about the factorial of the nest's depth. Marks them in undo_tri. A count
 * not computable leaves them to the log's growth. A loop of run entries
 * counts one entry per iteration of the loop around it (its preheader
 * runs at most that often); undo_tri then holds its preheader's
 * terminator. */
static void reserve(LtGen *g) {
  LtCtx *c = g->c;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  unsigned nl = g->loops.nloops;
  lt_map_init(&g->undo_tri, 16);
  unsigned *per = lt_xcalloc(nl + 1, sizeof *per);
  LtMap runs;
  lt_map_init(&runs, 8);
  for (size_t k = 0; k < g->undo_calls.n; k += 2) {
    LLVMValueRef i = g->undo_calls.v[k];
    int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(i));
    int l = id >= 0 ? lt_loop_of(&g->loops, (unsigned)id) : -1;
    size_t rl = (size_t)lt_map_get(&g->undo_run, i);
    if (l < 0 || !lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, i)) ||
        lt_map_get(&g->undo_block, i))
      continue;
    if (!rl)
      per[l]++;
    else if (!lt_map_get(&runs, (void *)rl) && g->loops.loop[rl - 1].parent >= 0) {
      lt_map_put(&runs, (void *)rl, (void *)1);
      per[g->loops.loop[rl - 1].parent]++;
    }
  }
  LLVMTypeRef pt[2] = {c->ptr, c->i64};
  for (unsigned l = 0; l < nl; l++) {
    if (!per[l])
      continue;
    LLVMValueRef n = lt_forward_nest_count(g, l, b);
    if (!n)
      continue;
    n = LLVMBuildMul(b, n, LLVMConstInt(c->i64, per[l], 0), "");
    LLVMValueRef f = helper(c, "lt.undo.reserve", pt, 2, fill_reserve);
    LLVMValueRef args[2] = {g->a_undo, n};
    LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 2, "");
    for (size_t k = 0; k < g->undo_calls.n; k += 2) {
      LLVMValueRef i = g->undo_calls.v[k];
      int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(i));
      size_t rl = (size_t)lt_map_get(&g->undo_run, i);
      if (rl && g->loops.loop[rl - 1].parent == (int)l) {
        LLVMBasicBlockRef ph = g->g.block[g->loops.loop[rl - 1].preheader];
        lt_map_put(&g->undo_tri, LLVMGetBasicBlockTerminator(ph), (void *)1);
      } else if (!rl && id >= 0 && lt_loop_of(&g->loops, (unsigned)id) == (int)l &&
                 !lt_map_get(&g->undo_block, i)) {
        lt_map_put(&g->undo_tri, i, (void *)1);
      }
    }
  }
  lt_map_free(&runs);
  free(per);
  LLVMDisposeBuilder(b);
}

/* When every logged store's executions are computable at entry: the
 * whole log there, if on (no allocation in the loops), less the entries
 * reserved before triangular nests. */
static void preallocate(LtGen *g, LLVMBuilderRef b) {
  LtCtx *c = g->c;
  LLVMValueRef total = LLVMConstInt(c->i64, 0, 0);
  LtMap runs; /* loops of run entries counted */
  lt_map_init(&runs, 8);
  for (size_t k = 0; k < g->undo_calls.n && total; k += 2) {
    LLVMValueRef i = g->undo_calls.v[k];
    size_t rl = (size_t)lt_map_get(&g->undo_run, i);
    if (!lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, i)) ||
        (!rl && triangle_loop(g, i) >= 0) || lt_map_get(&g->undo_block, i) ||
        (rl && lt_map_get(&runs, (void *)rl)))
      continue;
    if (rl) { /* a run entry per run (the fallback's entries grow the log) */
      lt_map_put(&runs, (void *)rl, (void *)1);
      i = LLVMGetBasicBlockTerminator(g->g.block[g->loops.loop[rl - 1].preheader]);
      if (lt_map_get(&g->undo_tri, i))
        continue; /* reserved before its nest */
    }
    LLVMValueRef n = lt_range_count(&g->fx, g->A, b, i);
    total = n ? LLVMBuildAdd(b, total, n, "") : NULL;
  }
  lt_map_free(&runs);
  if (!total)
    return;
  LLVMValueRef f = begin_fn(c, g->lifo), args[2] = {g->a_undo, total};
  LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 2, "");
}

void lt_undo_forward(LtGen *g) {
  if (!g->r_undo)
    return; /* R restores nothing: log nothing */
  LtCtx *c = g->c;
  g->a_undo = new_state(c, g->A);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(g->a_undo));
  LLVMBuildStore(b, LLVMConstNull(c->ptr), field(c, b, g->a_undo, 0));
  LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), field(c, b, g->a_undo, 1));
  LLVMValueRef on = undo_on(g, b);
  g->a_undo_on = LLVMBuildICmp(b, LLVMIntNE, on, LLVMConstInt(c->i64, 0, 0), "lt.undo.on");
  LLVMBuildStore(b, on, field(c, b, g->a_undo, 2));
  LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), field(c, b, g->a_undo, 3));
  LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), field(c, b, g->a_undo, 4));
  LLVMBuildStore(b, LLVMConstNull(c->ptr), field(c, b, g->a_undo, 5));
  reserve(g);
  preallocate(g, b);
  LLVMValueRef f = save_fn(c);
  for (size_t k = 0; k < g->undo_calls.n; k += 2) {
    LLVMValueRef i = g->undo_calls.v[k];
    if (!lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, i)))
      continue;
    size_t bl = (size_t)lt_map_get(&g->undo_block, i);
    if (bl) { /* the range, before its loop starts */
      LLVMBasicBlockRef ph = g->g.block[g->loops.loop[bl - 1].preheader];
      LLVMValueRef apb = lt_map_get(&g->fmap, LLVMBasicBlockAsValue(ph));
      LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(LLVMValueAsBasicBlock(apb)));
      LLVMValueRef bytes, lo = lt_undo_block_range(g, i, (unsigned)bl - 1, b, &bytes);
      LLVMValueRef bf = block_fn(c), args[3] = {g->a_undo, lo, bytes};
      LLVMBuildCall2(b, LLVMGlobalGetValueType(bf), bf, args, 3, "");
      continue;
    }
    LLVMTypeRef t = LLVMTypeOf(LLVMGetOperand(i, 0));
    LLVMValueRef size = LLVMConstInt(c->i64, LLVMStoreSizeOfType(c->td, t), 0);
    size_t rl = (size_t)lt_map_get(&g->undo_run, i);
    LLVMValueRef apart = rl ? lt_map_get(&g->undo_apart, (void *)rl) : NULL;
    if (rl && (apart == (void *)1 || apart == (void *)2)) { /* the run entry, before the loop */
      LLVMBasicBlockRef ph = g->g.block[g->loops.loop[rl - 1].preheader];
      LLVMValueRef apb = lt_map_get(&g->fmap, LLVMBasicBlockAsValue(ph));
      LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(LLVMValueAsBasicBlock(apb)));
      LLVMValueRef s;
      apart = lt_undo_run_apart(g, i, (unsigned)rl - 1, b, &s);
      lt_map_put(&g->undo_apart, (void *)rl, apart);
      LLVMValueRef rf = run_fn(c);
      LLVMValueRef args[3] = {g->a_undo, s,
                              LLVMBuildSelect(b, apart, size, LLVMConstInt(c->i64, 0, 0), "")};
      LLVMBuildCall2(b, LLVMGlobalGetValueType(rf), rf, args, 3, "");
    }
    LLVMValueRef ai = lt_map_get(&g->fmap, i);
    LLVMPositionBuilderBefore(b, ai);
    LLVMValueRef args[3] = {g->a_undo, LLVMGetOperand(ai, 1), size};
    LLVMValueRef call = LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 3, "");
    if (rl) { /* skipped when the run entry holds S */
      lt_vec_push(&g->undo_skip, call);
      lt_vec_push(&g->undo_skip, apart);
    }
  }
  LLVMDisposeBuilder(b);
}

LLVMValueRef lt_undo_forward_field(LtGen *g, LLVMBuilderRef b, unsigned k) {
  return LLVMBuildLoad2(b, k == 0 || k == 5 ? g->c->ptr : g->c->i64,
                        field(g->c, b, g->a_undo, k), "");
}

/* The log's calls in fn, each only where on says the log is on. */
static int guard_calls(LtCtx *c, LLVMValueRef fn, LLVMValueRef helper, LLVMValueRef on) {
  LtVec calls = {0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i))
      if (LLVMIsACallInst(i) && LLVMGetCalledValue(i) == helper)
        lt_vec_push(&calls, i);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (size_t k = 0; k < calls.n; k++)
    behind(c, b, calls.v[k], on, 1);
  LLVMDisposeBuilder(b);
  size_t n = calls.n;
  lt_vec_free(&calls);
  return n > 0;
}

int lt_undo_guard(LtGen *g) {
  int any = 0;
  if (g->a_undo && g->a_undo_on) {
    any |= guard_calls(g->c, g->A, save_fn(g->c), g->a_undo_on);
    any |= guard_calls(g->c, g->A, run_fn(g->c), g->a_undo_on);
  }
  if (g->r_undo && g->r_undo_on) {
    any |= guard_calls(g->c, g->R, restore_fn(g->c), g->r_undo_on);
    any |= guard_calls(g->c, g->R, restore_run_fn(g->c), g->r_undo_on);
  }
  return any;
}

void lt_undo_skip_runs(LtGen *g) {
  LtCtx *c = g->c;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (size_t k = 0; k < g->undo_skip.n; k += 2)
    behind(c, b, g->undo_skip.v[k], g->undo_skip.v[k + 1], 0);
  LLVMDisposeBuilder(b);
}
