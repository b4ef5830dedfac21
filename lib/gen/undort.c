/* undort.c: the undo log's run-time helpers (undo.c), internal IR
 * functions defined once per module: lt.undo.save, .run, .block and
 * .block.run (a block that is a run entry) append an entry (growing the
 * log), .restore pops one and swaps memory with it,
 * .restore.run leaves a run entry on top alone, .top.run asks whether one
 * is on top, .begin/.begin.arena allocate the whole log, .reserve makes
 * room before a triangular nest, .finish replays the entries forwards and
 * frees the log. Each but .top.run returns at once when the log is off.
 *
 * State: {ptr log, i64 count, i64 on, i64 total, i64 capacity, ptr base,
 * ptr next, ptr end, i64 block bytes, ptr table} (total: in R the entries
 * to replay, in A the entries promised; next and end: A's room for blocks
 * in the arena's block after the log, lt.undo.begin.arena, taken from its
 * end down (undoblockrt.c); block bytes:
 * what A's blocks took, the next call's room; table: A's hash of block
 * addresses to their last entry); an entry is 24 bytes {address,
 * size | flags, value or block}. A block in that room is KEPT: the arena's
 * pop frees it with the log, not free().
 *
 * A block that a later block of the log covers exactly (the same address
 * and size: a time step's u[i] = tmp[i] at every step, a double buffer's
 * row every second step) is LATER: the memory it would swap back in at
 * the replay is what the later block saved, so R's restore copies it
 * (block to memory) instead of swapping, and the replay skips it; only
 * the last block of each range swaps and replays. A finds the earlier
 * block through the table (its mask, then a slot per address, hashed and
 * probed linearly: undoblockrt.c; when the probes find no room the
 * earlier block is forgotten and swaps as before).
 */
#include "lt.h"

#include <string.h>


#define ENTRY LT_UNDO_ENTRY
#define BLOCK LT_UNDO_BLOCK
#define RUN LT_UNDO_RUN
#define KEPT LT_UNDO_KEPT
#define LATER LT_UNDO_LATER
#define FLAGS LT_UNDO_FLAGS
#define TABLE LT_UNDO_TABLE
#define TABLE_MAX LT_UNDO_TABLE_MAX

LLVMValueRef lt_undo_rt_has_flag(LtCtx *c, LLVMBuilderRef b, LLVMValueRef n, unsigned long long f) {
  return LLVMBuildICmp(b, LLVMIntNE, LLVMBuildAnd(b, n, LLVMConstInt(c->i64, f, 0), ""),
                       LLVMConstInt(c->i64, 0, 0), "");
}

LLVMTypeRef lt_undo_state_ty(LtCtx *c) {
  LLVMTypeRef f[10] = {c->ptr, c->i64, c->i64, c->i64, c->i64,
                       c->ptr, c->ptr, c->ptr, c->i64, c->ptr};
  return LLVMStructTypeInContext(c->llctx, f, 10, 0);
}

LLVMValueRef lt_undo_field(LtCtx *c, LLVMBuilderRef b, LLVMValueRef st, unsigned k) {
  return LLVMBuildStructGEP2(b, lt_undo_state_ty(c), st, k, "");
}

LLVMValueRef lt_undo_rt_at(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, unsigned long long off) {
  LLVMValueRef o = LLVMConstInt(c->i64, off, 0);
  return LLVMBuildGEP2(b, c->i8, p, &o, 1, "");
}

/* n bytes from src to dst; a double's 8 (nearly every entry) as one
 * load and store, not a call of memcpy. The builder ends in a new block. */
void lt_undo_rt_copy(LtCtx *c, LLVMBuilderRef b, LLVMValueRef dst, LLVMValueRef src,
                     LLVMValueRef n) {
  if (LLVMIsAConstant(n)) {
    LLVMBuildMemCpy(b, dst, 1, src, 1, n);
    return;
  }
  LLVMValueRef f = LLVMGetBasicBlockParent(LLVMGetInsertBlock(b));
  LLVMBasicBlockRef word = LLVMAppendBasicBlockInContext(c->llctx, f, "word");
  LLVMBasicBlockRef any = LLVMAppendBasicBlockInContext(c->llctx, f, "bytes");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "copied");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, n, LLVMConstInt(c->i64, 8, 0), ""), word, any);
  LLVMPositionBuilderAtEnd(b, word);
  LLVMValueRef v = LLVMBuildLoad2(b, c->i64, src, "");
  LLVMSetAlignment(v, 1);
  LLVMSetAlignment(LLVMBuildStore(b, v, dst), 1);
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, any);
  LLVMBuildMemCpy(b, dst, 1, src, 1, n);
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
}

/* Every helper returns, and throws nothing: said, so that LLVM may hoist
 * a reverse loop's loads of what an outer loop cached past a restore in
 * the loop (a load after a call that might not return could not be). */
static void returns(LtCtx *c, LLVMValueRef f) {
  static const char *const attrs[] = {"willreturn", "nounwind"};
  for (unsigned a = 0; a < 2; a++)
    LLVMAddAttributeAtIndex(f, LLVMAttributeFunctionIndex,
                            LLVMCreateEnumAttribute(c->llctx,
                                                    LLVMGetEnumAttributeKindForName(attrs[a], strlen(attrs[a])), 0));
}

/* The helper `name` (ptr %state, ...), defined once: its entry returns
 * when the log is off, else branches to its block "on", which fill fills
 * (the builder stands there). */
LLVMValueRef lt_undo_rt_helper(LtCtx *c, const char *name, LLVMTypeRef *pt, unsigned np,
                               void (*fill)(LtCtx *, LLVMBuilderRef, LLVMValueRef)) {
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, name, LLVMFunctionType(c->vd, pt, np, 0), &e);
  if (!e)
    return f;
  returns(c, f);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->llctx, f, "on");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef st = LLVMGetParam(f, 0);
  LLVMValueRef on = LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 2), "on");
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
  LLVMValueRef log = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 0), "");
  LLVMValueRef base = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 5), "");
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
LLVMValueRef lt_undo_rt_next_entry(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef st) {
  LLVMValueRef k = LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 1), "k");
  LLVMValueRef cap = LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 4), "cap");
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
  LLVMBuildStore(b, nl, lt_undo_field(c, b, st, 0));
  LLVMBuildStore(b, ncap, lt_undo_field(c, b, st, 4));
  LLVMBuildBr(b, put);
  LLVMPositionBuilderAtEnd(b, put);
  LLVMValueRef log = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 0), "log");
  LLVMValueRef off = LLVMBuildMul(b, k, LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMBuildStore(b, LLVMBuildAdd(b, k, LLVMConstInt(c->i64, 1, 0), ""), lt_undo_field(c, b, st, 1));
  return LLVMBuildGEP2(b, c->i8, log, &off, 1, "e");
}

/* {addr, size | flag, *addr}, appended. */
static void save_entry(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, unsigned long long flag) {
  LLVMValueRef st = LLVMGetParam(f, 0), addr = LLVMGetParam(f, 1), n = LLVMGetParam(f, 2);
  LLVMValueRef e = lt_undo_rt_next_entry(c, b, f, st);
  LLVMBuildStore(b, addr, e);
  LLVMBuildStore(b, flag ? LLVMBuildOr(b, n, LLVMConstInt(c->i64, flag, 0), "") : n,
                 lt_undo_rt_at(c, b, e, 8));
  lt_undo_rt_copy(c, b, lt_undo_rt_at(c, b, e, 16), addr, n);
  LLVMBuildRetVoid(b);
}

/* lt.undo.save(state, addr, size): append {addr, size, *addr}. */
static void fill_save(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) { save_entry(c, b, f, 0); }

/* lt.undo.run(state, addr, size): a run entry (size 0: an empty one). */
static void fill_run(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) { save_entry(c, b, f, RUN); }

LLVMValueRef lt_undo_save_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  return lt_undo_rt_helper(c, "lt.undo.save", pt, 3, fill_save);
}

LLVMValueRef lt_undo_run_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  return lt_undo_rt_helper(c, "lt.undo.run", pt, 3, fill_run);
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
  LLVMValueRef k = LLVMBuildSub(b, LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 1), ""),
                                LLVMConstInt(c->i64, 1, 0), "k");
  LLVMBuildStore(b, k, lt_undo_field(c, b, st, 1));
  LLVMValueRef off = LLVMBuildMul(b, k, LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef e = LLVMBuildGEP2(b, c->i8, LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 0), ""),
                                 &off, 1, "e");
  LLVMValueRef addr = LLVMBuildLoad2(b, c->ptr, e, "addr");
  LLVMValueRef n = LLVMBuildLoad2(b, c->i64, lt_undo_rt_at(c, b, e, 8), "n");
  LLVMBasicBlockRef one = LLVMAppendBasicBlockInContext(c->llctx, f, "value");
  LLVMBasicBlockRef blk = LLVMAppendBasicBlockInContext(c->llctx, f, "block");
  LLVMValueRef isblk = LLVMBuildICmp(
      b, LLVMIntNE, LLVMBuildAnd(b, n, LLVMConstInt(c->i64, BLOCK, 0), ""),
      LLVMConstInt(c->i64, 0, 0), "");
  LLVMBuildCondBr(b, isblk, blk, one);
  LLVMPositionBuilderAtEnd(b, one);
  LLVMValueRef nv = LLVMBuildAnd(b, n, LLVMConstInt(c->i64, ~RUN, 0), "");
  lt_undo_rt_copy(c, b, tmp, addr, nv);
  lt_undo_rt_copy(c, b, addr, lt_undo_rt_at(c, b, e, 16), nv);
  lt_undo_rt_copy(c, b, lt_undo_rt_at(c, b, e, 16), tmp, nv);
  LLVMBuildRetVoid(b);
  LLVMPositionBuilderAtEnd(b, blk);
  LLVMValueRef bp = LLVMBuildLoad2(b, c->ptr, lt_undo_rt_at(c, b, e, 16), "blk");
  LLVMValueRef bn = LLVMBuildAnd(b, n, LLVMConstInt(c->i64, ~FLAGS, 0), "");
  LLVMBasicBlockRef later = LLVMAppendBasicBlockInContext(c->llctx, f, "later");
  LLVMBasicBlockRef last = LLVMAppendBasicBlockInContext(c->llctx, f, "last");
  LLVMBuildCondBr(b, lt_undo_rt_has_flag(c, b, n, LATER),
                  later, last);
  LLVMPositionBuilderAtEnd(b, later); /* its replay is skipped: no swap */
  lt_undo_rt_copy(c, b, addr, bp, bn);
  LLVMBuildRetVoid(b);
  LLVMPositionBuilderAtEnd(b, last);
  swap(c, b, f, addr, bp, bn);
  LLVMBuildRetVoid(b);
}

LLVMValueRef lt_undo_restore_fn(LtCtx *c) {
  LLVMTypeRef pt[1] = {c->ptr};
  return lt_undo_rt_helper(c, "lt.undo.restore", pt, 1, fill_restore);
}

/* lt.undo.restore.run(state): a restore in a loop of run entries, which
 * leaves a run entry on top alone (A skipped the loop's saves). */
static void fill_restore_run(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  LLVMValueRef st = LLVMGetParam(f, 0);
  LLVMValueRef k = LLVMBuildSub(b, LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 1), ""),
                                LLVMConstInt(c->i64, 1, 0), "k");
  LLVMValueRef off = LLVMBuildMul(b, k, LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef e = LLVMBuildGEP2(b, c->i8, LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 0), ""),
                                 &off, 1, "e");
  LLVMValueRef n = LLVMBuildLoad2(b, c->i64, lt_undo_rt_at(c, b, e, 8), "n");
  LLVMBasicBlockRef pop = LLVMAppendBasicBlockInContext(c->llctx, f, "pop");
  LLVMBasicBlockRef keep = LLVMAppendBasicBlockInContext(c->llctx, f, "keep");
  LLVMBuildCondBr(b, lt_undo_rt_has_flag(c, b, n, RUN),
                  keep, pop);
  LLVMPositionBuilderAtEnd(b, keep);
  LLVMBuildRetVoid(b);
  LLVMPositionBuilderAtEnd(b, pop);
  LLVMValueRef r = lt_undo_restore_fn(c);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(r), r, &st, 1, "");
  LLVMBuildRetVoid(b);
}

LLVMValueRef lt_undo_restore_run_fn(LtCtx *c) {
  LLVMTypeRef pt[1] = {c->ptr};
  return lt_undo_rt_helper(c, "lt.undo.restore.run", pt, 1, fill_restore_run);
}

/* i1 lt.undo.top.run(state): the log is on and its last entry is a run
 * entry (R entering the reverse of a loop of run entries: then its
 * restores there do nothing, and R skips them). */
LLVMValueRef lt_undo_top_run_fn(LtCtx *c) {
  LLVMBasicBlockRef e;
  LLVMTypeRef pt[1] = {c->ptr};
  LLVMValueRef f = lt_helper_fn(c, "lt.undo.top.run", LLVMFunctionType(c->i1, pt, 1, 0), &e);
  if (!e)
    return f;
  returns(c, f);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef peek = LLVMAppendBasicBlockInContext(c->llctx, f, "peek");
  LLVMBasicBlockRef no = LLVMAppendBasicBlockInContext(c->llctx, f, "no");
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef st = LLVMGetParam(f, 0);
  LLVMValueRef on = LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 2), "on");
  LLVMValueRef k = LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 1), "count");
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0);
  LLVMBuildCondBr(b, LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, on, zero, ""),
                                  LLVMBuildICmp(b, LLVMIntNE, k, zero, ""), ""),
                  peek, no);
  LLVMPositionBuilderAtEnd(b, no);
  LLVMBuildRet(b, LLVMConstInt(c->i1, 0, 0));
  LLVMPositionBuilderAtEnd(b, peek);
  LLVMValueRef off = LLVMBuildMul(b, LLVMBuildSub(b, k, LLVMConstInt(c->i64, 1, 0), ""),
                                  LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef en = LLVMBuildGEP2(b, c->i8, LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 0), ""),
                                  &off, 1, "e");
  LLVMValueRef n = LLVMBuildLoad2(b, c->i64, lt_undo_rt_at(c, b, en, 8), "n");
  LLVMBuildRet(b, LLVMBuildICmp(b, LLVMIntNE,
                                LLVMBuildAnd(b, n, LLVMConstInt(c->i64, RUN, 0), ""), zero, ""));
  LLVMDisposeBuilder(b);
  return f;
}

/* lt.undo.finish(state): replay every entry forwards, free the log. */
static void fill_finish(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  LLVMValueRef st = LLVMGetParam(f, 0);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->llctx, f, "replay");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->llctx, f, "entry.replay");
  LLVMBasicBlockRef end = LLVMAppendBasicBlockInContext(c->llctx, f, "free");
  LLVMValueRef log = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 0), "log");
  LLVMValueRef total = LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 3), "total");
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
  LLVMValueRef n = LLVMBuildLoad2(b, c->i64, lt_undo_rt_at(c, b, e, 8), "");
  LLVMBasicBlockRef one = LLVMAppendBasicBlockInContext(c->llctx, f, "value");
  LLVMBasicBlockRef blk = LLVMAppendBasicBlockInContext(c->llctx, f, "block");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(c->llctx, f, "next");
  LLVMBuildCondBr(b, lt_undo_rt_has_flag(c, b, n, BLOCK),
                  blk, one);
  LLVMPositionBuilderAtEnd(b, one);
  lt_undo_rt_copy(c, b, addr, lt_undo_rt_at(c, b, e, 16),
                  LLVMBuildAnd(b, n, LLVMConstInt(c->i64, ~RUN, 0), ""));
  LLVMBuildBr(b, next);
  /* a block: copied back unless LATER, then freed (unless in A's room) */
  LLVMPositionBuilderAtEnd(b, blk);
  LLVMValueRef bp = LLVMBuildLoad2(b, c->ptr, lt_undo_rt_at(c, b, e, 16), "");
  LLVMBasicBlockRef put = LLVMAppendBasicBlockInContext(c->llctx, f, "replay.block");
  LLVMBasicBlockRef own = LLVMAppendBasicBlockInContext(c->llctx, f, "malloced");
  LLVMBasicBlockRef owned = LLVMAppendBasicBlockInContext(c->llctx, f, "owned");
  LLVMBuildCondBr(b, LLVMBuildNot(b, lt_undo_rt_has_flag(c, b, n, LATER), ""),
                  put, owned);
  LLVMPositionBuilderAtEnd(b, put);
  lt_undo_rt_copy(c, b, addr, bp, LLVMBuildAnd(b, n, LLVMConstInt(c->i64, ~FLAGS, 0), ""));
  LLVMBuildBr(b, owned);
  LLVMPositionBuilderAtEnd(b, owned);
  LLVMBuildCondBr(b, LLVMBuildNot(b, lt_undo_rt_has_flag(c, b, n, KEPT), ""),
                  own, next);
  LLVMPositionBuilderAtEnd(b, own);
  lt_build_free(b, c->mod, bp);
  LLVMBuildBr(b, next);
  LLVMPositionBuilderAtEnd(b, next);
  LLVMValueRef j1 = LLVMBuildAdd(b, j, LLVMConstInt(c->i64, 1, 0), "");
  LLVMAddIncoming(j, &j1, &next, 1);
  LLVMBuildBr(b, loop);
  LLVMPositionBuilderAtEnd(b, end);
  /* the log: malloc's, or the arena's block (popped, and what follows) */
  LLVMValueRef base = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 5), "base");
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

LLVMValueRef lt_undo_finish_fn(LtCtx *c) {
  LLVMTypeRef pt[1] = {c->ptr};
  return lt_undo_rt_helper(c, "lt.undo.finish", pt, 1, fill_finish);
}

/* The slots of A's table of blocks (undoblockrt.c) for a log of n
 * entries: a power of two, at least 2 n (linear probing stays short), at
 * least TABLE and at most TABLE_MAX. */
static LLVMValueRef table_slots(LtCtx *c, LLVMBuilderRef b, LLVMValueRef n) {
  LLVMValueRef x = LLVMBuildSub(b, LLVMBuildShl(b, n, LLVMConstInt(c->i64, 1, 0), ""),
                                LLVMConstInt(c->i64, 1, 0), "");
  for (unsigned s = 1; s < 64; s *= 2)
    x = LLVMBuildOr(b, x, LLVMBuildLShr(b, x, LLVMConstInt(c->i64, s, 0), ""), "");
  x = LLVMBuildAdd(b, x, LLVMConstInt(c->i64, 1, 0), "");
  LLVMValueRef lo = LLVMConstInt(c->i64, TABLE, 0), hi = LLVMConstInt(c->i64, TABLE_MAX, 0);
  x = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, x, lo, ""), lo, x, "");
  return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, x, hi, ""), hi, x, "slots");
}

/* lt.undo.begin(state, n): the whole log of n entries, when on; from
 * the arena in lt.undo.begin.arena. */
static void begin_log(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, int arena) {
  LLVMValueRef st = LLVMGetParam(f, 0), n = LLVMGetParam(f, 1), p = LLVMGetParam(f, 2);
  LLVMValueRef sz = LLVMBuildMul(b, n, LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef all = sz, tb = LLVMConstInt(c->i64, 0, 0);
  if (arena) { /* words: the table's are i64; a table only with room */
    LLVMValueRef room = LLVMGetParam(f, 3);
    all = LLVMBuildAnd(b, LLVMBuildAdd(b, LLVMBuildAdd(b, sz, room, ""),
                                       LLVMConstInt(c->i64, 7, 0), ""),
                       LLVMConstInt(c->i64, ~7ull, 0), "");
    tb = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntNE, room, tb, ""),
                         LLVMBuildMul(b, LLVMBuildAdd(b, table_slots(c, b, n),
                                                      LLVMConstInt(c->i64, 1, 0), ""),
                                      LLVMConstInt(c->i64, 8, 0), ""),
                         tb, "");
  }
  LLVMValueRef log =
      arena ? lt_arena_push(c, b, LLVMBuildAdd(b, all, tb, "")) : lt_build_malloc(b, c->mod, sz);
  LLVMBuildStore(b, log, lt_undo_field(c, b, st, 0));
  if (arena) { /* the blocks' room after the entries, then the table: the
                  log may move (regrow), the arena's block stays until R's
                  finish */
    LLVMBuildStore(b, log, lt_undo_field(c, b, st, 5));
    LLVMBuildStore(b, LLVMBuildGEP2(b, c->i8, log, &sz, 1, ""), lt_undo_field(c, b, st, 6));
    LLVMValueRef end = LLVMBuildGEP2(b, c->i8, log, &all, 1, "");
    LLVMBuildStore(b, end, lt_undo_field(c, b, st, 7));
    LLVMBuildMemSet(b, end, LLVMConstInt(c->i8, 0, 0), tb, 8);
    LLVMBasicBlockRef mask = LLVMAppendBasicBlockInContext(c->llctx, f, "mask");
    LLVMBasicBlockRef set = LLVMAppendBasicBlockInContext(c->llctx, f, "table");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, tb, LLVMConstInt(c->i64, 0, 0), ""), mask, set);
    LLVMPositionBuilderAtEnd(b, mask); /* the table's first word: its mask */
    LLVMBuildStore(b, LLVMBuildSub(b, LLVMBuildUDiv(b, tb, LLVMConstInt(c->i64, 8, 0), ""),
                                   LLVMConstInt(c->i64, 2, 0), ""),
                   end);
    LLVMBuildBr(b, set);
    LLVMPositionBuilderAtEnd(b, set);
    LLVMValueRef none = LLVMBuildICmp(b, LLVMIntEQ, tb, LLVMConstInt(c->i64, 0, 0), "");
    LLVMBuildStore(b, LLVMBuildSelect(b, none, LLVMConstNull(c->ptr), end, ""),
                   lt_undo_field(c, b, st, 9));
  }
  LLVMBuildStore(b, n, lt_undo_field(c, b, st, 4));
  LLVMBuildStore(b, p, lt_undo_field(c, b, st, 3)); /* promised (lt.undo.reserve) */
  LLVMBuildRetVoid(b);
}

static void fill_begin(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) { begin_log(c, b, f, 0); }
static void fill_begin_arena(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  begin_log(c, b, f, 1);
}

/* lt.undo.begin(state, n, promised, blocks): a log of n entries, promised
 * of them counted at entry (the rest of n: room the last call needed);
 * from the arena, with room for `blocks` bytes of blocks after them (the
 * last call's) */
LLVMValueRef lt_undo_begin_fn(LtCtx *c, int arena) {
  LLVMTypeRef pt[4] = {c->ptr, c->i64, c->i64, c->i64};
  return arena ? lt_undo_rt_helper(c, "lt.undo.begin.arena", pt, 4, fill_begin_arena)
               : lt_undo_rt_helper(c, "lt.undo.begin", pt, 4, fill_begin);
}

/* lt.undo.reserve(state, n): room for n entries more than are promised
 * (when on). A's `total` field holds the promise: the end of the entries
 * counted at entry (lt.undo.begin) and reserved so far, which may still be
 * ahead of the count (a store of the nest's outer loop); entries logged
 * beyond any promise (a fallback's) move it up to the count. The log
 * grows to twice its capacity at least: a reserve per run of an outer loop
 * reallocates O(log) times, not once per run. */
static void fill_reserve(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  LLVMValueRef st = LLVMGetParam(f, 0), n = LLVMGetParam(f, 1);
  LLVMValueRef cap = LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 4), "cap");
  LLVMValueRef k = LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 1), "count");
  LLVMValueRef p = LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 3), "promised");
  p = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, k, p, ""), k, p, "");
  LLVMValueRef need = LLVMBuildAdd(b, p, n, "need");
  LLVMBuildStore(b, need, lt_undo_field(c, b, st, 3));
  LLVMBasicBlockRef grow = LLVMAppendBasicBlockInContext(c->llctx, f, "grow");
  LLVMBasicBlockRef keep = LLVMAppendBasicBlockInContext(c->llctx, f, "keep");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGT, need, cap, ""), grow, keep);
  LLVMPositionBuilderAtEnd(b, grow);
  LLVMValueRef two = LLVMBuildShl(b, cap, LLVMConstInt(c->i64, 1, 0), "");
  LLVMValueRef ncap =
      LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, need, two, ""), need, two, "ncap");
  LLVMValueRef used = LLVMBuildMul(b, k, LLVMConstInt(c->i64, ENTRY, 0), "");
  LLVMValueRef nl =
      regrow(c, b, st, LLVMBuildMul(b, ncap, LLVMConstInt(c->i64, ENTRY, 0), ""), used);
  LLVMBuildStore(b, nl, lt_undo_field(c, b, st, 0));
  LLVMBuildStore(b, ncap, lt_undo_field(c, b, st, 4));
  LLVMBuildRetVoid(b);
  LLVMPositionBuilderAtEnd(b, keep);
  LLVMBuildRetVoid(b);
}

LLVMValueRef lt_undo_reserve_fn(LtCtx *c) {
  LLVMTypeRef pt[2] = {c->ptr, c->i64};
  return lt_undo_rt_helper(c, "lt.undo.reserve", pt, 2, fill_reserve);
}
