/* arena.c: a last-in first-out allocator for sub-tapes.
 *
 * A kept call whose tape cannot live in its caller's (a recursive call, a
 * large tape) gets heap memory per activation, and so do the caches of
 * loop nests whose trip counts are known at entry (loopfwd.c). Under
 * __enzyme_autodiff the forward pass allocates all of them and the reverse
 * pass releases them in the opposite order, so a stack suffices:
 * lt.arena.push bumps a pointer in a chunk (a new chunk when it is
 * full) and lt.arena.pop(p) moves it back to p, freeing a chunk
 * when it empties. A tree recursion of 10^3 activations then makes a
 * handful of malloc calls per gradient instead of 10^3. Each time it
 * empties, the arena remembers the most bytes it held at once since it
 * last was empty and makes no chunk smaller than that: from the second
 * gradient on, one chunk of exactly that size holds every tape, one
 * malloc and one free per gradient, and malloc serves it from memory it
 * already has. Between gradients nothing is kept but that number, and a
 * last chunk of 128 KiB or more (arenakeep.c): glibc maps a block of 32 MiB
 * or more afresh every time, and smaller ones, until its dynamic mmap and
 * trim thresholds have risen to their size, come from fresh pages too. Split mode
 * (__enzyme_augmentfwd and __enzyme_reverse, whose tapes the caller may
 * keep in any order) uses malloc and free; so do caches that grow
 * (realloc). The state is seven thread-local globals: threads
 * differentiating at the same time do not share it.
 *
 * Chunk: {ptr prev, i64 capacity, i64 top of prev when this one began,
 * i64 step before it}, then the data (32 bytes of header, allocations
 * rounded to 16). A chunk that empties gives the step back: pushes and
 * pops that alternate across a chunk's end (a checkpointed step's tape,
 * taped and reversed at once while R runs; issue 20) get a chunk of the
 * same size each time, not one twice the last (2^k bytes after k steps:
 * malloc failed and the push wrote through a null pointer).
 */
#include "lt.h"

#include <stdio.h>
#include <string.h>

#define HEADER 32
#define FIRST (64 * 1024)
#define OWN 256

LLVMValueRef lt_thread_global(LtCtx *c, const char *name, LLVMTypeRef t) {
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
 * bytes held in the chunks before it, the most bytes held at once since
 * the arena was last empty, and that most of the last time (the next
 * first chunk's size: one chunk of it holds every tape of a gradient like
 * the last, with no room left over at the ends of earlier chunks). */
typedef struct {
  LLVMValueRef cur, top, end, below, emax, peak, step;
} State;

static State state(LtCtx *c) {
  State s = {lt_thread_global(c, "lt.arena.cur", c->ptr),   lt_thread_global(c, "lt.arena.top", c->i64),
             lt_thread_global(c, "lt.arena.end", c->i64),   lt_thread_global(c, "lt.arena.below", c->i64),
             lt_thread_global(c, "lt.arena.emax", c->i64),  lt_thread_global(c, "lt.arena.peak", c->i64),
             lt_thread_global(c, "lt.arena.step", c->i64)};
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

/* Large chunks get transparent huge pages (Linux on x86-64 and AArch64,
 * where MADV_HUGEPAGE is 14): a chunk over glibc's largest mmap threshold
 * (32 MiB) is mapped afresh by every gradient, and every 4 KiB page of it
 * faulted in again as the tape is written (PolyBench gramschmidt, 46 MB of
 * tape: 95300 page faults a run, 30 times the primal's time on a VM where
 * a fault costs ~100 us; 7 times with 2 MiB pages; ADI's 239 MB: 15 ->
 * 3). lt.arena.huge(p, n) advises the whole 2 MiB pages inside [p, p + n)
 * when n >= HUGE and p is not null; a kernel whose THP mode is "never"
 * ignores it, "always" needs it not. Caches that grow (loopfwd.c) call
 * it after each realloc. */
#define HUGE (4 << 20)

static int huge_target(LtCtx *c) {
  const char *t = LLVMGetTarget(c->mod);
  return t && strstr(t, "linux") && (!strncmp(t, "x86_64", 6) || !strncmp(t, "aarch64", 7));
}

static void fill_huge(LtCtx *c, LLVMValueRef f, LLVMBasicBlockRef e, LLVMBuilderRef b) {
  LLVMBasicBlockRef yes = LLVMAppendBasicBlockInContext(c->llctx, f, "advise");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef p = LLVMBuildPtrToInt(b, LLVMGetParam(f, 0), c->i64, "");
  LLVMValueRef n = LLVMGetParam(f, 1), m = LLVMConstInt(c->i64, ~((2ull << 20) - 1), 0);
  LLVMValueRef lo = LLVMBuildAnd(b, LLVMBuildAdd(b, p, LLVMConstInt(c->i64, (2 << 20) - 1, 0), ""),
                                 m, "");
  LLVMValueRef hi = LLVMBuildAnd(b, LLVMBuildAdd(b, p, n, ""), m, "");
  LLVMValueRef big = LLVMBuildAnd(
      b, LLVMBuildICmp(b, LLVMIntUGE, n, LLVMConstInt(c->i64, HUGE, 0), ""),
      LLVMBuildICmp(b, LLVMIntNE, p, LLVMConstInt(c->i64, 0, 0), ""), "");
  LLVMBuildCondBr(b, LLVMBuildAnd(b, big, LLVMBuildICmp(b, LLVMIntUGT, hi, lo, ""), ""), yes,
                  done);
  LLVMPositionBuilderAtEnd(b, yes);
  LLVMTypeRef i32 = LLVMInt32TypeInContext(c->llctx);
  LLVMTypeRef pt[3] = {c->ptr, c->i64, i32};
  LLVMTypeRef fty = LLVMFunctionType(i32, pt, 3, 0);
  LLVMValueRef a[3] = {LLVMBuildIntToPtr(b, lo, c->ptr, ""), LLVMBuildSub(b, hi, lo, ""),
                       LLVMConstInt(i32, 14, 0)};
  LLVMBuildCall2(b, fty, lt_decl_fn(c->mod, "madvise", fty), a, 3, "");
  LLVMBuildBr(b, done);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
}

void lt_arena_huge(LtCtx *c, LLVMBuilderRef b, LLVMValueRef p, LLVMValueRef n) {
  if (!huge_target(c))
    return;
  LLVMBasicBlockRef e;
  LLVMTypeRef pt[2] = {c->ptr, c->i64};
  LLVMValueRef f = lt_helper_fn(c, "lt.arena.huge", LLVMFunctionType(c->vd, pt, 2, 0), &e);
  if (e) {
    LLVMBuilderRef hb = LLVMCreateBuilderInContext(c->llctx);
    fill_huge(c, f, e, hb);
    LLVMDisposeBuilder(hb);
  }
  LLVMValueRef a[2] = {p, n};
  LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, a, 2, "");
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
  /* Before the arena knows a peak (a first gradient): a first chunk of
   * FIRST bytes (or the tape's size, if larger), which holds a gradient
   * of small tapes whole; after it, a chunk of step' = max(2 step, FIRST)
   * bytes, which becomes step, for small tapes, which fill chunks that
   * double (a few mallocs for a deep recursion), and a chunk of its own
   * size for a tape of OWN bytes or more, or larger than step', which
   * leaves step alone. The first gradient then holds what its large
   * tapes need and a header each past its first chunk (an LSTM's 7 tapes
   * of 2-89 KB took 448 KB of doubling chunks for 205 KB when every tape
   * shared them). With a peak: max(n, peak) bytes, one chunk for every
   * tape of a gradient like the last (not at least FIRST: a gradient of
   * 6 KB of caches held 64 KB every time). */
  LLVMPositionBuilderAtEnd(b, grow);
  LLVMValueRef st0 = LLVMBuildLoad2(b, c->i64, s->step, "");
  LLVMValueRef st = LLVMBuildShl(b, st0, LLVMConstInt(c->i64, 1, 0), "");
  st = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, st, LLVMConstInt(c->i64, FIRST, 0), ""),
                       LLVMConstInt(c->i64, FIRST, 0), st, "");
  LLVMValueRef some = LLVMBuildICmp(b, LLVMIntNE, LLVMBuildLoad2(b, c->ptr, s->cur, ""),
                                    LLVMConstNull(c->ptr), "");
  LLVMValueRef own = LLVMBuildAnd(
      b, some, LLVMBuildICmp(b, LLVMIntUGE, n, LLVMConstInt(c->i64, OWN, 0), ""), "");
  LLVMValueRef big = LLVMBuildOr(b, LLVMBuildICmp(b, LLVMIntUGT, n, st, ""), own, "");
  LLVMValueRef nstep = LLVMBuildSelect(b, big, st0, st, "");
  LLVMValueRef sz = LLVMBuildSelect(b, big, n, st, "");
  LLVMValueRef pk = LLVMBuildLoad2(b, c->i64, s->peak, "peak");
  LLVMValueRef most = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, n, pk, ""), pk, n, "");
  sz = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntEQ, pk, LLVMConstInt(c->i64, 0, 0), ""), sz,
                       most, "");
  /* A failed malloc leaves the arena as it was and returns null: a nest's
   * cache sized from trip counts taken before an inner loop's guard (a
   * bound the optimiser widened with zext where only the guard keeps it
   * non-negative: 2^32 - 1 iterations) is pushed for a loop that never
   * runs, and nothing reads it; were it used, the first store would fault,
   * as on any exhausted heap. A failed chunk of the hinted size is tried
   * again at the push's own size. */
  LLVMBasicBlockRef again = LLVMAppendBasicBlockInContext(c->llctx, f, "again");
  LLVMBasicBlockRef got = LLVMAppendBasicBlockInContext(c->llctx, f, "got");
  LLVMBasicBlockRef fail = LLVMAppendBasicBlockInContext(c->llctx, f, "fail");
  LLVMValueRef hdr = LLVMConstInt(c->i64, HEADER, 0), nul = LLVMConstNull(c->ptr);
  /* the chunk the last gradient kept (arenakeep.c), if it is as large */
  LLVMBasicBlockRef reuse = LLVMAppendBasicBlockInContext(c->llctx, f, "reuse");
  LLVMBasicBlockRef fresh = LLVMAppendBasicBlockInContext(c->llctx, f, "fresh");
  LLVMValueRef kept = lt_arena_take(c, b, sz);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, kept, nul, ""), fresh, reuse);
  LLVMPositionBuilderAtEnd(b, reuse);
  LLVMValueRef kcap = LLVMBuildLoad2(b, c->i64, at(c, b, kept, 8), "");
  LLVMBuildBr(b, got);
  LLVMPositionBuilderAtEnd(b, fresh);
  LLVMValueRef ch1 = lt_build_malloc(b, c->mod, LLVMBuildAdd(b, sz, hdr, ""));
  LLVMBasicBlockRef from1 = LLVMGetInsertBlock(b);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, ch1, nul, ""), again, got);
  LLVMPositionBuilderAtEnd(b, again);
  LLVMValueRef ch2 = lt_build_malloc(b, c->mod, LLVMBuildAdd(b, n, hdr, ""));
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, ch2, nul, ""), fail, got);
  LLVMPositionBuilderAtEnd(b, fail);
  LLVMBuildRet(b, nul);
  LLVMPositionBuilderAtEnd(b, got);
  LLVMValueRef ch = LLVMBuildPhi(b, c->ptr, "");
  LLVMValueRef chs[3] = {ch1, ch2, kept};
  LLVMBasicBlockRef froms[3] = {from1, again, reuse};
  LLVMAddIncoming(ch, chs, froms, 3);
  LLVMValueRef szp = LLVMBuildPhi(b, c->i64, "");
  LLVMValueRef szs[3] = {sz, n, kcap};
  LLVMAddIncoming(szp, szs, froms, 3);
  sz = szp;
  lt_arena_huge(c, b, ch, LLVMBuildAdd(b, sz, hdr, ""));
  LLVMBuildStore(b, nstep, s->step);
  LLVMBuildStore(b, LLVMBuildAdd(b, LLVMBuildLoad2(b, c->i64, s->below, ""), t, ""), s->below);
  LLVMBuildStore(b, LLVMBuildLoad2(b, c->ptr, s->cur, ""), ch);
  LLVMBuildStore(b, sz, at(c, b, ch, 8));
  LLVMBuildStore(b, t, at(c, b, ch, 16));
  LLVMBuildStore(b, st0, at(c, b, ch, 24));
  LLVMBuildStore(b, ch, s->cur);
  LLVMBuildStore(b, sz, s->end);
  LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), s->top);
  LLVMBuildBr(b, take);
  LLVMPositionBuilderAtEnd(b, take);
  LLVMValueRef t2 = LLVMBuildLoad2(b, c->i64, s->top, "");
  LLVMValueRef off = LLVMBuildAdd(b, t2, LLVMConstInt(c->i64, HEADER, 0), "");
  LLVMValueRef p = LLVMBuildGEP2(b, c->i8, LLVMBuildLoad2(b, c->ptr, s->cur, ""), &off, 1, "p");
  LLVMValueRef nt2 = LLVMBuildAdd(b, t2, n, "");
  LLVMBuildStore(b, nt2, s->top);
  LLVMValueRef held = LLVMBuildAdd(b, LLVMBuildLoad2(b, c->i64, s->below, ""), nt2, "held");
  LLVMValueRef em = LLVMBuildLoad2(b, c->i64, s->emax, "");
  LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, held, em, ""), held, em, ""),
                 s->emax);
  LLVMBuildRet(b, p);
}

/* void lt.arena.pop(ptr p): release p and everything pushed after it
 * (which, last in first out, is all in the current chunk by now) */
static void fill_pop(LtCtx *c, const State *s, LLVMValueRef f, LLVMBasicBlockRef e,
                     LLVMBuilderRef b) {
  LLVMBasicBlockRef drop = LLVMAppendBasicBlockInContext(c->llctx, f, "drop");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMBasicBlockRef some = LLVMAppendBasicBlockInContext(c->llctx, f, "some");
  LLVMPositionBuilderAtEnd(b, e);
  /* a push that failed (null) took nothing */
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, LLVMGetParam(f, 0), LLVMConstNull(c->ptr), ""),
                  done, some);
  LLVMPositionBuilderAtEnd(b, some);
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
  LLVMValueRef ptop = LLVMBuildLoad2(b, c->i64, at(c, b, ch, 16), "");
  LLVMBuildStore(b, ptop, s->top);
  LLVMBuildStore(b, LLVMBuildSub(b, LLVMBuildLoad2(b, c->i64, s->below, ""), ptop, ""), s->below);
  LLVMBuildStore(b, prev, s->cur);
  LLVMValueRef isnull = LLVMBuildICmp(b, LLVMIntEQ, prev, LLVMConstNull(c->ptr), "");
  LLVMValueRef pcap = LLVMBuildLoad2(b, c->i64, at(c, b, LLVMBuildSelect(b, isnull, ch, prev, ""), 8), "");
  LLVMBuildStore(b, LLVMBuildSelect(b, isnull, LLVMConstInt(c->i64, 0, 0), pcap, ""), s->end);
  /* the arena is empty: the next gradient's first chunk holds what this
   * one needed at most */
  LLVMBuildStore(b, LLVMBuildSelect(b, isnull, LLVMBuildLoad2(b, c->i64, s->emax, ""),
                                    LLVMBuildLoad2(b, c->i64, s->peak, ""), ""),
                 s->peak);
  LLVMBuildStore(b, LLVMBuildSelect(b, isnull, LLVMConstInt(c->i64, 0, 0),
                                    LLVMBuildLoad2(b, c->i64, s->emax, ""), ""),
                 s->emax);
  LLVMBuildStore(b, LLVMBuildSelect(b, isnull, LLVMConstInt(c->i64, 0, 0),
                                    LLVMBuildLoad2(b, c->i64, at(c, b, ch, 24), ""), ""),
                 s->step);
  /* the arena's last chunk may be kept for the next gradient (arenakeep.c) */
  LLVMBasicBlockRef tryk = LLVMAppendBasicBlockInContext(c->llctx, f, "keep");
  LLVMBasicBlockRef freeit = LLVMAppendBasicBlockInContext(c->llctx, f, "free");
  LLVMBuildCondBr(b, isnull, tryk, freeit);
  LLVMPositionBuilderAtEnd(b, tryk);
  LLVMBuildCondBr(b, lt_arena_keep(c, b, ch), done, freeit);
  LLVMPositionBuilderAtEnd(b, freeit);
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

/* A gradient's own first chunk: the arena's size hint (peak) is the most
 * the last gradient held, of whichever function, so a gradient after a
 * larger one would hold the larger one's chunk. The gradient `grad`
 * keeps its own hint in a thread-local global: at entry (builder at
 * `entry`, lt.arena.enter), an empty arena takes it; at exit (`exit`,
 * lt.arena.leave), an empty arena's peak, set when it emptied, becomes
 * it. A gradient that starts inside another's (nested differentiation)
 * leaves both alone. Calls to lt.* helpers, and lt.* globals, carry no
 * derivatives, so a gradient differentiated again sees nothing active. */
static void fill_hint(LtCtx *c, const State *s, LLVMValueRef f, LLVMBasicBlockRef e,
                      LLVMBuilderRef b, int leave) {
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef hint = LLVMGetParam(f, 0);
  LLVMValueRef empty = LLVMBuildICmp(b, LLVMIntEQ, LLVMBuildLoad2(b, c->ptr, s->cur, ""),
                                     LLVMConstNull(c->ptr), "empty");
  LLVMValueRef from = leave ? s->peak : hint, to = leave ? hint : s->peak;
  LLVMBuildStore(b, LLVMBuildSelect(b, empty, LLVMBuildLoad2(b, c->i64, from, ""),
                                    LLVMBuildLoad2(b, c->i64, to, ""), ""),
                 to);
  LLVMBuildRetVoid(b);
}
static void fill_enter(LtCtx *c, const State *s, LLVMValueRef f, LLVMBasicBlockRef e,
                       LLVMBuilderRef b) {
  fill_hint(c, s, f, e, b, 0);
}
static void fill_leave(LtCtx *c, const State *s, LLVMValueRef f, LLVMBasicBlockRef e,
                       LLVMBuilderRef b) {
  fill_hint(c, s, f, e, b, 1);
}

void lt_arena_hint(LtCtx *c, LLVMValueRef grad, LLVMBuilderRef entry, LLVMBuilderRef exit) {
  if (!LLVMGetNamedFunction(c->mod, "lt.arena.push"))
    return; /* nothing here uses the arena */
  char name[300];
  snprintf(name, sizeof name, "lt.arena.hint.%s", LLVMGetValueName2(grad, &(size_t){0}));
  LLVMValueRef hint = lt_thread_global(c, name, c->i64);
  /* globals may live in another address space (the data layout's) */
  LLVMTypeRef pt = LLVMTypeOf(hint);
  LLVMValueRef fe = helper(c, "lt.arena.enter", c->vd, pt, fill_enter);
  LLVMValueRef fl = helper(c, "lt.arena.leave", c->vd, pt, fill_leave);
  LLVMBuildCall2(entry, LLVMGlobalGetValueType(fe), fe, &hint, 1, "");
  LLVMBuildCall2(exit, LLVMGlobalGetValueType(fl), fl, &hint, 1, "");
}
