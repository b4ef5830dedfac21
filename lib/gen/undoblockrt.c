/* undoblockrt.c: the undo log's run-time helpers for blocks (undort.c's
 * other half; undoblock.c decides which stores log blocks): lt.undo.block
 * and lt.undo.block.run append a block entry, its copy of the range in
 * A's room in the arena's block of the log (LT_UNDO_KEPT) or malloc's, and make
 * LT_UNDO_LATER the earlier block of the same range (undort.c's header).
 */
#include "lt.h"

/* The block just appended (the log's last entry: addr, n bytes, n > 0
 * unless A's test failed) makes LT_UNDO_LATER the block the table holds for addr
 * when it has the same address and size; the table then holds this one.
 * The table (begin_log in undort.c): its mask, then its slots, each 0 or
 * an entry's index + 1; a Fibonacci hash of addr (rows of a grid are a
 * stride apart: a shift-and-xor hash put 60% of a 300 x 300 grid's rows in
 * shared slots), then up to PROBES slots on (linear probing); when all
 * hold other addresses, the home slot forgets its block (which then swaps
 * at R's restore, as before). */
#define PROBES 16
static void mark_later(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef st,
                       LLVMValueRef addr, LLVMValueRef n) {
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), one = LLVMConstInt(c->i64, 1, 0);
  LLVMValueRef tab = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 9), "table");
  LLVMBasicBlockRef pre = LLVMAppendBasicBlockInContext(c->llctx, f, "hash");
  LLVMBasicBlockRef look = LLVMAppendBasicBlockInContext(c->llctx, f, "look");
  LLVMBasicBlockRef seen = LLVMAppendBasicBlockInContext(c->llctx, f, "seen");
  LLVMBasicBlockRef other = LLVMAppendBasicBlockInContext(c->llctx, f, "other");
  LLVMBasicBlockRef full = LLVMAppendBasicBlockInContext(c->llctx, f, "full");
  LLVMBasicBlockRef same = LLVMAppendBasicBlockInContext(c->llctx, f, "same");
  LLVMBasicBlockRef put = LLVMAppendBasicBlockInContext(c->llctx, f, "remember");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "marked");
  LLVMBuildCondBr(b, LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntNE, tab, LLVMConstNull(c->ptr), ""),
                                  LLVMBuildICmp(b, LLVMIntNE, n, zero, ""), ""),
                  pre, done);
  LLVMPositionBuilderAtEnd(b, pre);
  LLVMValueRef mask = LLVMBuildLoad2(b, c->i64, tab, "mask");
  LLVMValueRef slots = lt_undo_rt_at(c, b, tab, 8);
  LLVMValueRef a = LLVMBuildPtrToInt(b, addr, c->i64, "");
  LLVMValueRef h = LLVMBuildMul(b, a, LLVMConstInt(c->i64, 0x9E3779B97F4A7C15ull, 0), "");
  h = LLVMBuildLShr(b, h, LLVMConstInt(c->i64, 32, 0), "home");
  LLVMValueRef log = LLVMBuildLoad2(b, c->ptr, lt_undo_field(c, b, st, 0), "log");
  LLVMBuildBr(b, look);
  LLVMPositionBuilderAtEnd(b, look);
  LLVMValueRef k = LLVMBuildPhi(b, c->i64, "probe");
  LLVMValueRef idx = LLVMBuildAnd(b, LLVMBuildAdd(b, h, k, ""), mask, "");
  LLVMValueRef slot = LLVMBuildGEP2(b, c->i64, slots, &idx, 1, "slot");
  LLVMValueRef old = LLVMBuildLoad2(b, c->i64, slot, "old");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntNE, old, zero, ""), seen, put);
  LLVMPositionBuilderAtEnd(b, seen);
  LLVMValueRef off = LLVMBuildMul(b, LLVMBuildSub(b, old, one, ""),
                                  LLVMConstInt(c->i64, LT_UNDO_ENTRY, 0), "");
  LLVMValueRef pe = LLVMBuildGEP2(b, c->i8, log, &off, 1, "prev");
  LLVMValueRef pa = LLVMBuildLoad2(b, c->ptr, pe, "");
  LLVMValueRef pn = LLVMBuildLoad2(b, c->i64, lt_undo_rt_at(c, b, pe, 8), "");
  /* the same address: LATER when the same size and a block; else a slot on */
  LLVMBasicBlockRef here = LLVMAppendBasicBlockInContext(c->llctx, f, "here");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, pa, addr, ""), here, other);
  LLVMPositionBuilderAtEnd(b, here);
  LLVMValueRef isblk = lt_undo_rt_has_flag(c, b, pn, LT_UNDO_BLOCK);
  LLVMValueRef size = LLVMBuildAnd(b, pn, LLVMConstInt(c->i64, ~LT_UNDO_FLAGS, 0), "");
  LLVMBuildCondBr(b, LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntEQ, size, n, ""), isblk, ""), same,
                  put);
  LLVMPositionBuilderAtEnd(b, same);
  LLVMBuildStore(b, LLVMBuildOr(b, pn, LLVMConstInt(c->i64, LT_UNDO_LATER, 0), ""),
                 lt_undo_rt_at(c, b, pe, 8));
  LLVMBuildBr(b, put);
  LLVMPositionBuilderAtEnd(b, other);
  LLVMValueRef k1 = LLVMBuildAdd(b, k, one, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, k1, LLVMConstInt(c->i64, PROBES, 0), ""), look,
                  full);
  LLVMValueRef kv[2] = {zero, k1};
  LLVMBasicBlockRef kb[2] = {pre, other};
  LLVMAddIncoming(k, kv, kb, 2);
  LLVMPositionBuilderAtEnd(b, full);
  LLVMValueRef homeidx = LLVMBuildAnd(b, h, mask, "");
  LLVMValueRef homeslot = LLVMBuildGEP2(b, c->i64, slots, &homeidx, 1, "");
  LLVMBuildBr(b, put);
  LLVMPositionBuilderAtEnd(b, put);
  LLVMValueRef at = LLVMBuildPhi(b, c->ptr, "at");
  LLVMValueRef av[4] = {slot, slot, slot, homeslot};
  LLVMBasicBlockRef ab[4] = {look, here, same, full};
  LLVMAddIncoming(at, av, ab, 4);
  LLVMBuildStore(b, LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, st, 1), ""), at);
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
}

/* n bytes from src to a block at dst, 8-aligned: its 16-byte words with
 * non-temporal stores (a block is read back only in R, after the rest of
 * A: a time loop's blocks are its state history, tens of MB, which
 * ordinary stores would first read into the cache and then let push the
 * loop's own arrays out); the bytes before and after them as
 * lt_undo_rt_copy does. The log lives in combined mode only (undo.c): the
 * thread that stores reads them back, and sees its own stores in order;
 * no fence is needed. The words move as doubles, not integers: where
 * forward mode differentiates the helper (forward over reverse) they move
 * their shadows too, as memcpy does. Elsewhere than on x86-64 and AArch64
 * (an x87 register would not keep a double's bits), lt_undo_rt_copy. */
static void stream_copy(LtCtx *c, LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef dst,
                        LLVMValueRef src, LLVMValueRef n) {
  if (!lt_target_64(c->mod)) {
    lt_undo_rt_copy(c, b, dst, src, n);
    return;
  }
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), k16 = LLVMConstInt(c->i64, 16, 0);
  LLVMValueRef m15 = LLVMConstInt(c->i64, 15, 0);
  LLVMValueRef head = LLVMBuildAnd(
      b, LLVMBuildSub(b, zero, LLVMBuildPtrToInt(b, dst, c->i64, ""), ""), m15, "");
  head = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, n, head, ""), n, head, "head");
  lt_undo_rt_copy(c, b, dst, src, head);
  LLVMValueRef d = LLVMBuildGEP2(b, c->i8, dst, &head, 1, "");
  LLVMValueRef s = LLVMBuildGEP2(b, c->i8, src, &head, 1, "");
  LLVMValueRef rest = LLVMBuildSub(b, n, head, "");
  LLVMValueRef words = LLVMBuildAnd(b, rest, LLVMConstInt(c->i64, ~15ull, 0), "");
  LLVMTypeRef v2 = LLVMVectorType(LLVMDoubleTypeInContext(c->llctx), 2);
  LLVMBasicBlockRef pre = LLVMGetInsertBlock(b);
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->llctx, f, "stream");
  LLVMBasicBlockRef body = LLVMAppendBasicBlockInContext(c->llctx, f, "stream.body");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "streamed");
  LLVMBuildBr(b, loop);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef i = LLVMBuildPhi(b, c->i64, "i");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULT, i, words, ""), body, done);
  LLVMPositionBuilderAtEnd(b, body);
  LLVMValueRef v = LLVMBuildLoad2(b, v2, LLVMBuildGEP2(b, c->i8, s, &i, 1, ""), "");
  LLVMSetAlignment(v, 1);
  LLVMValueRef st = LLVMBuildStore(b, v, LLVMBuildGEP2(b, c->i8, d, &i, 1, ""));
  LLVMSetAlignment(st, 16);
  LLVMValueRef one = LLVMConstInt(LLVMInt32TypeInContext(c->llctx), 1, 0);
  LLVMMetadataRef md = LLVMValueAsMetadata(one);
  LLVMSetMetadata(st, LLVMGetMDKindIDInContext(c->llctx, "nontemporal", 11),
                  LLVMMetadataAsValue(c->llctx, LLVMMDNodeInContext2(c->llctx, &md, 1)));
  LLVMValueRef i1 = LLVMBuildAdd(b, i, k16, "");
  LLVMBuildBr(b, loop);
  LLVMValueRef iv[2] = {zero, i1};
  LLVMBasicBlockRef ib[2] = {pre, body};
  LLVMAddIncoming(i, iv, ib, 2);
  LLVMPositionBuilderAtEnd(b, done);
  lt_undo_rt_copy(c, b, LLVMBuildGEP2(b, c->i8, d, &words, 1, ""),
                  LLVMBuildGEP2(b, c->i8, s, &words, 1, ""), LLVMBuildSub(b, rest, words, ""));
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
  /* from the room's end down: R restores the last block first, and so
   * reads the room upwards, block after block, as the hardware's
   * prefetcher follows (up from its start, each block would start a
   * stream of its own below the last) */
  LLVMPositionBuilderAtEnd(b, room);
  LLVMValueRef nup = LLVMBuildNeg(b, up, "");
  LLVMValueRef at = LLVMBuildGEP2(b, c->i8, end, &nup, 1, "at");
  LLVMBuildStore(b, at, lt_undo_field(c, b, st, 7));
  stream_copy(c, b, f, at, addr, n);
  LLVMBasicBlockRef from_room = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, put);
  LLVMPositionBuilderAtEnd(b, heap);
  LLVMValueRef m = lt_build_malloc(b, c->mod, n);
  stream_copy(c, b, f, m, addr, n);
  LLVMBasicBlockRef from_heap = LLVMGetInsertBlock(b);
  LLVMBuildBr(b, put);
  LLVMPositionBuilderAtEnd(b, put);
  LLVMValueRef blk = LLVMBuildPhi(b, c->ptr, "blk");
  LLVMValueRef bv[3] = {LLVMConstNull(c->ptr), at, m};
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
