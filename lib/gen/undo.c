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
 * The helpers are internal functions (undort.c): the branch on `on`
 * stays out of the loops' code.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>


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
  LLVMValueRef tf = lt_undo_top_run_fn(c);
  LLVMBuildStore(b, LLVMBuildCall2(b, LLVMGlobalGetValueType(tf), tf, &g->r_undo, 1, ""), slot);
  LLVMValueRef rr = lt_undo_restore_run_fn(c), rf = lt_undo_restore_fn(c);
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

static LLVMValueRef new_state(LtCtx *c, LLVMValueRef fn) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(fn)));
  LLVMValueRef st = lt_build_slot(b, lt_undo_state_ty(c), 0, "lt.undo");
  LLVMDisposeBuilder(b);
  return st;
}

/* The entries the log of A's last call (on this thread) held or had
 * promised (lt.undo.reserve), whichever is more: the log allocated at
 * entry is that large at least. A log that the reserves of
 * triangular nests or a fallback grew (to malloc'd memory, its pages new
 * to the process on every call once it is large) is then, from the second
 * call on, one block from the arena. */
static LLVMValueRef hint_global(LtGen *g) {
  char name[300];
  snprintf(name, sizeof name, "lt.undo.hint.%s", LLVMGetValueName2(g->A, &(size_t){0}));
  return lt_thread_global(g->c, name, g->c->i64);
}

/* The bytes of blocks A's last call (on this thread) logged: the room
 * for blocks the next call's log takes from the arena with it, when the
 * blocks' bytes are not computable at entry (block_room) or are fewer. */
static LLVMValueRef blocks_global(LtGen *g) {
  char name[300];
  snprintf(name, sizeof name, "lt.undo.blocks.%s", LLVMGetValueName2(g->A, &(size_t){0}));
  return lt_thread_global(g->c, name, g->c->i64);
}

void lt_undo_reverse_store(LtGen *g, LLVMValueRef store) {
  if (g->split || !lt_map_get(&g->ow.store_class, store) ||
      !lt_map_get(&g->fmap, store))
    return; /* not a candidate for logging, or not in A (dupnoneed) */
  if (!g->r_undo)
    g->r_undo = new_state(g->c, g->R);
  LLVMValueRef f = lt_undo_restore_fn(g->c);
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
  lt_map_init(&g->undo_runblock, 16);
  lt_map_init(&g->undo_apart, 16);
  for (size_t k = 0; k < g->undo_calls.n; k += 2) {
    LLVMValueRef st = g->undo_calls.v[k];
    int need = lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, st)) != NULL;
    int tested = 0; /* a tested block is a run entry that holds a block */
    int l = need ? lt_undo_block_loop(g, st, &tested) : -1, run = tested;
    if (l >= 0 && tested)
      lt_map_put(&g->undo_runblock, st, (void *)1);
    if (l < 0 && need && (l = lt_undo_run_loop(g, st)) >= 0)
      run = 1;
    if (l < 0)
      continue;
    LLVMBuilderRef rb = LLVMCreateBuilderInContext(c->llctx);
    LLVMValueRef rf = lt_undo_restore_fn(c);
    if (run) {
      LLVMValueRef rr = lt_undo_restore_run_fn(c);
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
  LLVMBuildStore(g->eb, base, lt_undo_field(c, g->eb, g->r_undo, 5));
  LLVMBuildStore(g->eb, log, lt_undo_field(c, g->eb, g->r_undo, 0));
  LLVMBuildStore(g->eb, n, lt_undo_field(c, g->eb, g->r_undo, 1));
  LLVMValueRef on = LLVMBuildICmp(g->eb, LLVMIntNE, log, LLVMConstNull(c->ptr), "");
  g->r_undo_on = on;
  LLVMBuildStore(g->eb, LLVMBuildZExt(g->eb, on, c->i64, ""), lt_undo_field(c, g->eb, g->r_undo, 2));
  LLVMBuildStore(g->eb, n, lt_undo_field(c, g->eb, g->r_undo, 3));
  LLVMValueRef f = lt_undo_finish_fn(c);
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
  for (unsigned l = 0; l < nl; l++) {
    if (!per[l])
      continue;
    LLVMValueRef n = lt_forward_nest_count(g, l, b);
    if (!n)
      continue;
    n = LLVMBuildMul(b, n, LLVMConstInt(c->i64, per[l], 0), "");
    LLVMValueRef f = lt_undo_reserve_fn(c);
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

/* The bytes of the blocks A will log, at entry, when computable: each
 * block store's executions times its size (a block holds exactly what
 * its run writes), plus 8 bytes of alignment per run of its loop for
 * elements not a multiple of 8 bytes; else NULL. Largest trip counts
 * overshoot in a triangular nest. */
static LLVMValueRef block_room(LtGen *g, LLVMBuilderRef b) {
  LtCtx *c = g->c;
  LLVMValueRef room = LLVMConstInt(c->i64, 0, 0);
  for (size_t k = 0; k < g->undo_calls.n && room; k += 2) {
    LLVMValueRef i = g->undo_calls.v[k];
    size_t l = (size_t)lt_map_get(&g->undo_block, i);
    if (!lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, i)))
      continue;
    if (!l && lt_map_get(&g->undo_runblock, i))
      l = (size_t)lt_map_get(&g->undo_run, i);
    if (!LLVMIsAStoreInst(i)) { /* a memcpy or memset: its length, if known */
      LLVMValueRef n = lt_range_count(&g->fx, g->A, b, i),
                   len = lt_range_max(&g->fx, g->A, b, i, LLVMGetOperand(i, 2));
      if (!n || !len)
        return NULL;
      len = LLVMBuildAnd(b, LLVMBuildAdd(b, len, LLVMConstInt(c->i64, 7, 0), ""),
                         LLVMConstInt(c->i64, ~7ull, 0), ""); /* rounded to words */
      room = LLVMBuildAdd(b, room, LLVMBuildMul(b, n, len, ""), "");
      continue;
    }
    if (!l)
      continue;
    unsigned long long size = LLVMStoreSizeOfType(c->td, LLVMTypeOf(LLVMGetOperand(i, 0)));
    LLVMValueRef n = lt_range_count(&g->fx, g->A, b, i);
    if (!n)
      return NULL;
    room = LLVMBuildAdd(b, room, LLVMBuildMul(b, n, LLVMConstInt(c->i64, size, 0), ""), "");
    if (size % 8) { /* a block's bytes rounded up to words */
      LLVMBasicBlockRef ph = g->g.block[g->loops.loop[l - 1].preheader];
      LLVMValueRef r = lt_range_count(&g->fx, g->A, b, LLVMGetBasicBlockTerminator(ph));
      if (!r)
        return NULL;
      room = LLVMBuildAdd(b, room, LLVMBuildMul(b, r, LLVMConstInt(c->i64, 8, 0), ""), "");
    }
  }
  return room;
}

/* When every logged store's executions are computable at entry: the
 * whole log there, if on (no allocation in the loops), less the entries
 * reserved before triangular nests; and never less than the last call's
 * log (hint_global), also when they are not. */
static void preallocate(LtGen *g, LLVMBuilderRef b) {
  LtCtx *c = g->c;
  LLVMValueRef total = LLVMConstInt(c->i64, 0, 0);
  LtMap runs; /* loops of run entries counted */
  lt_map_init(&runs, 8);
  for (size_t k = 0; k < g->undo_calls.n && total; k += 2) {
    LLVMValueRef i = g->undo_calls.v[k];
    size_t rl = (size_t)lt_map_get(&g->undo_run, i), bl = (size_t)lt_map_get(&g->undo_block, i);
    if (!lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, i)) ||
        (!rl && !bl && triangle_loop(g, i) >= 0) || (rl && lt_map_get(&runs, (void *)rl)))
      continue;
    if (bl) { /* a block's entry per run of its loop (its bytes: block_room),
                 when computable (else the log grows as before) */
      LLVMValueRef n = lt_range_count(
          &g->fx, g->A, b, LLVMGetBasicBlockTerminator(g->g.block[g->loops.loop[bl - 1].preheader]));
      if (n)
        total = LLVMBuildAdd(b, total, n, "");
      continue;
    }
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
  LLVMValueRef room = block_room(g, b);
  LLVMValueRef blast = LLVMBuildLoad2(b, c->i64, blocks_global(g), "lt.undo.blocks");
  room = room ? LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, blast, room, ""), blast, room, "")
              : blast;
  LLVMValueRef last = LLVMBuildLoad2(b, c->i64, hint_global(g), "lt.undo.last");
  LLVMValueRef n = total ? LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, last, total, ""),
                                           last, total, "")
                         : last;
  LLVMValueRef f = lt_undo_begin_fn(c, g->lifo);
  LLVMValueRef args[4] = {g->a_undo, n, total ? total : LLVMConstInt(c->i64, 0, 0), room};
  LLVMBuildCall2(b, LLVMGlobalGetValueType(f), f, args, 4, "");
}

void lt_undo_forward(LtGen *g) {
  if (!g->r_undo)
    return; /* R restores nothing: log nothing */
  LtCtx *c = g->c;
  g->a_undo = new_state(c, g->A);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(g->a_undo));
  LLVMBuildStore(b, LLVMConstNull(c->ptr), lt_undo_field(c, b, g->a_undo, 0));
  LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), lt_undo_field(c, b, g->a_undo, 1));
  LLVMValueRef on = undo_on(g, b);
  g->a_undo_on = LLVMBuildICmp(b, LLVMIntNE, on, LLVMConstInt(c->i64, 0, 0), "lt.undo.on");
  LLVMBuildStore(b, on, lt_undo_field(c, b, g->a_undo, 2));
  LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), lt_undo_field(c, b, g->a_undo, 3));
  LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), lt_undo_field(c, b, g->a_undo, 4));
  LLVMBuildStore(b, LLVMConstNull(c->ptr), lt_undo_field(c, b, g->a_undo, 5));
  LLVMBuildStore(b, LLVMConstNull(c->ptr), lt_undo_field(c, b, g->a_undo, 6));
  LLVMBuildStore(b, LLVMConstNull(c->ptr), lt_undo_field(c, b, g->a_undo, 7));
  LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), lt_undo_field(c, b, g->a_undo, 8));
  LLVMBuildStore(b, LLVMConstNull(c->ptr), lt_undo_field(c, b, g->a_undo, 9));
  reserve(g);
  preallocate(g, b);
  LLVMValueRef f = lt_undo_save_fn(c);
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
      LLVMValueRef bf = lt_undo_block_fn(c), args[3] = {g->a_undo, lo, bytes};
      LLVMBuildCall2(b, LLVMGlobalGetValueType(bf), bf, args, 3, "");
      continue;
    }
    if (!LLVMIsAStoreInst(i)) { /* a memcpy or memset: its destination, a block */
      LLVMValueRef ai = lt_map_get(&g->fmap, i);
      LLVMPositionBuilderBefore(b, ai);
      LLVMValueRef bf = lt_undo_block_fn(c);
      LLVMValueRef args[3] = {g->a_undo, LLVMGetOperand(ai, 0),
                              LLVMBuildZExtOrBitCast(b, LLVMGetOperand(ai, 2), c->i64, "")};
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
      LLVMValueRef s, n = size, rf = lt_undo_run_fn(c);
      if (lt_map_get(&g->undo_runblock, i)) { /* the block, or none */
        apart = lt_undo_block_apart(g, i, (unsigned)rl - 1, b, &s, &n);
        rf = lt_undo_block_run_fn(c);
      } else {
        apart = lt_undo_run_apart(g, i, (unsigned)rl - 1, b, &s);
      }
      lt_map_put(&g->undo_apart, (void *)rl, apart);
      LLVMValueRef args[3] = {g->a_undo, s,
                              LLVMBuildSelect(b, apart, n, LLVMConstInt(c->i64, 0, 0), "")};
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
  LtCtx *c = g->c;
  LLVMValueRef v = LLVMBuildLoad2(b, k == 0 || k == 5 ? c->ptr : c->i64,
                                  lt_undo_field(c, b, g->a_undo, k), "");
  if (k == 1) { /* at A's return: the next call's log is as large as this one grew */
    LLVMValueRef p = LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, g->a_undo, 3), "");
    LLVMBuildStore(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, p, v, ""), p, v, ""),
                   hint_global(g));
    LLVMBuildStore(b, LLVMBuildLoad2(b, c->i64, lt_undo_field(c, b, g->a_undo, 8), ""),
                   blocks_global(g));
  }
  return v;
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
    any |= guard_calls(g->c, g->A, lt_undo_save_fn(g->c), g->a_undo_on);
    any |= guard_calls(g->c, g->A, lt_undo_run_fn(g->c), g->a_undo_on);
    /* the blocks' helpers, where the module has them */
    static const char *const blocks[] = {"lt.undo.block", "lt.undo.block.run"};
    for (unsigned k = 0; k < 2; k++) {
      LLVMValueRef f = LLVMGetNamedFunction(g->c->mod, blocks[k]);
      if (f)
        any |= guard_calls(g->c, g->A, f, g->a_undo_on);
    }
  }
  if (g->r_undo && g->r_undo_on) {
    any |= guard_calls(g->c, g->R, lt_undo_restore_fn(g->c), g->r_undo_on);
    any |= guard_calls(g->c, g->R, lt_undo_restore_run_fn(g->c), g->r_undo_on);
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
