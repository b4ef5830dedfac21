/* arena.c: a last-in first-out allocator for sub-tapes.
 *
 * A kept call whose tape cannot live in its caller's (a recursive call, a
 * large tape) gets heap memory per activation. Under __enzyme_autodiff
 * the forward pass allocates all of them and the reverse pass releases
 * them in the opposite order, so a stack suffices: lt.arena.push bumps a
 * pointer in a chunk (a new chunk, twice the last, when it is full) and
 * lt.arena.pop(p) moves it back to p, freeing a chunk when it empties. A tree
 * recursion of 10^3 activations then makes a handful of malloc calls per
 * gradient instead of 10^3. Each time it empties, the arena remembers the
 * most it held at once since it last was empty (the capacity of its live
 * chunks) and makes no chunk smaller than that: from the second gradient
 * on, one chunk holds every tape, one malloc and one free per gradient,
 * and malloc serves it from memory it already has (glibc raises its mmap
 * threshold to a freed mmapped block's size), so no page is faulted in
 * again. Nothing is kept between gradients but that number. Split mode (__enzyme_augmentfwd and
 * __enzyme_reverse, whose tapes the caller may keep in any order) uses
 * malloc and free; so do caches that grow (realloc). The state is six
 * thread-local globals: threads
 * differentiating at the same time do not share it.
 *
 * Chunk: {ptr prev, i64 capacity, i64 top of prev when this one began},
 * then the data (32 bytes of header, allocations rounded to 16).
 */
#include "lt.h"

#define HEADER 32
#define FIRST (64 * 1024)

static LLVMValueRef global(LtCtx *c, const char *name, LLVMTypeRef t) {
  LLVMValueRef g = LLVMGetNamedGlobal(c->mod, name);
  if (g)
    return g;
  g = LLVMAddGlobal(c->mod, t, name);
  LLVMSetLinkage(g, LLVMInternalLinkage);
  LLVMSetInitializer(g, LLVMConstNull(t));
  LLVMSetThreadLocal(g, 1);
  return g;
}

static LLVMValueRef at(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, unsigned long long off) {
  LLVMValueRef o = LLVMConstInt(c->i64, off, 0);
  return LLVMBuildGEP2(b, c->i8, p, &o, 1, "");
}

static LLVMValueRef round16(LtCtx *c, LLVMBuilderRef b, LLVMValueRef n) {
  return LLVMBuildAnd(b, LLVMBuildAdd(b, n, LLVMConstInt(c->i64, 15, 0), ""),
                      LLVMConstInt(c->i64, ~15ull, 0), "");
}

/* The thread-local state: current chunk, its fill and capacity, the
 * capacity of all live chunks, its most since the arena was last empty,
 * and that most of the last time (the next first chunk's size). */
typedef struct {
  LLVMValueRef cur, top, end, total, emax, peak;
} State;

static State state(LtCtx *c) {
  State s = {global(c, "lt.arena.cur", c->ptr),   global(c, "lt.arena.top", c->i64),
             global(c, "lt.arena.end", c->i64),   global(c, "lt.arena.total", c->i64),
             global(c, "lt.arena.emax", c->i64),  global(c, "lt.arena.peak", c->i64)};
  return s;
}

/* The arena helper `name` (one parameter), defined once: fill builds its
 * body from the entry block e, with the arena's state s. */
static LLVMValueRef helper(LtCtx *c, const char *name, LLVMTypeRef ret, LLVMTypeRef param,
                           void (*fill)(LtCtx *, const State *, LLVMValueRef,
                                        LLVMBasicBlockRef, LLVMBuilderRef)) {
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, name, LLVMFunctionType(ret, &param, 1, 0), &e);
  if (!e)
    return f;
  State st = state(c);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  fill(c, &st, f, e, b);
  LLVMDisposeBuilder(b);
  return f;
}

/* ptr lt.arena.push(i64 n) */
static void fill_push(LtCtx *c, const State *s, LLVMValueRef f, LLVMBasicBlockRef e,
                      LLVMBuilderRef b) {
  LLVMBasicBlockRef grow = LLVMAppendBasicBlockInContext(c->llctx, f, "chunk");
  LLVMBasicBlockRef take = LLVMAppendBasicBlockInContext(c->llctx, f, "take");
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef n = round16(c, b, LLVMGetParam(f, 0));
  LLVMValueRef t = LLVMBuildLoad2(b, c->i64, s->top, "top");
  LLVMValueRef cap = LLVMBuildLoad2(b, c->i64, s->end, "cap");
  LLVMValueRef nt = LLVMBuildAdd(b, t, n, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntUGT, nt, cap, ""), grow, take);
  /* a new chunk of max(2 cap, n, FIRST, peak) bytes */
  LLVMPositionBuilderAtEnd(b, grow);
  LLVMValueRef two = LLVMBuildShl(b, cap, LLVMConstInt(c->i64, 1, 0), "");
  LLVMValueRef sz = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, n, two, ""), n, two, "");
  sz = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, sz, LLVMConstInt(c->i64, FIRST, 0), ""),
                       LLVMConstInt(c->i64, FIRST, 0), sz, "");
  LLVMValueRef pk = LLVMBuildLoad2(b, c->i64, s->peak, "peak");
  sz = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, sz, pk, ""), pk, sz, "");
  LLVMValueRef tot = LLVMBuildAdd(b, LLVMBuildLoad2(b, c->i64, s->total, ""), sz, "total");
  LLVMBuildStore(b, tot, s->total);
  LLVMValueRef em = LLVMBuildLoad2(b, c->i64, s->emax, "");
  LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, tot, em, ""), tot, em, ""),
                 s->emax);
  LLVMValueRef ch = lt_build_malloc(b, c->mod, LLVMBuildAdd(b, sz, LLVMConstInt(c->i64, HEADER, 0), ""));
  LLVMBuildStore(b, LLVMBuildLoad2(b, c->ptr, s->cur, ""), ch);
  LLVMBuildStore(b, sz, at(c, b, ch, 8));
  LLVMBuildStore(b, t, at(c, b, ch, 16));
  LLVMBuildStore(b, ch, s->cur);
  LLVMBuildStore(b, sz, s->end);
  LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), s->top);
  LLVMBuildBr(b, take);
  LLVMPositionBuilderAtEnd(b, take);
  LLVMValueRef t2 = LLVMBuildLoad2(b, c->i64, s->top, "");
  LLVMValueRef off = LLVMBuildAdd(b, t2, LLVMConstInt(c->i64, HEADER, 0), "");
  LLVMValueRef p = LLVMBuildGEP2(b, c->i8, LLVMBuildLoad2(b, c->ptr, s->cur, ""), &off, 1, "p");
  LLVMBuildStore(b, LLVMBuildAdd(b, t2, n, ""), s->top);
  LLVMBuildRet(b, p);
}

/* void lt.arena.pop(ptr p): release p and everything pushed after it
 * (which, last in first out, is all in the current chunk by now) */
static void fill_pop(LtCtx *c, const State *s, LLVMValueRef f, LLVMBasicBlockRef e,
                     LLVMBuilderRef b) {
  LLVMBasicBlockRef drop = LLVMAppendBasicBlockInContext(c->llctx, f, "drop");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef base = LLVMBuildPtrToInt(b, LLVMBuildLoad2(b, c->ptr, s->cur, ""), c->i64, "");
  LLVMValueRef t = LLVMBuildSub(b, LLVMBuildPtrToInt(b, LLVMGetParam(f, 0), c->i64, ""),
                                LLVMBuildAdd(b, base, LLVMConstInt(c->i64, HEADER, 0), ""), "top");
  LLVMBuildStore(b, t, s->top);
  LLVMValueRef empty = LLVMBuildAnd(
      b, LLVMBuildICmp(b, LLVMIntEQ, t, LLVMConstInt(c->i64, 0, 0), ""),
      LLVMBuildICmp(b, LLVMIntNE, LLVMBuildLoad2(b, c->ptr, s->cur, ""), LLVMConstNull(c->ptr), ""), "");
  LLVMBuildCondBr(b, empty, drop, done);
  /* an empty chunk goes; the previous one is current again */
  LLVMPositionBuilderAtEnd(b, drop);
  LLVMValueRef ch = LLVMBuildLoad2(b, c->ptr, s->cur, "chunk");
  LLVMValueRef prev = LLVMBuildLoad2(b, c->ptr, ch, "prev");
  LLVMBuildStore(b, LLVMBuildLoad2(b, c->i64, at(c, b, ch, 16), ""), s->top);
  LLVMBuildStore(b, prev, s->cur);
  LLVMValueRef isnull = LLVMBuildICmp(b, LLVMIntEQ, prev, LLVMConstNull(c->ptr), "");
  LLVMValueRef pcap = LLVMBuildLoad2(b, c->i64, at(c, b, LLVMBuildSelect(b, isnull, ch, prev, ""), 8), "");
  LLVMBuildStore(b, LLVMBuildSelect(b, isnull, LLVMConstInt(c->i64, 0, 0), pcap, ""), s->end);
  LLVMBuildStore(b, LLVMBuildSub(b, LLVMBuildLoad2(b, c->i64, s->total, ""),
                                 LLVMBuildLoad2(b, c->i64, at(c, b, ch, 8), ""), ""),
                 s->total);
  /* the arena is empty: the next gradient's first chunk holds what this
   * one needed at most */
  LLVMBuildStore(b, LLVMBuildSelect(b, isnull, LLVMBuildLoad2(b, c->i64, s->emax, ""),
                                    LLVMBuildLoad2(b, c->i64, s->peak, ""), ""),
                 s->peak);
  LLVMBuildStore(b, LLVMBuildSelect(b, isnull, LLVMConstInt(c->i64, 0, 0),
                                    LLVMBuildLoad2(b, c->i64, s->emax, ""), ""),
                 s->emax);
  lt_build_free(b, c->mod, ch);
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
}

LLVMValueRef lt_arena_push(LtCtx *c, LLVMBuilderRef b, LLVMValueRef n) {
  LLVMValueRef f = helper(c, "lt.arena.push", c->ptr, c->i64, fill_push);
  return LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &n, 1, "lt.subtape");
}

void lt_arena_pop(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p) {
  LLVMValueRef f = helper(c, "lt.arena.pop", c->vd, c->ptr, fill_pop);
  LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, &p, 1, "");
}
