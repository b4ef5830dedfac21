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

static int clonable_op(LLVMOpcode op) {
  switch (op) {
  case LLVMGetElementPtr: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl:
  case LLVMOr: case LLVMSExt: case LLVMZExt: case LLVMTrunc: case LLVMBitCast:
    return 1;
  default:
    return 0;
  }
}

/* v at l's first iteration, emitted at b (A's values); with b NULL, only
 * whether it can be: NULL when not. */
static LLVMValueRef first(LtGen *g, unsigned l, LLVMValueRef v, LLVMBuilderRef b,
                          unsigned depth) {
  if (depth > 32)
    return NULL;
  if (!in_loop(g, l, v)) {
    if (!b)
      return v;
    LLVMValueRef m = lt_map_get(&g->fmap, v);
    return m ? m : v;
  }
  if (LLVMIsAPHINode(v)) {
    LLVMValueRef s = counter_start(g, l, v);
    return s ? first(g, l, s, b, depth + 1) : NULL;
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (!clonable_op(op))
    return NULL;
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  LLVMValueRef ops[16];
  if (n > 16)
    return NULL;
  for (unsigned k = 0; k < n; k++)
    if (!(ops[k] = first(g, l, LLVMGetOperand(v, k), b, depth + 1)))
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

/* The bytes the store writes per iteration of l and its byte step, when
 * its address is affine in l with a step of exactly that size. */
static int dense(LtGen *g, unsigned l, LLVMValueRef store, long long *step) {
  LLVMValueRef addr = LLVMGetOperand(store, 1);
  long long size = (long long)LLVMStoreSizeOfType(g->c->td, LLVMTypeOf(LLVMGetOperand(store, 0)));
  LtAffine a;
  if (lt_affine_of(&g->ind, g->c->td, addr, (int)l, &a))
    return 0;
  long long c = 0;
  for (unsigned k = 0; k < a.nterm; k++)
    if (a.loop[k] == l)
      c += a.coef[k];
  lt_affine_free(&a);
  *step = c;
  return size > 0 && (c == size || c == -size);
}

int lt_undo_block_loop(LtGen *g, LLVMValueRef store) {
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
  if (!lt_cfg_dominates(&g->g, (unsigned)id, (unsigned)L->latch))
    return -1; /* not in every iteration */
  long long step;
  if (!dense(g, (unsigned)l, store, &step) ||
      !first(g, (unsigned)l, LLVMGetOperand(store, 1), NULL, 0))
    return -1;
  /* no load re-read through the log inside l that the store may write */
  void *cls = lt_map_get(&g->ow.store_class, store);
  for (size_t k = 0; k < g->undo_order.n; k++) {
    if (!in_loop(g, (unsigned)l, g->undo_order.v[k]))
      continue;
    LtVec *lists = lt_map_get(&g->ow.cand, g->undo_order.v[k]);
    for (size_t j = 0; lists && j < lists->n; j++)
      if (lists->v[j] == cls)
        return -1;
  }
  return l;
}

LLVMValueRef lt_undo_block_range(LtGen *g, LLVMValueRef store, unsigned l, LLVMBuilderRef b,
                                 LLVMValueRef *bytes) {
  LtCtx *c = g->c;
  const LtLoop *L = &g->loops.loop[l];
  LtTrip m = g->ind.trip[l];
  LLVMValueRef ms = lt_map_get(&g->fmap, m.start), mb = lt_map_get(&g->fmap, m.bound);
  m.start = ms ? ms : m.start;
  m.bound = mb ? mb : m.bound;
  LLVMValueRef n = LLVMBuildSExtOrBitCast(b, lt_trip_emit(b, &m), c->i64, "");
  /* header executions T: a store after the header's exit test runs T - 1
   * times, one before it (or in a loop leaving from its latch) T times */
  int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(store));
  if (L->exiting[0] == L->header && (unsigned)id != L->header)
    n = LLVMBuildSub(b, n, LLVMConstInt(c->i64, 1, 0), "");
  n = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, n, LLVMConstInt(c->i64, 0, 0), ""), n,
                      LLVMConstInt(c->i64, 0, 0), "lt.undo.iters");
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
