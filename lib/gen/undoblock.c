/* undoblock.c: undo-log entries of whole blocks (issue 17, item 3).
 *
 * A logged store (undo.c) saves one old value per execution: 24 bytes of
 * log for 8 bytes of state, and a helper call in the loop. When the store
 * writes a dense affine range over each run of its innermost loop l (u[i]
 * = ... for i in [lo, hi), stepping by its own size), A instead copies the
 * range's old contents once, where the loop starts (l's preheader), into
 * a block of its own: one log entry per run of the loop and 8 bytes per
 * double. R puts the whole range back where its reverse of l ends (the
 * block leaving l for the preheader, r_enter), swapping memory and block
 * as the per-store restore does, and the log's replay copies the block
 * back at the end. A time step's u[i] = tmp[i] then keeps the state
 * history, not three times it.
 *
 * R re-reads memory through the log only at the reverse of the loads that
 * overwrite.c pairs with logged stores; inside l, between the loop's
 * start and R's end of it, the range holds what the loop left, not what an
 * iteration saw. So no load l re-reads may be paired with the store (its
 * class in the load's candidates): a double-buffered step's v[i] = f(u)
 * qualifies when u and v are apart. Other logged stores of l keep their
 * entries, after the block's in the log, restored before it: the log
 * stays a stack of swaps. The range must be exact, not an envelope (no byte outside
 * what the store writes is read): the store's block runs in every
 * iteration that reaches the latch, l has one exiting block (its header,
 * or its latch), and the count of iterations is l's trip count at its
 * preheader. The address at the first iteration is the address's own
 * arithmetic with l's counters at their starts, emitted in the preheader.
 */
#include "lt.h"

static int in_loop(LtGen *g, unsigned l, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return 0;
  int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(v));
  return id < 0 || lt_loop_contains(&g->loops, l, (unsigned)id);
}

/* The start of v if it is one of l's counters with a constant step. */
static LLVMValueRef counter_start(LtGen *g, unsigned l, LLVMValueRef v) {
  for (unsigned k = 0; k < g->ind.nctr[l]; k++)
    if (g->ind.ctr[l][k].phi == v && g->ind.ctr[l][k].step)
      return g->ind.ctr[l][k].start;
  return NULL;
}

/* v at iteration k of l (k NULL: the first), emitted at b (A's values);
 * with b NULL, only whether it can be: NULL when not. */
static LLVMValueRef at_iter(LtGen *g, unsigned l, LLVMValueRef v, LLVMBuilderRef b,
                            LLVMValueRef k, unsigned depth) {
  if (depth > 32)
    return NULL;
  if (!in_loop(g, l, v)) {
    if (!b)
      return v;
    LLVMValueRef m = lt_map_get(&g->fmap, v);
    return m ? m : v;
  }
  if (LLVMIsAPHINode(v)) {
    long long step = 0;
    for (unsigned j = 0; j < g->ind.nctr[l]; j++)
      if (g->ind.ctr[l][j].phi == v && g->ind.ctr[l][j].step)
        step = g->ind.ctr[l][j].step;
    LLVMValueRef s = counter_start(g, l, v);
    s = s ? at_iter(g, l, s, b, NULL, depth + 1) : NULL;
    if (!s || !b || !k)
      return s;
    LLVMTypeRef t = LLVMTypeOf(v);
    LLVMValueRef kk = LLVMBuildIntCast2(b, k, t, 1, "");
    return LLVMBuildAdd(b, s, LLVMBuildMul(b, kk, LLVMConstInt(t, (unsigned long long)step, 1), ""),
                        "");
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (!lt_run_op(op))
    return NULL;
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  LLVMValueRef ops[16];
  if (n > 16)
    return NULL;
  for (unsigned j = 0; j < n; j++)
    if (!(ops[j] = at_iter(g, l, LLVMGetOperand(v, j), b, k, depth + 1)))
      return NULL;
  if (!b)
    return v;
  switch (op) {
  case LLVMGetElementPtr:
    return LLVMBuildGEP2(b, LLVMGetGEPSourceElementType(v), ops[0], ops + 1, n - 1, "");
  case LLVMSExt: case LLVMZExt: case LLVMTrunc: case LLVMBitCast:
    return LLVMBuildCast(b, op, ops[0], LLVMTypeOf(v), "");
  default:
    return LLVMBuildBinOp(b, op, ops[0], ops[1], "");
  }
}

static LLVMValueRef first(LtGen *g, unsigned l, LLVMValueRef v, LLVMBuilderRef b,
                          unsigned depth) {
  return at_iter(g, l, v, b, NULL, depth);
}

/* The bytes the store writes per iteration of l and its byte step, when
 * its address is affine in l with a step of exactly that size. */
static int dense(LtGen *g, unsigned l, LLVMValueRef store, long long *step) {
  long long size = (long long)LLVMStoreSizeOfType(g->c->td, LLVMTypeOf(LLVMGetOperand(store, 0)));
  *step = 0;
  return lt_affine_step(&g->ind, g->c->td, LLVMGetOperand(store, 1), l, step) && size > 0 &&
         (*step == size || *step == -size);
}

/* The innermost loop of a store when R leaves it through r_enter and A
 * can count its header executions at its preheader: one exiting block
 * (its header or its latch), a known trip with a constant step, start and
 * bound outside it; else -1. */
static int counted_loop(LtGen *g, LLVMValueRef store) {
  if (!g->r_enter || LLVMGetVolatile(store))
    return -1;
  int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(store));
  int l = id >= 0 ? lt_loop_of(&g->loops, (unsigned)id) : -1;
  if (l < 0 || !g->r_enter[l])
    return -1;
  const LtLoop *L = &g->loops.loop[l];
  const LtTrip *t = &g->ind.trip[l];
  if (L->preheader < 0 || L->latch < 0 || L->nexiting != 1 || !t->known || t->vstep ||
      in_loop(g, (unsigned)l, t->start) || in_loop(g, (unsigned)l, t->bound))
    return -1;
  unsigned x = L->exiting[0];
  if (x != L->header && x != (unsigned)L->latch)
    return -1;
  return l;
}

/* Does the store run in every iteration of l that reaches the latch? */
static int every_iteration(LtGen *g, unsigned l, LLVMValueRef store) {
  int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(store));
  return id >= 0 && lt_loop_of(&g->loops, (unsigned)id) == (int)l &&
         lt_cfg_dominates(&g->g, (unsigned)id, (unsigned)g->loops.loop[l].latch);
}

/* Is store the only store logged in l or a loop inside it? */
static int only_logged(LtGen *g, unsigned l, LLVMValueRef store) {
  for (size_t k = 0; k < g->undo_calls.n; k += 2) {
    LLVMValueRef s = g->undo_calls.v[k];
    if (s != store && in_loop(g, l, s) &&
        lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, s)))
      return 0;
  }
  return 1;
}

/* Does ld, in l itself, read only what the block's store wrote before in
 * the run, the store the only member in l of ld's paired classes? */
static int behind(LtGen *g, unsigned l, LLVMValueRef store, LLVMValueRef ld) {
  int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(ld));
  if (!store || id < 0 || lt_loop_of(&g->loops, (unsigned)id) != (int)l ||
      !lt_load_behind(&g->ind, g->c->td, l, store, ld))
    return 0;
  LtVec *lists = lt_map_get(&g->ow.cand, ld);
  for (size_t j = 0; lists && j < lists->n; j++) {
    LtVec *w = lists->v[j];
    for (size_t m = 0; m < w->n; m += 2)
      if (w->v[m] != store && in_loop(g, l, w->v[m]))
        return 0;
  }
  return 1;
}

int lt_undo_block_loop(LtGen *g, LLVMValueRef store, int *tested) {
  *tested = 0;
  if (!LLVMIsAStoreInst(store)) /* a memcpy or memset: a block of its own */
    return -1;
  int l = counted_loop(g, store);
  if (l < 0 || !every_iteration(g, (unsigned)l, store))
    return -1;
  long long step;
  if (!dense(g, (unsigned)l, store, &step) ||
      !first(g, (unsigned)l, LLVMGetOperand(store, 1), NULL, 0))
    return -1;
  /* no load re-read through the log inside l that the store may write;
   * or only loads of l itself, linear in l, when the store is the only
   * one logged in l: A then tests per run that they stay clear of the
   * block (lt_undo_block_apart), a double buffer's step. A load that
   * reads only what the store wrote in earlier iterations (behind it: a
   * tridiagonal sweep's p[j] = f(p[j - 1])) finds in memory what it read,
   * and needs no test. */
  void *cls = lt_map_get(&g->ow.store_class, store);
  for (size_t k = 0; k < g->undo_order.n; k++) {
    LLVMValueRef ld = g->undo_order.v[k];
    if (!in_loop(g, (unsigned)l, ld) || behind(g, (unsigned)l, store, ld))
      continue;
    LtVec *lists = lt_map_get(&g->ow.cand, ld);
    for (size_t j = 0; lists && j < lists->n; j++) {
      if (lists->v[j] != cls)
        continue;
      int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(ld));
      if (id < 0 || lt_loop_of(&g->loops, (unsigned)id) != l ||
          !lt_linear_in(&g->ind, (unsigned)l, LLVMGetOperand(ld, 0)) ||
          !first(g, (unsigned)l, LLVMGetOperand(ld, 0), NULL, 0) ||
          !only_logged(g, (unsigned)l, store))
        return -1;
      *tested = 1;
    }
  }
  return l;
}

/* Loop l's header executions T in the run about to start, at b in A's
 * preheader (i64). */
static LLVMValueRef header_runs(LtGen *g, unsigned l, LLVMBuilderRef b) {
  LtTrip m = g->ind.trip[l];
  LLVMValueRef ms = lt_map_get(&g->fmap, m.start), mb = lt_map_get(&g->fmap, m.bound);
  m.start = ms ? ms : m.start;
  m.bound = mb ? mb : m.bound;
  return LLVMBuildSExtOrBitCast(b, lt_trip_emit(b, &m), g->c->i64, "");
}

/* The store's executions in that run, from T: one after the header's
 * exit test runs T - 1 times, one before it (or in a loop leaving from its
 * latch) T times; at least 0. */
static LLVMValueRef store_runs(LtGen *g, unsigned l, LLVMValueRef store, LLVMValueRef t,
                               LLVMBuilderRef b) {
  LtCtx *c = g->c;
  const LtLoop *L = &g->loops.loop[l];
  int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(store));
  LLVMValueRef n = t;
  if (L->exiting[0] == L->header && (unsigned)id != L->header)
    n = LLVMBuildSub(b, n, LLVMConstInt(c->i64, 1, 0), "");
  return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, n, LLVMConstInt(c->i64, 0, 0), ""), n,
                         LLVMConstInt(c->i64, 0, 0), "lt.undo.iters");
}

LLVMValueRef lt_undo_block_range(LtGen *g, LLVMValueRef store, unsigned l, LLVMBuilderRef b,
                                 LLVMValueRef *bytes) {
  LtCtx *c = g->c;
  LLVMValueRef n = store_runs(g, l, store, header_runs(g, l, b), b);
  long long step;
  dense(g, l, store, &step);
  long long size = step < 0 ? -step : step;
  LLVMValueRef p = first(g, l, LLVMGetOperand(store, 1), b, 0);
  *bytes = LLVMBuildMul(b, n, LLVMConstInt(c->i64, (unsigned long long)size, 0), "lt.undo.bytes");
  if (step < 0) { /* downwards: the range starts at the last iteration's */
    LLVMValueRef back = LLVMBuildSub(b, LLVMConstInt(c->i64, (unsigned long long)size, 0), *bytes, "");
    p = LLVMBuildGEP2(b, c->i8, p, &back, 1, "");
  }
  return p;
}

/* Run entries. A store at one address S in every iteration of its loop
 * l (a triangular solve's x[i] -= L[i][j] * x[j], an accumulator kept in
 * memory that l's other accesses may alias) logs S's old value in every
 * iteration, though the reverse pass needs inside l only the loads that
 * do not read S. So A decides per run, in l's preheader: when the loads R
 * re-reads in l (those paired with the stores of S) lie apart from S over
 * the whole run (their addresses are affine in l: first and last
 * iteration bound them) and the store runs at all, it saves S once, as
 * a run entry, and skips the saves in the loop; else it pushes an empty
 * run entry and logs every store as before. R's restores in l leave a run
 * entry on top of the log alone (undo.c, lt.undo.restore.run), and R pops
 * it where it leaves l (r_enter): S gets its value from before the loop,
 * and in the fallback the stores' own entries, above the empty one, were
 * popped by then. Every logged store in l must write S, in l itself, not
 * in a loop inside it (the only entries of a run lie above its run entry,
 * so a restore finds the run entry on top exactly when A skipped the
 * stores), at least one of them in every iteration (S is then memory the
 * loop writes, safe to read first). */

/* Does a class in the load's candidate lists have a member in l? */
static int paired_in(LtGen *g, unsigned l, LLVMValueRef load) {
  LtVec *lists = lt_map_get(&g->ow.cand, load);
  for (size_t j = 0; lists && j < lists->n; j++) {
    LtVec *w = lists->v[j];
    for (size_t m = 0; m < w->n; m += 2)
      if (in_loop(g, l, w->v[m]))
        return 1;
  }
  return 0;
}

static unsigned long long size_of(LtGen *g, LLVMValueRef v) {
  return LLVMStoreSizeOfType(g->c->td, LLVMTypeOf(v));
}

int lt_undo_run_loop(LtGen *g, LLVMValueRef store) {
  if (!LLVMIsAStoreInst(store))
    return -1;
  int l = counted_loop(g, store);
  if (l < 0)
    return -1;
  unsigned ul = (unsigned)l;
  LLVMValueRef addr = LLVMGetOperand(store, 1);
  unsigned long long size = size_of(g, LLVMGetOperand(store, 0));
  if (!lt_invariant_value(&g->ind, ul, addr) || !first(g, ul, addr, NULL, 0) || size > 8)
    return -1;
  /* every store logged in l writes S, in l itself (a loop inside it
   * logs entries of its own above the run entry), one of them in every
   * iteration */
  int every = 0;
  for (size_t k = 0; k < g->undo_calls.n; k += 2) {
    LLVMValueRef s = g->undo_calls.v[k];
    if (!in_loop(g, ul, s) || !lt_map_get(&g->undo_need, lt_map_get(&g->ow.store_class, s)))
      continue;
    int sid = lt_cfg_id(&g->g, LLVMGetInstructionParent(s));
    if (!LLVMIsAStoreInst(s) || LLVMGetOperand(s, 1) != addr ||
        size_of(g, LLVMGetOperand(s, 0)) != size ||
        LLVMGetVolatile(s) || sid < 0 || lt_loop_of(&g->loops, (unsigned)sid) != l)
      return -1;
    every |= every_iteration(g, ul, s);
  }
  if (!every)
    return -1;
  /* the loads R re-reads in l under them: in l itself, linear in l */
  for (size_t k = 0; k < g->undo_order.n; k++) {
    LLVMValueRef ld = g->undo_order.v[k];
    if (!in_loop(g, ul, ld) || !paired_in(g, ul, ld))
      continue;
    int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(ld));
    if (id < 0 || lt_loop_of(&g->loops, (unsigned)id) != l ||
        !lt_linear_in(&g->ind, ul, LLVMGetOperand(ld, 0)) ||
        !first(g, ul, LLVMGetOperand(ld, 0), NULL, 0))
      return -1;
  }
  return l;
}

static LLVMValueRef addr_int(LtGen *g, LLVMBuilderRef b, LLVMValueRef p) {
  return LLVMBuildPtrToInt(b, p, g->c->i64, "");
}

/* Do the loads R re-reads in l under the log (paired with a class that
 * has a member in l) stay clear of the bytes [s, s_end) over the whole
 * run of T header executions? Their addresses are linear in l: the first
 * and last iteration bound them. `apart` and-ed with that, at b. Loads
 * behind a block's store (block: that store, else NULL) are not tested. */
static LLVMValueRef loads_clear(LtGen *g, unsigned l, LLVMBuilderRef b, LLVMValueRef t,
                                LLVMValueRef s, LLVMValueRef s_end, LLVMValueRef apart,
                                LLVMValueRef block) {
  const LtLoop *L = &g->loops.loop[l];
  for (size_t k = 0; k < g->undo_order.n; k++) {
    LLVMValueRef ld = g->undo_order.v[k];
    if (!in_loop(g, l, ld) || !paired_in(g, l, ld) || behind(g, l, block, ld))
      continue;
    /* its last iteration: T - 1, or T - 2 after a header's exit test */
    int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(ld));
    unsigned long long back = L->exiting[0] == L->header && (unsigned)id != L->header ? 2 : 1;
    LLVMValueRef last = LLVMBuildSub(b, t, LLVMConstInt(g->c->i64, back, 0), "");
    LLVMValueRef p = addr_int(g, b, first(g, l, LLVMGetOperand(ld, 0), b, 0));
    LLVMValueRef q = addr_int(g, b, at_iter(g, l, LLVMGetOperand(ld, 0), b, last, 0));
    LLVMValueRef up = LLVMBuildICmp(b, LLVMIntULE, p, q, "");
    LLVMValueRef lo = LLVMBuildSelect(b, up, p, q, "");
    LLVMValueRef hi = LLVMBuildSelect(b, up, q, p, "");
    hi = LLVMBuildAdd(b, hi, LLVMConstInt(g->c->i64, size_of(g, ld), 0), "");
    LLVMValueRef below = LLVMBuildICmp(b, LLVMIntULE, hi, s, "");
    LLVMValueRef above = LLVMBuildICmp(b, LLVMIntULE, s_end, lo, "");
    apart = LLVMBuildAnd(b, apart, LLVMBuildOr(b, below, above, ""), "");
  }
  return apart;
}

LLVMValueRef lt_undo_run_apart(LtGen *g, LLVMValueRef store, unsigned l, LLVMBuilderRef b,
                               LLVMValueRef *at) {
  LtCtx *c = g->c;
  LLVMValueRef t = header_runs(g, l, b);
  LLVMValueRef apart = LLVMBuildICmp(b, LLVMIntSGT, store_runs(g, l, store, t, b),
                                     LLVMConstInt(c->i64, 0, 0), "");
  *at = first(g, l, LLVMGetOperand(store, 1), b, 0);
  LLVMValueRef s = addr_int(g, b, *at);
  LLVMValueRef s_end =
      LLVMBuildAdd(b, s, LLVMConstInt(c->i64, size_of(g, LLVMGetOperand(store, 0)), 0), "");
  apart = loads_clear(g, l, b, t, s, s_end, apart, NULL);
  LLVMSetValueName2(apart, "lt.undo.apart", 13);
  return apart;
}

/* A tested block (lt_undo_block_loop's *tested): its range lo and bytes
 * as lt_undo_block_range gives them, and whether the loads R re-reads in
 * l stay clear of it over the run (an empty run is apart too: its block
 * is empty). */
LLVMValueRef lt_undo_block_apart(LtGen *g, LLVMValueRef store, unsigned l, LLVMBuilderRef b,
                                 LLVMValueRef *lo, LLVMValueRef *bytes) {
  LtCtx *c = g->c;
  *lo = lt_undo_block_range(g, store, l, b, bytes);
  LLVMValueRef s = addr_int(g, b, *lo);
  LLVMValueRef s_end = LLVMBuildAdd(b, s, *bytes, "");
  LLVMValueRef apart = loads_clear(g, l, b, header_runs(g, l, b), s, s_end,
                                   LLVMConstInt(c->i1, 1, 0), store);
  LLVMSetValueName2(apart, "lt.undo.apart", 13);
  return apart;
}
