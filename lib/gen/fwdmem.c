/* fwdmem.c: the tangents of memory operations (forward mode).
 *
 * A load reads the tangent (or the shadow pointer) from shadow memory, a
 * store writes it there, an atomicrmw does the same operation on the
 * shadow; memcpy and memset copy or clear the shadow's bytes; an
 * allocation gets zeroed memory of the same size per lane, and a free
 * frees the shadows this function allocated. Shadows that may be null at
 * run time are accessed through guard.c. Called by fwdinst.c, fwdcall.c.
 */
#include "lt.h"

static LLVMValueRef sink(LtTg *t) {
  if (!t->sink) {
    LLVMBuilderRef b = LLVMCreateBuilderInContext(t->c->llctx);
    LLVMPositionBuilderBefore(b, LLVMGetFirstInstruction(LLVMGetEntryBasicBlock(t->T)));
    t->sink = lt_guard_sink(t->c, b);
    LLVMDisposeBuilder(b);
  }
  return t->sink;
}

/* An address to read (wr 0) or write (wr 1) lane k's shadow data of p. */
static LLVMValueRef shadow_addr(LtTg *t, LLVMValueRef p, unsigned k, int wr) {
  LLVMValueRef s = lt_fwd_shadow_lane(t, p, k);
  if (!lt_shadow_maynull(&t->g->act_of, p))
    return s;
  return wr ? lt_guard_write(t->c, t->b, s, sink(t)) : lt_guard_read(t->c, t->b, s);
}

int lt_fwd_load(LtTg *t, LLVMValueRef i) {
  LLVMValueRef p = LLVMGetOperand(i, 0);
  LLVMTypeRef ty = LLVMTypeOf(i);
  int word = lt_is_ptr_word(&t->g->act_of, i), ptr = lt_is_ptr_ty(ty) || word;
  if (ptr ? !word && !lt_fwd_shadowed(t, i) : !lt_fwd_varied(t, i))
    return 0;
  if (!lt_fwd_shadowed(t, p))
    return 0; /* inactive memory: a zero tangent (or null shadow) */
  LLVMValueRef lanes[64];
  for (unsigned k = 0; k < t->W; k++) {
    LLVMValueRef l = LLVMBuildLoad2(t->b, ty, shadow_addr(t, p, k, 0), "");
    LLVMSetAlignment(l, LLVMGetAlignment(i));
    if (LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
      LLVMSetOrdering(l, LLVMGetOrdering(i));
    lanes[k] = l;
  }
  lt_map_put(ptr ? &t->sh : &t->tan, i, lt_tg_join(t, lanes, ty));
  return 0;
}

/* atomicrmw fadd/fsub/xchg p, v: the same operation on the shadow with
 * v's tangent, whose old value is the result's tangent. */
int lt_fwd_atomicrmw(LtTg *t, LLVMValueRef i) {
  LLVMValueRef p = LLVMGetOperand(i, 0), v = LLVMGetOperand(i, 1);
  LLVMValueRef lanes[64];
  for (unsigned k = 0; k < t->W && k < 64; k++) {
    LLVMValueRef r = LLVMBuildAtomicRMW(t->b, LLVMGetAtomicRMWBinOp(i), shadow_addr(t, p, k, 1),
                                        lt_fwd_tang(t, v, (int)k), LLVMGetOrdering(i), 0);
    LLVMSetAlignment(r, LLVMGetAlignment(i));
    lanes[k] = r;
  }
  lt_map_put(&t->tan, i, lt_tg_join(t, lanes, LLVMTypeOf(i)));
  return 0;
}

/* A store writes the tangent (or the shadow pointer) into shadow memory;
 * a value without one writes zero (or null). */
int lt_fwd_store(LtTg *t, LLVMValueRef i) {
  LLVMValueRef v = LLVMGetOperand(i, 0), p = LLVMGetOperand(i, 1);
  LLVMTypeRef ty = LLVMTypeOf(v);
  if (!lt_fwd_shadowed(t, p))
    return 0;
  int ptr = lt_is_ptr_ty(ty) || lt_is_ptr_word(&t->g->act_of, v);
  /* An integer store writes its tangent bits (a copy of active data through
   * an integer) or zeros: -O2 turns memset(p, 0, 8) into `store i64 0`, and
   * the shadow must forget what was there.  Other aggregates with nothing
   * active leave the shadow alone. */
  LLVMTypeRef sty = LLVMGetTypeKind(ty) == LLVMVectorTypeKind ? LLVMGetElementType(ty) : ty;
  if (!ptr && !lt_is_diff_ty(ty) && !lt_fwd_varied(t, v) &&
      LLVMGetTypeKind(sty) != LLVMIntegerTypeKind)
    return 0;
  for (unsigned k = 0; k < t->W; k++) {
    LLVMValueRef x = ptr ? lt_fwd_shadow_lane(t, v, k) : lt_fwd_tang(t, v, (int)k);
    LLVMValueRef s = LLVMBuildStore(t->b, x, shadow_addr(t, p, k, 1));
    LLVMSetAlignment(s, LLVMGetAlignment(i));
    if (LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
      LLVMSetOrdering(s, LLVMGetOrdering(i));
  }
  return 0;
}

int lt_fwd_memcall(LtTg *t, LLVMValueRef i, LtCallKind kind) {
  LLVMValueRef dst = LLVMGetOperand(i, 0);
  if (!lt_fwd_shadowed(t, dst))
    return 0;
  LLVMValueRef n = LLVMBuildZExtOrBitCast(t->b, lt_tg_val(t, LLVMGetOperand(i, 2)),
                                          t->c->i64, "");
  LLVMValueRef src = kind == LT_CALL_MEMCPY ? LLVMGetOperand(i, 1) : NULL;
  for (unsigned k = 0; k < t->W; k++) {
    LLVMValueRef sd = lt_fwd_shadow_lane(t, dst, k);
    if (src && lt_fwd_shadowed(t, src))
      lt_guard_memmove(t->c, t->b, sd, lt_fwd_shadow_lane(t, src, k), n);
    else
      lt_guard_memset(t->c, t->b, sd, n);
  }
  return 0;
}

/* Shadows of allocations: zeroed memory of the same size, per lane. */
int lt_fwd_alloc(LtTg *t, LLVMValueRef i) {
  LtCtx *c = t->c;
  LLVMValueRef ti = lt_tg_val(t, i);
  LLVMValueRef lanes[64];
  if (LLVMIsAAllocaInst(i)) {
    LLVMTypeRef at = LLVMGetAllocatedType(i);
    LLVMValueRef cnt = lt_tg_val(t, LLVMGetOperand(i, 0));
    LLVMValueRef size = LLVMBuildMul(t->b, LLVMBuildZExtOrBitCast(t->b, cnt, c->i64, ""),
                                     LLVMConstInt(c->i64, LLVMABISizeOfType(c->td, at), 0), "");
    LLVMSetAlignment(ti, lt_local_align(c, ti)); /* and its tangents alike */
    for (unsigned k = 0; k < t->W; k++) {
      LLVMBuilderRef ab = LLVMCreateBuilderInContext(c->llctx);
      LLVMPositionBuilderBefore(ab, ti);
      LLVMValueRef s = LLVMBuildArrayAlloca(ab, at, cnt, "");
      LLVMSetAlignment(s, LLVMGetAlignment(ti));
      LLVMDisposeBuilder(ab);
      LLVMBuildMemSet(t->b, s, LLVMConstInt(c->i8, 0, 0), size, LLVMGetAlignment(ti));
      lanes[k] = s;
    }
  } else {
    const LtAllocFn *af = lt_alloc_fn(i);
    LLVMValueRef size = LLVMBuildZExtOrBitCast(t->b, LLVMGetOperand(ti, (unsigned)af->size_arg),
                                               c->i64, "");
    if (af->count_arg >= 0)
      size = LLVMBuildMul(t->b, size,
                          LLVMBuildZExtOrBitCast(t->b, LLVMGetOperand(ti, (unsigned)af->count_arg),
                                                 c->i64, ""), "");
    for (unsigned k = 0; k < t->W; k++) {
      if (af->old_arg >= 0) {
        LLVMValueRef old = LLVMGetOperand(i, (unsigned)af->old_arg);
        lanes[k] = lt_shadow_realloc(c, t->b, lt_fwd_shadow_lane(t, old, k), size, ti);
        if (lt_points_all_heap(&t->g->act_of.pts, old))
          lt_shadow_free(c, t->b, lt_fwd_shadow_lane(t, old, k)); /* the primal freed it */
      } else if (lt_shadow_plain(&t->g->act_of, i)) {
        lanes[k] = lt_shadow_alloc_plain(c, t->b, ti, size);
      } else {
        lanes[k] = lt_shadow_alloc(c, t->b, size,
                                   af->align_arg >= 0 ? LLVMGetOperand(ti, (unsigned)af->align_arg)
                                                      : NULL,
                                   af->out_arg >= 0 ? NULL : ti);
      }
    }
    if (af->out_arg >= 0) { /* posix_memalign: through the out pointer */
      LLVMValueRef out = LLVMGetOperand(i, (unsigned)af->out_arg);
      for (unsigned k = 0; k < t->W; k++)
        LLVMBuildStore(t->b, lanes[k], shadow_addr(t, out, k, 1));
      return 0;
    }
  }
  lt_map_put(&t->sh, i, lt_tg_join(t, lanes, LLVMTypeOf(i)));
  return 0;
}

/* p may address a block whose shadow is plain (heap.c). */
static int any_plain(LtTg *t, LLVMValueRef p) {
  for (unsigned b = 0; b < t->g->g.nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(t->g->g.block[b]); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMIsACallInst(i) && lt_shadow_plain(&t->g->act_of, i) &&
          lt_points_may_alias(&t->g->act_of.pts, p, i))
        return 1;
  return 0;
}

int lt_fwd_free(LtTg *t, LLVMValueRef i) {
  LLVMValueRef p = LLVMGetOperand(i, 0);
  /* the shadows this function allocated go with their blocks (plain ones,
   * which the caller's shadow data may hold, stay: heap.c) */
  if (!lt_fwd_shadowed(t, p) || !lt_points_all_heap(&t->g->act_of.pts, p) || any_plain(t, p))
    return 0;
  for (unsigned k = 0; k < t->W; k++)
    lt_shadow_free(t->c, t->b, lt_fwd_shadow_lane(t, p, k));
  return 0;
}
