/* loopfwd.c: loop state of the augmented forward function A.
 *
 * Every loop L gets three allocas in A (promoted by the cleanup pipeline):
 * n_L, the header executions so far (this is the running index into L's
 * cache, across all executions of the enclosing loops), cur_L, the index of
 * the current iteration, and buf_L, the cache. At each header execution
 * cur = n++, and the cache grows geometrically (a call to lt.tape.grow that
 * reallocates only when cur is 0 or a power of two >= 16), so allocation
 * calls grow with the log of the work. The tape header receives buf_L and
 * n_L when A returns; the reverse function counts n_L back down.
 */
#include "lt.h"

#include <stdlib.h>

static LLVMValueRef grow_fn(LtCtx *c) {
  LLVMTypeRef pt[3] = {c->ptr, c->i64, c->i64};
  LLVMBasicBlockRef e;
  LLVMValueRef f = lt_helper_fn(c, "lt.tape.grow", LLVMFunctionType(c->ptr, pt, 3, 0), &e);
  if (!e)
    return f;
  LLVMBasicBlockRef g = LLVMAppendBasicBlockInContext(c->llctx, f, "grow");
  LLVMBasicBlockRef k = LLVMAppendBasicBlockInContext(c->llctx, f, "keep");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMValueRef buf = LLVMGetParam(f, 0), idx = LLVMGetParam(f, 1),
               rs = LLVMGetParam(f, 2);
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), one = LLVMConstInt(c->i64, 1, 0);
  LLVMPositionBuilderAtEnd(b, e);
  LLVMValueRef first = LLVMBuildICmp(b, LLVMIntEQ, idx, zero, "");
  LLVMValueRef big = LLVMBuildICmp(b, LLVMIntUGE, idx, LLVMConstInt(c->i64, 16, 0), "");
  LLVMValueRef pow2 = LLVMBuildICmp(
      b, LLVMIntEQ, LLVMBuildAnd(b, idx, LLVMBuildSub(b, idx, one, ""), ""), zero, "");
  LLVMValueRef need = LLVMBuildOr(b, first, LLVMBuildAnd(b, big, pow2, ""), "");
  LLVMBuildCondBr(b, need, g, k);
  LLVMPositionBuilderAtEnd(b, g);
  LLVMValueRef cap = LLVMBuildSelect(b, first, LLVMConstInt(c->i64, 16, 0),
                                     LLVMBuildShl(b, idx, one, ""), "");
  LLVMTypeRef rt[2] = {c->ptr, c->i64};
  LLVMTypeRef rfty = LLVMFunctionType(c->ptr, rt, 2, 0);
  LLVMValueRef args[2] = {buf, LLVMBuildMul(b, cap, rs, "")};
  LLVMValueRef nb = LLVMBuildCall2(b, rfty, lt_decl_fn(c->mod, "realloc", rfty), args, 2, "");
  lt_arena_huge(c, b, nb, args[1]); /* large caches: 2 MiB pages (arena.c) */
  LLVMBuildRet(b, nb);
  LLVMPositionBuilderAtEnd(b, k);
  LLVMBuildRet(b, buf);
  LLVMDisposeBuilder(b);
  return f;
}

void lt_forward_loop_state(LtGen *g) {
  LtCtx *c = g->c;
  unsigned n = g->loops.nloops;
  g->a_n = lt_xcalloc(n, sizeof *g->a_n);
  g->a_cur = lt_xcalloc(n, sizeof *g->a_cur);
  g->a_buf = lt_xcalloc(n, sizeof *g->a_buf);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(g->A)));
  for (unsigned l = 0; l < n; l++) {
    g->a_n[l] = LLVMBuildAlloca(b, c->i64, "lt.n");
    g->a_cur[l] = LLVMBuildAlloca(b, c->i64, "lt.cur");
    g->a_buf[l] = LLVMBuildAlloca(b, c->ptr, "lt.buf");
    LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), g->a_n[l]);
    LLVMBuildStore(b, LLVMConstInt(c->i64, 0, 0), g->a_cur[l]);
    LLVMBuildStore(b, LLVMConstNull(c->ptr), g->a_buf[l]);
  }
  LLVMDisposeBuilder(b);
}

static LLVMValueRef amap(LtGen *g, LLVMValueRef v) {
  LLVMValueRef m = lt_map_get(&g->fmap, v);
  return m ? m : v;
}

static int defined_outside(LtGen *g, LLVMValueRef v, unsigned top) {
  if (!LLVMIsAInstruction(v))
    return 1;
  int id = lt_cfg_id(&g->g, LLVMGetInstructionParent(v));
  return id >= 0 && !lt_loop_contains(&g->loops, top, (unsigned)id);
}

static LLVMValueRef trip_at(LtGen *g, unsigned l, unsigned top, LLVMValueRef *at,
                            LLVMBuilderRef b);

LLVMValueRef lt_forward_trip(LtGen *g, unsigned l, unsigned top, LLVMBuilderRef b) {
  return trip_at(g, l, top, NULL, b);
}

/* v at top's preheader, or, when v varies with enclosing counters (a
 * triangular bound), its largest (hi) or smallest value over their ranges:
 * an affine form takes its extremes at the ends. A counter given in at
 * (loop id -> its value, or NULL) is taken at that value instead. NULL
 * when unknown. */
static LLVMValueRef extreme(LtGen *g, LLVMValueRef v, unsigned top, int scope,
                            int hi, LLVMValueRef *at, LLVMBuilderRef b) {
  if (defined_outside(g, v, top))
    return amap(g, v);
  /* affine in the counters of the loops around scope (the loop whose
   * bound v is lives in scope), the deeper ones included */
  LtAffine a;
  if (LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMIntegerTypeKind || scope < 0 ||
      lt_affine_of(&g->ind, g->c->td, v, scope, &a))
    return NULL;
  LLVMTypeRef i64 = g->c->i64;
  LLVMValueRef acc = LLVMConstInt(i64, (unsigned long long)a.off, 1);
  for (unsigned k = 0; k < a.ninv && acc; k++) {
    LLVMValueRef x = amap(g, a.inv[k]);
    if (!defined_outside(g, a.inv[k], top) ||
        LLVMGetTypeKind(LLVMTypeOf(x)) != LLVMIntegerTypeKind) {
      acc = NULL;
      break;
    }
    x = LLVMBuildSExtOrBitCast(b, x, i64, "");
    acc = LLVMBuildAdd(b, acc, LLVMBuildMul(b, x, LLVMConstInt(i64, (unsigned long long)a.icoef[k], 1), ""), "");
  }
  for (unsigned k = 0; k < a.nterm && acc; k++) {
    LLVMValueRef c = at ? at[a.loop[k]] : NULL;
    if (c) {
      acc = LLVMBuildAdd(b, acc, LLVMBuildMul(b, c, LLVMConstInt(i64, (unsigned long long)a.coef[k], 1), ""), "");
      continue;
    }
    if ((a.coef[k] > 0) != (hi != 0))
      continue; /* this term is smallest at iteration 0 */
    LLVMValueRef n = trip_at(g, a.loop[k], top, at, b);
    if (!n) {
      acc = NULL;
      break;
    }
    LLVMValueRef last = LLVMBuildSub(b, n, LLVMConstInt(i64, 1, 0), "");
    acc = LLVMBuildAdd(b, acc, LLVMBuildMul(b, last, LLVMConstInt(i64, (unsigned long long)a.coef[k], 1), ""), "");
  }
  lt_affine_free(&a);
  return acc;
}

/* Header executions of loop l per entry (an upper bound when its bounds
 * depend on enclosing counters not given in at), emitted at b in the
 * preheader of the outermost loop top or below it; NULL when not
 * computable there. */
static LLVMValueRef trip_at(LtGen *g, unsigned l, unsigned top, LLVMValueRef *at,
                            LLVMBuilderRef b) {
  const LtTrip *t = &g->ind.trip[l];
  if (!t->known)
    return NULL;
  /* The count grows with bound - start (step > 0) or start - bound. */
  int up = t->step > 0;
  LtTrip m = *t;
  /* A loop that ends on iv != bound reaches the bound exactly, so counting
   * while iv < bound (rounding up) gives the same count, and stays an upper
   * bound when the bounds vary. */
  if (m.pred == LLVMIntNE)
    m.pred = up ? LLVMIntSLT : LLVMIntSGT;
  int scope = g->loops.loop[l].parent;
  m.start = extreme(g, t->start, top, scope, !up, at, b);
  m.bound = extreme(g, t->bound, top, scope, up, at, b);
  if (t->vstep)
    m.vstep = defined_outside(g, t->vstep, top) ? amap(g, t->vstep) : NULL;
  if (!m.start || !m.bound || (t->vstep && !m.vstep))
    return NULL;
  return lt_trip_emit(b, &m);
}

/* Does the trip count of l, or of a loop around it inside top, vary with
 * the counters around it (a triangular nest: for j < i)? */
static int triangular(LtGen *g, unsigned l, unsigned top) {
  for (int k = (int)l; k >= 0 && (unsigned)k != top; k = g->loops.loop[k].parent) {
    const LtTrip *t = &g->ind.trip[k];
    if (!t->known)
      return 0;
    if (!defined_outside(g, t->start, top) || !defined_outside(g, t->bound, top))
      return 1;
  }
  return 0;
}

/* The header executions of l in one run of the nest under top, exactly:
 * loops over the counters of l's enclosing loops (top first) around the
 * sum of l's trip count at each, in blocks of their own split off before
 * the preheader's terminator t. For a triangular nest the product of the
 * largest trip counts overshoots by about the factorial of the depth
 * (k < j < i < n: n^3 records for n^3/6 iterations). The count runs at
 * most one iteration per iteration of l's parent, a trip count of l fewer
 * than the nest itself, and only over the loops whose counters bounds
 * read. NULL when a trip count is not computable (then the blocks are
 * dead). */
/* May the trip count of loop m vary with the counter of loop k? (Unknown
 * forms: yes.) */
static int varies_with(LtGen *g, unsigned m, unsigned k, unsigned top) {
  const LtTrip *t = &g->ind.trip[m];
  LLVMValueRef v[2] = {t->start, t->bound};
  for (int q = 0; q < 2; q++) {
    if (defined_outside(g, v[q], top))
      continue;
    LtAffine a;
    if (lt_affine_of(&g->ind, g->c->td, v[q], g->loops.loop[m].parent, &a))
      return 1;
    int uses = 0;
    for (unsigned i = 0; i < a.nterm; i++)
      uses |= a.loop[i] == k;
    lt_affine_free(&a);
    if (uses)
      return 1;
  }
  return 0;
}

static LLVMValueRef exact_count(LtGen *g, unsigned l, unsigned top, LLVMValueRef t,
                                LLVMBuilderRef b) {
  LtCtx *c = g->c;
  unsigned nc = 0;
  for (int k = g->loops.loop[l].parent; k >= 0; k = g->loops.loop[k].parent)
    nc++;
  unsigned *chain = lt_xcalloc(nc + 1, sizeof *chain); /* inner to outer */
  LLVMValueRef *ctr = lt_xcalloc(nc + 1, sizeof *ctr), *trip = lt_xcalloc(nc + 1, sizeof *trip);
  LLVMBasicBlockRef *head = lt_xcalloc(nc + 1, sizeof *head);
  LLVMValueRef *at = lt_xcalloc(g->loops.nloops, sizeof *at);
  nc = 0;
  for (int k = g->loops.loop[l].parent; k >= 0; k = g->loops.loop[k].parent)
    chain[nc++] = (unsigned)k;
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), one = LLVMConstInt(c->i64, 1, 0);
  LLVMBuilderRef eb = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(eb, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(g->A)));
  LLVMValueRef sum = LLVMBuildAlloca(eb, c->i64, "lt.count");
  for (unsigned k = 0; k < nc; k++)
    ctr[k] = LLVMBuildAlloca(eb, c->i64, "lt.count.iv");
  LLVMDisposeBuilder(eb);
  LLVMBasicBlockRef bb = LLVMGetInstructionParent(t);
  LLVMBasicBlockRef pre = lt_split_before(c->llctx, t);
  if (!lt_map_get(&g->fentry, bb)) /* its edges now enter pre */
    lt_map_put(&g->fentry, bb, pre);
  LLVMPositionBuilderAtEnd(b, pre);
  LLVMBuildStore(b, zero, sum);
  int ok = 1;
  /* A loop whose counter no trip count below it reads is not iterated:
   * the sum below it is the same in each of its iterations, so its trip
   * count multiplies (a rectangular loop around a triangular pair costs
   * nothing). Were the answer wrong, the extremes would stand in for its
   * counter: still an upper bound. */
  LLVMValueRef weight = one;
  for (unsigned k = nc; k-- > 0;) {
    trip[k] = trip_at(g, chain[k], top, at, b);
    if (!trip[k]) {
      ok = 0;
      trip[k] = one;
    }
    int used = varies_with(g, l, chain[k], top);
    for (unsigned q = 0; q < k && !used; q++)
      used = varies_with(g, chain[q], chain[k], top);
    if (!used) {
      weight = LLVMBuildMul(b, weight, trip[k], "");
      head[k] = NULL;
      continue;
    }
    LLVMBuildStore(b, zero, ctr[k]);
    head[k] = LLVMInsertBasicBlockInContext(c->llctx, bb, "lt.count");
    LLVMBuildBr(b, head[k]);
    LLVMPositionBuilderAtEnd(b, head[k]);
    at[chain[k]] = LLVMBuildLoad2(b, c->i64, ctr[k], "");
  }
  LLVMValueRef n = trip_at(g, l, top, at, b);
  if (!n) {
    ok = 0;
    n = one;
  }
  n = LLVMBuildMul(b, weight, n, "");
  LLVMBuildStore(b, LLVMBuildAdd(b, LLVMBuildLoad2(b, c->i64, sum, ""), n, ""), sum);
  for (unsigned k = 0; k < nc; k++) {
    if (!head[k])
      continue;
    LLVMValueRef next = LLVMBuildAdd(b, at[chain[k]], one, "");
    LLVMBuildStore(b, next, ctr[k]);
    LLVMBasicBlockRef done = LLVMInsertBasicBlockInContext(c->llctx, bb, "lt.count.done");
    LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, next, trip[k], ""), head[k], done);
    LLVMPositionBuilderAtEnd(b, done);
  }
  LLVMBuildBr(b, bb);
  LLVMPositionBuilderBefore(b, t);
  LLVMValueRef r = ok ? LLVMBuildLoad2(b, c->i64, sum, "") : NULL;
  free(chain);
  free(ctr);
  free(trip);
  free(head);
  free(at);
  return r;
}

static unsigned top_of(LtGen *g, unsigned l) {
  while (g->loops.loop[l].parent >= 0)
    l = (unsigned)g->loops.loop[l].parent;
  return l;
}

unsigned lt_forward_top(LtGen *g, unsigned l) { return top_of(g, l); }

LLVMValueRef lt_forward_nest_count(LtGen *g, unsigned l, LLVMBuilderRef b) {
  unsigned top = top_of(g, l);
  if (g->loops.loop[top].preheader < 0)
    return NULL;
  LLVMBasicBlockRef ph = g->g.block[g->loops.loop[top].preheader];
  LLVMValueRef t = LLVMGetBasicBlockTerminator(
      LLVMValueAsBasicBlock(amap(g, LLVMBasicBlockAsValue(ph))));
  /* every trip count of the chain computable there (exact_count's too) */
  LLVMPositionBuilderBefore(b, t);
  for (int k = (int)l; k >= 0; k = g->loops.loop[k].parent)
    if (!trip_at(g, (unsigned)k, top, NULL, b))
      return NULL; /* the instructions emitted so far are dead */
  return triangular(g, l, top) ? exact_count(g, l, top, t, b) : NULL;
}

/* A loop whose own and enclosing trip counts are known before the nest
 * starts gets its whole cache in one allocation there: no call, check or
 * branch in the loop. Returns 1 when done. */
static int preallocate(LtGen *g, unsigned l, LLVMBuilderRef b) {
  unsigned top = top_of(g, l);
  LLVMBasicBlockRef ph = g->g.block[g->loops.loop[top].preheader];
  LLVMValueRef t = LLVMGetBasicBlockTerminator(
      LLVMValueAsBasicBlock(amap(g, LLVMBasicBlockAsValue(ph))));
  LLVMPositionBuilderBefore(b, t);
  LLVMValueRef cap = NULL;
  for (int k = (int)l; k >= 0; k = g->loops.loop[k].parent) {
    LLVMValueRef n = trip_at(g, (unsigned)k, top, NULL, b);
    if (!n)
      return 0; /* the instructions emitted so far are dead; cleanup drops them */
    cap = cap ? LLVMBuildMul(b, cap, n, "") : n;
  }
  if (triangular(g, l, top)) {
    /* both are upper bounds: the least */
    LLVMValueRef ex = exact_count(g, l, top, t, b);
    if (ex)
      cap = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntULT, ex, cap, ""), ex, cap, "");
  }
  LLVMValueRef size = LLVMBuildMul(b, cap, LLVMConstInt(g->c->i64, g->plan.rec_size[l], 0),
                                   "lt.cachesize");
  /* Under __enzyme_autodiff, on the arena: released where the reverse
   * pass leaves the nest, before the caches of the nest allocated earlier
   * (loops go outer first here), so last in first out with the sub-tapes
   * the loops take from it. The top level's too: the arena asks malloc
   * for one chunk that holds them all, which glibc then keeps between
   * gradients; caches malloc'd one by one, whose sum came near glibc's
   * trim threshold, were given back and faulted in again every gradient
   * (an in-place LU of 128: twice the time). */
  int arena = g->lifo && g->r_enter[top] && g->r_free[l] && !g->nofree;
  LLVMValueRef buf = arena ? lt_arena_push(g->c, b, size) : lt_build_malloc(b, g->c->mod, size);
  LLVMBuildStore(b, buf, g->a_buf[l]);
  g->plan.prealloc[l] = 1;
  if (arena) {
    LLVMBuilderRef rb = LLVMCreateBuilderInContext(g->c->llctx);
    LLVMPositionBuilderBefore(rb, LLVMGetFirstInstruction(g->r_enter[top]));
    lt_arena_pop(g->c, rb, g->r_buf[l]);
    LLVMDisposeBuilder(rb);
    LLVMInstructionEraseFromParent(g->r_free[l]);
    g->r_free[l] = NULL;
  }
  return 1;
}

void lt_forward_loop_headers(LtGen *g) {
  LtCtx *c = g->c;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  for (unsigned l = 0; l < g->loops.nloops; l++) {
    LLVMBasicBlockRef ph = g->g.block[g->loops.loop[l].header];
    LLVMBasicBlockRef ah =
        LLVMValueAsBasicBlock(lt_map_get(&g->fmap, LLVMBasicBlockAsValue(ph)));
    LLVMPositionBuilderBefore(b, lt_first_non_phi(ah));
    LLVMValueRef cur = LLVMBuildLoad2(b, c->i64, g->a_n[l], "lt.cur");
    LLVMBuildStore(b, cur, g->a_cur[l]);
    LLVMValueRef st = LLVMBuildStore(
        b, LLVMBuildAdd(b, cur, LLVMConstInt(c->i64, 1, 0), ""), g->a_n[l]);
    if (!g->plan.rec_size[l] || preallocate(g, l, b) || lt_cache_reserved(g, l, st, b))
      continue;
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(st));
    LLVMValueRef gf = grow_fn(c);
    LLVMValueRef args[3] = {LLVMBuildLoad2(b, c->ptr, g->a_buf[l], ""), cur,
                            LLVMConstInt(c->i64, g->plan.rec_size[l], 0)};
    LLVMBuildStore(b, LLVMBuildCall2(b, LLVMGlobalGetValueType(gf), gf, args, 3, ""),
                   g->a_buf[l]);
  }
  LLVMDisposeBuilder(b);
}
