/* cachegrow.c: loop caches whose size is not known where their nest
 * starts: a while loop's (an adaptive time step, an iteration run until it
 * converges), and those of the loops inside it.
 *
 * Such a cache grew by realloc from nothing at every call of A, checked
 * at every header execution: its pages were new to the process each call
 * (glibc maps large blocks afresh), the records were copied at each
 * doubling, and the check's call kept the loops inside from vectorising.
 * The adaptive-step ODE of tools/bench/ckpt.c spent a third of its
 * gradient in page faults and copies. Under __enzyme_autodiff (the arena,
 * arena.c) the cache now starts where its nest does with room for as many
 * records as the last call of A on this thread asked for (a thread-local
 * hint per loop), taken from the arena, whose last chunk the next gradient
 * reuses; and room is reserved once per run of the outermost loop below
 * the nest whose trip counts are known where it starts (the inner loops of
 * a time step: no check in their iterations), else at each header
 * execution. The room taken is an eighth more than the hint, so that a
 * call a few iterations longer than the last stays in it. Past its arena
 * block the cache moves to malloc'd memory,
 * realloc'd from then on; the arena block stays until R, where it leaves
 * the nest, releases both (last in first out, as preallocated caches).
 *
 * Layout: HEAD bytes before the records: the arena block once the records
 * have moved to the heap (else null), the room in records, and the most
 * records any reservation asked for (the next call's hint).
 */
#include "lt.h"

#include <stdio.h>

#define HEAD 32

static LLVMValueRef at(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, long long off) {
  LLVMValueRef o = LLVMConstInt(c->i64, (unsigned long long)off, 1);
  return LLVMBuildGEP2(b, c->i8, p, &o, 1, "");
}

static LLVMValueRef umax(LLVMBuilderRef b, LLVMValueRef x, LLVMValueRef y) {
  return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGE, x, y, ""), x, y, "");
}

/* ptr lt.cache.reserve(ptr recs, i64 need, i64 rs): room for need records
 * of rs bytes; the records' (new) address. */
static LLVMValueRef reserve_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->i64, c->i64};
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, "lt.cache.reserve", LLVMFunctionType(c->ptr, pt, 3, 0), &e);
  if (!e)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef grow = LLVMAppendBasicBlockInContext(c->llctx, f, "grow");
  LLVMBasicBlockRef move = LLVMAppendBasicBlockInContext(c->llctx, f, "move");
  LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(c->llctx, f, "again");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMValueRef recs = LLVMGetParam(f, 0), need = LLVMGetParam(f, 1), rs = LLVMGetParam(f, 2);
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef head = at(c, b, recs, -HEAD);
  LLVMValueRef cap = LLVMBuildLoad2(b, c->i64, at(c, b, head, 8), "room");
  LLVMValueRef most = at(c, b, head, 16);
  LLVMBuildStore(b, umax(b, LLVMBuildLoad2(b, c->i64, most, ""), need), most);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntULE, need, cap, ""), done, grow);
  /* twice the room, or what is asked when more: 16 records at least */
  LLVMPositionBuilderAtEnd(b, grow);
  LLVMValueRef ncap = umax(b, umax(b, need, LLVMBuildShl(b, cap, LLVMConstInt(c->i64, 1, 0), "")),
                           LLVMConstInt(c->i64, 16, 0));
  LLVMValueRef bytes = LLVMBuildAdd(b, LLVMBuildMul(b, ncap, rs, ""), LLVMConstInt(c->i64, HEAD, 0),
                                    "");
  LLVMValueRef blk = LLVMBuildLoad2(b, c->ptr, head, "");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, blk, ""), move, again);
  /* from the arena block to the heap: the block stays for R to release */
  LLVMPositionBuilderAtEnd(b, move);
  LLVMValueRef nb = lt_build_malloc(b, c->mod, bytes);
  LLVMValueRef used = LLVMBuildAdd(b, LLVMBuildMul(b, cap, rs, ""), LLVMConstInt(c->i64, HEAD, 0), "");
  LLVMBuildMemCpy(b, nb, 16, head, 16, used);
  LLVMBuildStore(b, head, nb);
  lt_arena_huge(c, b, nb, bytes); /* large caches: 2 MiB pages (arena.c) */
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, again);
  LLVMTypeRef rt[2] = {c->ptr, c->i64};
  LLVMTypeRef rfty = LLVMFunctionType(c->ptr, rt, 2, 0);
  LLVMValueRef ra[2] = {head, bytes};
  LLVMValueRef rb = LLVMBuildCall2(b, rfty, lt_decl_fn(c->mod, "realloc", rfty), ra, 2, "");
  lt_arena_huge(c, b, rb, bytes);
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMValueRef nh = LLVMBuildPhi(b, c->ptr, "");
  LLVMValueRef iv[3] = {head, nb, rb};
  LLVMBasicBlockRef ib[3] = {e, move, again};
  LLVMAddIncoming(nh, iv, ib, 3);
  /* (the room of a block that did not move is stored back unchanged) */
  LLVMValueRef room = LLVMBuildPhi(b, c->i64, "");
  LLVMValueRef rv[3] = {cap, ncap, ncap};
  LLVMAddIncoming(room, rv, ib, 3);
  LLVMBuildStore(b, room, at(c, b, nh, 8));
  LLVMBuildRet(b, at(c, b, nh, HEAD));
  LLVMDisposeBuilder(b);
  return f;
}

/* void lt.cache.release(ptr recs): the heap copy if any, and the arena
 * block (and everything pushed after it). */
static LLVMValueRef release_fn(LtCtx *c) {
  LLVMTypeRef pt[1] = {c->ptr};
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, "lt.cache.release", LLVMFunctionType(c->vd, pt, 1, 0), &e);
  if (!e)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef heap = LLVMAppendBasicBlockInContext(c->llctx, f, "heap");
  LLVMBasicBlockRef arena = LLVMAppendBasicBlockInContext(c->llctx, f, "arena");
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef head = at(c, b, LLVMGetParam(f, 0), -HEAD);
  LLVMValueRef blk = LLVMBuildLoad2(b, c->ptr, head, "");
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, blk, ""), arena, heap);
  LLVMPositionBuilderAtEnd(b, heap);
  lt_build_free(b, c->mod, head);
  lt_arena_pop(c, b, blk);
  LLVMBuildRetVoid(b);
  LLVMPositionBuilderAtEnd(b, arena);
  lt_arena_pop(c, b, head);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

/* void lt.cache.note(ptr recs, ptr hint): the most records asked for,
 * for the next call (recs null: the nest did not start). */
static LLVMValueRef note_fn(LtCtx *c, LLVMTypeRef hint_ty) {
  LLVMTypeRef pt[2] = {c->ptr, hint_ty};
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, "lt.cache.note", LLVMFunctionType(c->vd, pt, 2, 0), &e);
  if (!e)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef put = LLVMAppendBasicBlockInContext(c->llctx, f, "put");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef recs = LLVMGetParam(f, 0);
  LLVMBuildCondBr(b, LLVMBuildIsNull(b, recs, ""), done, put);
  LLVMPositionBuilderAtEnd(b, put);
  LLVMBuildStore(b, LLVMBuildLoad2(b, c->i64, at(c, b, recs, 16 - HEAD), ""),
                 LLVMGetParam(f, 1));
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

static LLVMValueRef preheader_end(LtGen *g, unsigned l) {
  LLVMBasicBlockRef ph = g->g.block[g->loops.loop[l].preheader];
  LLVMValueRef m = lt_map_get(&g->fmap, LLVMBasicBlockAsValue(ph));
  return m ? LLVMGetBasicBlockTerminator(LLVMValueAsBasicBlock(m)) : NULL;
}

static LLVMValueRef call(LLVMBuilderRef b, LLVMValueRef f, LLVMValueRef *a, unsigned n) {
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, a, n, "");
}

/* Room for loop l's records at the preheader of the outermost loop m
 * strictly inside top around l (l itself included) whose nest's trip
 * counts down to l are known there: the header executions of l so far
 * plus their product. 0 when there is none. */
static int reserve_per_run(LtGen *g, unsigned l, unsigned top, LLVMValueRef rs,
                           LLVMBuilderRef b) {
  LtCtx *c = g->c;
  unsigned chain[64], n = 0;
  for (int k = (int)l; k >= 0 && (unsigned)k != top && n < 64; k = g->loops.loop[k].parent)
    chain[n++] = (unsigned)k;
  for (unsigned q = n; q-- > 0;) {
    unsigned m = chain[q];
    LLVMValueRef t = g->loops.loop[m].preheader >= 0 ? preheader_end(g, m) : NULL;
    if (!t)
      continue;
    LLVMPositionBuilderBefore(b, t);
    LLVMValueRef cap = NULL;
    for (unsigned k = 0; k <= q; k++) {
      LLVMValueRef tk = lt_forward_trip(g, chain[k], m, b);
      if (!tk) {
        cap = NULL; /* what was emitted is dead; cleanup drops it */
        break;
      }
      cap = cap ? LLVMBuildMul(b, cap, tk, "") : tk;
    }
    if (!cap)
      continue;
    LLVMValueRef need = LLVMBuildAdd(b, LLVMBuildLoad2(b, c->i64, g->a_n[l], ""), cap, "");
    LLVMValueRef a[3] = {LLVMBuildLoad2(b, c->ptr, g->a_buf[l], ""), need, rs};
    LLVMBuildStore(b, call(b, reserve_fn(c), a, 3), g->a_buf[l]);
    return 1;
  }
  return 0;
}

int lt_cache_reserved(LtGen *g, unsigned l, LLVMValueRef st, LLVMBuilderRef b) {
  LtCtx *c = g->c;
  unsigned top = lt_forward_top(g, l);
  if (!g->lifo || g->nofree || !g->r_enter || !g->r_enter[top] || !g->r_free ||
      !g->r_free[l] || g->loops.loop[top].preheader < 0)
    return 0;
  LLVMValueRef t = preheader_end(g, top);
  if (!t)
    return 0;
  LLVMValueRef rs = LLVMConstInt(c->i64, g->plan.rec_size[l], 0);
  char name[300];
  snprintf(name, sizeof name, "lt.cache.hint.%s.%u", LLVMGetValueName2(g->A, &(size_t){0}), l);
  LLVMValueRef hint = lt_thread_global(c, name, c->i64);
  /* where the nest starts: the last call's records, from the arena */
  LLVMPositionBuilderBefore(b, t);
  LLVMValueRef h = LLVMBuildLoad2(b, c->i64, hint, "lt.cache.hint");
  /* an eighth more: a call that runs a few more iterations stays there */
  h = LLVMBuildAdd(b, h, LLVMBuildLShr(b, h, LLVMConstInt(c->i64, 3, 0), ""), "");
  LLVMValueRef blk = lt_arena_push(
      c, b, LLVMBuildAdd(b, LLVMBuildMul(b, h, rs, ""), LLVMConstInt(c->i64, HEAD, 0), ""));
  LLVMBuildStore(b, LLVMConstNull(c->ptr), blk);
  LLVMBuildStore(b, h, at(c, b, blk, 8));
  LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), at(c, b, blk, 16));
  LLVMBuildStore(b, at(c, b, blk, HEAD), g->a_buf[l]);
  /* room before the loops run, or at each header execution */
  if (!reserve_per_run(g, l, top, rs, b)) {
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(st));
    LLVMValueRef a[3] = {LLVMBuildLoad2(b, c->ptr, g->a_buf[l], ""),
                         LLVMBuildLoad2(b, c->i64, g->a_n[l], ""), rs};
    LLVMBuildStore(b, call(b, reserve_fn(c), a, 3), g->a_buf[l]);
  }
  /* the next call's hint, where A returns */
  for (unsigned bi = 0; bi < g->g.nblocks; bi++) {
    LLVMValueRef r = LLVMGetBasicBlockTerminator(g->g.block[bi]);
    LLVMValueRef ar = r && LLVMIsAReturnInst(r) ? lt_map_get(&g->fmap, r) : NULL;
    if (!ar)
      continue;
    LLVMPositionBuilderBefore(b, ar);
    LLVMValueRef a[2] = {LLVMBuildLoad2(b, c->ptr, g->a_buf[l], ""), hint};
    call(b, note_fn(c, LLVMTypeOf(hint)), a, 2);
  }
  /* R releases it where it leaves the nest, after the caches of loops
   * inside the nest (they come later here) */
  LLVMBuilderRef rb = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(rb, LLVMGetFirstInstruction(g->r_enter[top]));
  LLVMValueRef r = g->r_buf[l];
  call(rb, release_fn(c), &r, 1);
  LLVMDisposeBuilder(rb);
  LLVMInstructionEraseFromParent(g->r_free[l]);
  g->r_free[l] = NULL;
  return 1;
}
