/* ompsync.c: the reverse inside a parallel region's derivative, where
 * the threads of the team meet.
 *
 * The reverse mirrors synchronisation: a barrier's reverse is a barrier; a
 * critical section is re-entered in the opposite order of its entries
 * (tickets, prep/omp.c: the last to enter forward enters first backward,
 * waiting for the counter). Adjoints added into memory another thread may
 * add to are atomic (analysis/ompprivate.c proves thread-private
 * locations, which keep plain stores), or go into a buffer of the thread's
 * own that is added into the shadow once, at R's exit. The region's fork
 * and its tapes are omp.c's.
 */
#include "lt.h"

#include <stdio.h>

/* lt.omp.wait(turn, want): spin (yielding) until the counter says want. */
static LLVMValueRef wait_fn(LtCtx *c) {
  LLVMTypeRef pt[2] = {c->ptr, c->i64};
  LLVMBasicBlockRef entry;
  LLVMValueRef f = lt_helper_fn(c, "lt.omp.wait", LLVMFunctionType(c->vd, pt, 2, 0), &entry);
  if (!entry)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef spin = LLVMAppendBasicBlockInContext(c->llctx, f, "spin");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildBr(b, spin);
  LLVMPositionBuilderAtEnd(b, spin);
  LLVMValueRef v = LLVMBuildLoad2(b, c->i64, LLVMGetParam(f, 0), "");
  LLVMSetOrdering(v, LLVMAtomicOrderingAcquire);
  LLVMSetAlignment(v, 8);
  LLVMBasicBlockRef yield = LLVMAppendBasicBlockInContext(c->llctx, f, "yield");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntEQ, v, LLVMGetParam(f, 1), ""), done, yield);
  LLVMPositionBuilderAtEnd(b, yield);
  lt_omp_call(b, lt_omp_decl(c, "sched_yield", c->i32, NULL, 0, 0), NULL, 0);
  LLVMBuildBr(b, spin);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

int lt_omp_reverse_sync(LtGen *g, LLVMValueRef call) {
  LtCtx *c = g->c;
  LtOmpKind k = lt_omp_kind(call, NULL);
  if (k == LT_OMP_BARRIER) {
    LLVMValueRef loc = lt_rv(g, LLVMGetOperand(call, 0));
    LLVMTypeRef gt[1] = {c->ptr};
    LLVMValueRef gtid =
        lt_omp_call(g->b, lt_omp_decl(c, "__kmpc_global_thread_num", c->i32, gt, 1, 0), &loc, 1);
    LLVMTypeRef pt[2] = {c->ptr, c->i32};
    LLVMValueRef a[2] = {loc, gtid};
    lt_omp_call(g->b, lt_omp_decl(c, "__kmpc_barrier", c->vd, pt, 2, 0), a, 2);
    return 0;
  }
  LLVMValueRef turn = LLVMGetOperand(call, 3);
  if (k == LT_OMP_TICKET_END) {
    /* the reverse enters: after every later entry has left */
    LLVMValueRef t = lt_rv(g, LLVMGetOperand(call, 4));
    LLVMValueRef a[2] = {turn, LLVMBuildAdd(g->b, t, lt_omp_i64(c, 1), "")};
    lt_omp_call(g->b, wait_fn(c), a, 2);
    return 0;
  }
  /* the reverse of the entry leaves: the earlier entry may go */
  LLVMValueRef st = LLVMBuildStore(g->b, lt_rv(g, call), turn);
  LLVMSetOrdering(st, LLVMAtomicOrderingRelease);
  LLVMSetAlignment(st, 8);
  return 0;
}

/* *p += d, atomically when another thread may add to *p too. */
void lt_omp_accumulate(LtGen *g, LLVMValueRef p, LLVMValueRef d, unsigned align,
                       int shared, LLVMValueRef from) {
  LLVMTypeRef t = LLVMTypeOf(d);
  if (!shared) {
    LLVMValueRef old = LLVMBuildLoad2(g->b, t, p, "");
    LLVMSetAlignment(old, align);
    LLVMValueRef s = LLVMBuildStore(g->b, lt_build_accum(g->b, old, d), p);
    LLVMSetAlignment(s, align);
    lt_scope_shadow(g, old, from);
    lt_scope_shadow(g, s, from);
    return;
  }
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind) {
    LLVMTypeRef et = LLVMGetElementType(t);
    for (unsigned k = 0, n = LLVMGetVectorSize(t); k < n; k++) {
      LLVMValueRef ix = LLVMConstInt(g->c->i32, k, 0);
      LLVMValueRef lane = LLVMBuildGEP2(g->b, et, p, &ix, 1, "");
      lt_omp_accumulate(g, lane, LLVMBuildExtractElement(g->b, d, ix, ""),
                        (unsigned)LLVMABIAlignmentOfType(g->c->td, et), 1, from);
    }
    return;
  }
  LLVMValueRef r = LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpFAdd, p, d,
                                      LLVMAtomicOrderingMonotonic, 0);
  /* A float's natural alignment, even where the primal's access says less
   * (LICM's promoted loads say 1): a less aligned atomic is a libatomic
   * call, and C's floats are aligned. */
  unsigned nat = (unsigned)LLVMABIAlignmentOfType(g->c->td, t);
  LLVMSetAlignment(r, align > nat ? align : nat);
}

/* Thread-private adjoint buffers. A pointer parameter of a parallel
 * region that the region only reads (an array every thread reads, such as
 * the weights of a data-parallel loss or the vector of a matrix-vector
 * product) gets adjoints from every thread: atomic additions, one per
 * read. When the bytes those reads touch form a range known at R's entry
 * (the addresses do not depend on the thread's worksharing bounds), each
 * thread adds into a zeroed buffer of that range instead, plainly, and
 * adds the buffer into the shadow at R's exit, atomically, once per
 * element it touched: a reduction of the adjoint, as OpenMP reduces a
 * reduction variable. Shared reads whose range is not known stay atomic
 * (both kinds of addition commute), and reads proven thread-private stay
 * plain: no other thread's buffer has an element they touch. */
struct LtOmpPriv {
  LLVMValueRef shadow; /* R's parameter: its shadow */
  LLVMValueRef buf;    /* the thread's buffer (R's entry) */
  LLVMValueRef bias;   /* param - lo, i64: buf + (wr - shadow) + bias */
  LLVMValueRef count;  /* elements of the buffer, i64 */
  LLVMTypeRef ty;      /* the element: double or float */
};

/* The scalar float type of an adjoint of t (a float or a vector of one). */
static LLVMTypeRef element_of(LLVMTypeRef t) {
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  return lt_is_float_ty(t) ? t : NULL;
}

/* May an instruction of P write memory that v may address? (A buffered
 * adjoint is added back only at the end: a write's reverse in between
 * would miss what reads after the write added.) */
static int written(LtGen *g, LLVMValueRef v) {
  for (unsigned b = 0; b < g->g.nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g.block[b]); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef w[5];
      for (unsigned k = 0, n = lt_writes_of(g->c, i, w); k < n; k++)
        if (w[k] == LT_CLOBBER || lt_points_may_alias(&g->act_of.pts, w[k], v))
          return 1;
    }
  return 0;
}

/* The reads of v (a parameter, through GEPs and casts) into *reads as
 * (load, address) pairs; 0 when v has any other use. */
static int only_reads(LLVMValueRef v, LtVec *reads, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef i = LLVMGetUser(u);
    if (LLVMIsALoadInst(i) && !LLVMGetVolatile(i) &&
        LLVMGetOrdering(i) == LLVMAtomicOrderingNotAtomic) {
      lt_vec_push(reads, i);
      lt_vec_push(reads, v);
    } else if ((LLVMIsAGetElementPtrInst(i) || LLVMIsABitCastInst(i)) && depth < 8 &&
               LLVMGetOperand(i, 0) == v) {
      if (!only_reads(i, reads, depth + 1))
        return 0;
    } else {
      return 0;
    }
  }
  return 1;
}

void lt_omp_privatize(LtGen *g) {
  LtCtx *c = g->c;
  unsigned shadow_ix = g->nparams;
  g->priv = lt_xcalloc(g->nparams + 1, sizeof *g->priv);
  lt_map_init(&g->priv_of, 16);
  for (unsigned p = 0; p < g->nparams; p++) {
    if (!lt_is_dup(g->act[p]))
      continue;
    unsigned sx = shadow_ix++;
    LLVMValueRef prm = LLVMGetParam(g->P, p);
    if (g->act[p] == LT_DUPNULL || !lt_is_ptr_ty(LLVMTypeOf(prm)))
      continue;
    LtVec all = {0}, shared = {0};
    LLVMTypeRef ty = NULL;
    int ok = only_reads(prm, &all, 0) && !written(g, prm);
    for (size_t k = 0; ok && k < all.n; k += 2) {
      LLVMValueRef ld = all.v[k], addr = LLVMGetOperand(ld, 0);
      if (!lt_is_varied(&g->act_of, ld) || lt_omp_private(&g->fx, ld, addr))
        continue;
      LLVMTypeRef et = element_of(LLVMTypeOf(ld));
      if (!et || (ty && et != ty) || !lt_range_ok(&g->fx, ld, addr))
        continue; /* stays atomic */
      ty = et;
      lt_vec_push(&shared, ld);
      lt_vec_push(&shared, addr);
    }
    LLVMValueRef lo, hi;
    if (ok && shared.n &&
        lt_range_hull(&g->fx, g->R, g->eb, (LLVMValueRef *)shared.v, shared.n, &lo, &hi)) {
      struct LtOmpPriv *q = &g->priv[g->npriv++];
      unsigned long long es = LLVMABISizeOfType(c->td, ty);
      q->shadow = LLVMGetParam(g->R, sx);
      q->ty = ty;
      /* an empty range (loops that run no iteration): no element */
      LLVMValueRef bytes = LLVMBuildSub(g->eb, hi, lo, "");
      bytes = LLVMBuildSelect(g->eb, LLVMBuildICmp(g->eb, LLVMIntSLT, bytes, lt_omp_i64(c, 0), ""),
                              lt_omp_i64(c, 0), bytes, "");
      q->count = LLVMBuildUDiv(g->eb, LLVMBuildAdd(g->eb, bytes, lt_omp_i64(c, es - 1), ""),
                               lt_omp_i64(c, es), "lt.priv.n");
      LLVMValueRef a[2] = {q->count, lt_omp_i64(c, es)};
      LLVMTypeRef ct[2] = {c->i64, c->i64};
      q->buf = lt_omp_call(g->eb, lt_omp_decl(c, "calloc", c->ptr, ct, 2, 0), a, 2);
      LLVMSetValueName2(q->buf, "lt.priv", 7);
      q->bias = LLVMBuildSub(g->eb, LLVMBuildPtrToInt(g->eb, LLVMGetParam(g->R, p), c->i64, ""),
                             lo, "lt.priv.bias");
      for (size_t k = 0; k < shared.n; k += 2)
        lt_map_put(&g->priv_of, shared.v[k], (void *)(size_t)g->npriv);
    }
    lt_vec_free(&all);
    lt_vec_free(&shared);
  }
}

LLVMValueRef lt_omp_private_shadow(LtGen *g, LLVMValueRef ld, LLVMValueRef wr) {
  size_t k = g->priv ? (size_t)lt_map_get(&g->priv_of, ld) : 0;
  if (!k)
    return NULL;
  struct LtOmpPriv *q = &g->priv[k - 1];
  LLVMValueRef off = LLVMBuildSub(g->b, LLVMBuildPtrToInt(g->b, wr, g->c->i64, ""),
                                  LLVMBuildPtrToInt(g->b, q->shadow, g->c->i64, ""), "");
  return lt_omp_at(g->c, g->b, q->buf, LLVMBuildAdd(g->b, off, q->bias, ""));
}

/* lt.omp.flush.<ty>(buf, dst, n): dst[e] += buf[e] (atomic) for each
 * element the thread touched (non-zero). */
static LLVMValueRef flush_fn(LtCtx *c, LLVMTypeRef ty) {
  char name[40];
  snprintf(name, sizeof name, "lt.omp.flush.%s",
           LLVMGetTypeKind(ty) == LLVMDoubleTypeKind ? "f64" : "f32");
  LLVMTypeRef pt[3] = {c->ptr, c->ptr, c->i64};
  LLVMBasicBlockRef entry;
  LLVMValueRef f = lt_helper_fn(c, name, LLVMFunctionType(c->vd, pt, 3, 0), &entry);
  if (!entry)
    return f;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->llctx, f, "loop");
  LLVMBasicBlockRef add = LLVMAppendBasicBlockInContext(c->llctx, f, "add");
  LLVMBasicBlockRef next = LLVMAppendBasicBlockInContext(c->llctx, f, "next");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, LLVMGetParam(f, 2), lt_omp_i64(c, 0), ""), loop,
                  done);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef e = LLVMBuildPhi(b, c->i64, "e");
  LLVMValueRef src = LLVMBuildGEP2(b, ty, LLVMGetParam(f, 0), &e, 1, "");
  LLVMValueRef v = LLVMBuildLoad2(b, ty, src, "");
  LLVMBuildCondBr(b, LLVMBuildFCmp(b, LLVMRealONE, v, LLVMConstNull(ty), ""), add, next);
  LLVMPositionBuilderAtEnd(b, add);
  LLVMValueRef dst = LLVMBuildGEP2(b, ty, LLVMGetParam(f, 1), &e, 1, "");
  LLVMValueRef r = LLVMBuildAtomicRMW(b, LLVMAtomicRMWBinOpFAdd, dst, v, LLVMAtomicOrderingMonotonic, 0);
  LLVMSetAlignment(r, (unsigned)LLVMABIAlignmentOfType(c->td, ty));
  LLVMBuildBr(b, next);
  LLVMPositionBuilderAtEnd(b, next);
  LLVMValueRef e1 = LLVMBuildAdd(b, e, lt_omp_i64(c, 1), "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, e1, LLVMGetParam(f, 2), ""), loop, done);
  LLVMValueRef inc[2] = {lt_omp_i64(c, 0), e1};
  LLVMBasicBlockRef from[2] = {entry, next};
  LLVMAddIncoming(e, inc, from, 2);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
  return f;
}

void lt_omp_flush(LtGen *g) {
  for (unsigned k = 0; k < g->npriv; k++) {
    struct LtOmpPriv *q = &g->priv[k];
    LLVMValueRef nb = LLVMBuildNeg(g->b, q->bias, "");
    LLVMValueRef a[3] = {q->buf, lt_omp_at(g->c, g->b, q->shadow, nb), q->count};
    lt_omp_call(g->b, flush_fn(g->c, q->ty), a, 3);
    lt_build_free(g->b, g->c->mod, q->buf);
  }
}
