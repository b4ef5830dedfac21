/* undoblockrt.c: the undo log's run-time helpers for blocks (undort.c's
 * other half; undoblock.c decides which stores log blocks): lt.undo.block
 * and lt.undo.block.run append a block entry, its copy of the range in
 * A's room in the arena's block of the log (LT_UNDO_KEPT) or malloc's, and make
 * LT_UNDO_LATER the earlier block of the same range (undort.c's header).
 */
#include "lt.h"

/* The block just appended (the log's last entry: addr, n bytes, n > 0
 * unless A's test failed) makes LT_UNDO_LATER the block the table holds for addr
 * when it has the same address and size; the table then holds this one. */
static void mark_later(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef st,
                       LLVMValueRef addr, LLVMValueRef n) {
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0);
  LLVMValueRef tab = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 9), "table");
  LLVMBasicBlockRef look = LLVMAppendBasicBlockInContext(c->llctx, f, "look");
  LLVMBasicBlockRef seen = LLVMAppendBasicBlockInContext(c->llctx, f, "seen");
  LLVMBasicBlockRef same = LLVMAppendBasicBlockInContext(c->llctx, f, "same");
  LLVMBasicBlockRef put = LLVMAppendBasicBlockInContext(c->llctx, f, "remember");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "marked");
  LLVMBuildCondBr(b, LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, tab, LLVMConstNull(c->ptr), ""),
                                  LLVMBuildICmp(b, LLVMIntNE, n, zero, ""), ""),
                  look, done);
  LLVMPositionBuilderAtEnd(b, look);
  LLVMValueRef a = LLVMBuildPtrToInt(b, addr, c->i64, "");
  LLVMValueRef h = LLVMBuildXor(b, LLVMBuildLShr(b, a, LLVMConstInt(c->i64, 3, 0), ""),
                                LLVMBuildLShr(b, a, LLVMConstInt(c->i64, 13, 0), ""), "");
  h = LLVMBuildAnd(b, h, LLVMConstInt(c->i64, LT_UNDO_TABLE - 1, 0), "slot");
  LLVMValueRef slot = LLVMBuildGEP2(b, c->i64, tab, &h, 1, "");
  LLVMValueRef old = LLVMBuildLoad2(b, c->i64, slot, "old");
  LLVMValueRef log = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 0), "log");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, old, zero, ""), seen, put);
  LLVMPositionBuilderAtEnd(b, seen);
  LLVMValueRef off = LLVMBuildMul(b, LLVMBuildSub(b, old, LLVMConstInt(c->i64, 1, 0), ""),
                                  LLVMConstInt(c->i64, LT_UNDO_ENTRY, 0), "");
  LLVMValueRef pe = LLVMBuildGEP2(b, c->i8, log, &off, 1, "prev");
  LLVMValueRef pa = LLVMBuildLoad2(b, c->ptr, pe, "");
  LLVMValueRef pn = LLVMBuildLoad2(b, c->i64, lt_undo_rt_at(c, b, pe, 8), "");
  LLVMValueRef isblk = lt_undo_rt_has_flag(c, b, pn, LT_UNDO_BLOCK);
  LLVMValueRef size = LLVMBuildAnd(b, pn, LLVMConstInt(c->i64, ~LT_UNDO_FLAGS, 0), "");
  LLVMValueRef eq = LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, pa, addr, ""),
                                 LLVMBuildICmp(b, LLVMIntEQ, size, n, ""), "");
  LLVMBuildCondBr(b, LLVMBuildAnd(b, eq, isblk, ""), same, put);
  LLVMPositionBuilderAtEnd(b, same);
  LLVMBuildStore(b, LLVMBuildOr(b, pn, LLVMConstInt(c->i64, LT_UNDO_LATER, 0), ""),
                 lt_undo_rt_at(c, b, pe, 8));
  LLVMBuildBr(b, put);
  LLVMPositionBuilderAtEnd(b, put);
  LLVMBuildStore(b, LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 1), ""), slot);
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
}

/* lt.undo.block(state, addr, n): append {addr, n | LT_UNDO_BLOCK | flag, block},
 * the block a copy of the n bytes at addr (undoblock.c), in A's room
 * (KEPT) or malloc's; .block.run's entry is a run entry too (R's restores
 * in its loop leave it alone), and n may be 0 there (A's test failed: the
 * loop's stores log themselves), which allocates nothing. */
static void block_entry(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, unsigned long long flag) {
  LLVMValueRef st = LLVMGetParam(f, 0), addr = LLVMGetParam(f, 1), n = LLVMGetParam(f, 2);
  LLVMValueRef e = lt_undo_rt_next_entry(c, b, f, st);
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef some = LLVMAppendBasicBlockInContext(c->llctx, f, "some");
  LLVMBasicBlockRef room = LLVMAppendBasicBlockInContext(c->llctx, f, "room");
  LLVMBasicBlockRef heap = LLVMAppendBasicBlockInContext(c->llctx, f, "heap");
  LLVMBasicBlockRef put = LLVMAppendBasicBlockInContext(c->llctx, f, "entry");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, n, zero, ""), some, put);
  /* 8-byte aligned, in A's room when it fits, else malloc's */
  LLVMPositionBuilderAtEnd(b, some);
  LLVMValueRef up = LLVMBuildAnd(b, LLVMBuildAdd(b, n, LLVMConstInt(c->i64, 7, 0), ""),
                                 LLVMConstInt(c->i64, ~7ull, 0), "");
  LLVMValueRef used = lt_undo_field(c, b, st, 8);
  LLVMBuildStore(b, LLVMBuildAdd(b, LLVMBuildLoad2(b, c->i64, used, ""), up, ""), used);
  LLVMValueRef next = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 6), "next");
  LLVMValueRef end = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 7), "end");
  LLVMValueRef left = LLVMBuildSub(b, LLVMBuildPtrToInt(b, end, c->i64, ""),
                                   LLVMBuildPtrToInt(b, next, c->i64, ""), "left");
  LLVMBuildCondBr(b, LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, next, LLVMConstNull(c->ptr), ""),
                                  LLVMBuildICmp(b, LLVMIntULE, up, left, ""), ""),
                  room, heap);
  LLVMPositionBuilderAtEnd(b, room);
  LLVMBuildStore(b, LLVMBuildGEP2(b, c->i8, next, &up, 1, ""), lt_undo_field(c, b, st, 6));
  lt_undo_rt_copy(c, b, next, addr, n);
  LLVMBasicBlockRef from_room = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, put);
  LLVMPositionBuilderAtEnd(b, heap);
  LLVMValueRef m = lt_build_malloc(b, c->mod, n);
  lt_undo_rt_copy(c, b, m, addr, n);
  LLVMBasicBlockRef from_heap = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, put);
  LLVMPositionBuilderAtEnd(b, put);
  LLVMValueRef blk = LLVMBuildPhi(b, c->ptr, "blk");
  LLVMValueRef bv[3] = {LLVMConstNull(c->ptr), next, m};
  LLVMBasicBlockRef bb[3] = {pre, from_room, from_heap};
  LLVMAddIncoming(blk, bv, bb, 3);
  LLVMValueRef fl = LLVMBuildPhi(b, c->i64, "flags");
  LLVMValueRef fv[3] = {LLVMConstInt(c->i64, LT_UNDO_BLOCK | flag, 0),
                        LLVMConstInt(c->i64, LT_UNDO_BLOCK | LT_UNDO_KEPT | flag, 0),
                        LLVMConstInt(c->i64, LT_UNDO_BLOCK | flag, 0)};
  LLVMAddIncoming(fl, fv, bb, 3);
  LLVMBuildStore(b, addr, e);
  LLVMBuildStore(b, LLVMBuildOr(b, n, fl, ""), lt_undo_rt_at(c, b, e, 8));
  LLVMBuildStore(b, blk, lt_undo_rt_at(c, b, e, 16));
  mark_later(c, b, f, st, addr, n);
  LLVMBuildRetVoid(b);
}

static void fill_block(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) { block_entry(c, b, f, 0); }
static void fill_block_run(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f) {
  block_entry(c, b, f, LT_UNDO_RUN);
}

LLVMValueRef lt_undo_block_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  return lt_undo_rt_helper(c, "lt.undo.block", pt, 3, fill_block);
}

LLVMValueRef lt_undo_block_run_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  return lt_undo_rt_helper(c, "lt.undo.block.run", pt, 3, fill_block_run);
}

