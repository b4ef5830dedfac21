/* tapestore.c: A writes the tape. Once R is built and the layout final,
 * every slot's value is stored in A right after it is defined (a primal
 * value, a shadow, a branch choice, a custom derivative's tape), at the
 * loop's current record for slots of loops; the exit index, the loop
 * caches' buffers and counts and the undo log go in the header where A
 * returns; a kept call's in-place tape is handed to its callee's A.
 */
#include "lt.h"

static LLVMValueRef byte_gep(LtGen *g, LLVMBuilderRef b, LLVMValueRef base,
                             LLVMValueRef off) {
  return LLVMBuildGEP2(b, g->c->i8, base, &off, 1, "lt.slot");
}

/* slot i's store of v at p, kept for its alias scope (lt_scope_forward) */
static void store_slot(LtGen *g, LLVMBuilderRef b, unsigned i, LLVMValueRef v, LLVMValueRef p) {
  LLVMValueRef st = LLVMBuildStore(b, v, p);
  LLVMSetAlignment(st, lt_plan_slot_align(&g->plan, i, LLVMTypeOf(v)));
  lt_vec_push(&g->tape_stores, st);
  lt_vec_push(&g->tape_stores, (void *)(size_t)i);
}

static void position_after(LLVMBuilderRef b, LLVMValueRef v, LLVMValueRef fn) {
  if (LLVMIsAArgument(v)) {
    LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(fn);
    LLVMPositionBuilderBefore(b, lt_first_non_phi(e));
  } else if (LLVMIsAPHINode(v)) {
    LLVMPositionBuilderBefore(b, lt_first_non_phi(LLVMGetInstructionParent(v)));
  } else {
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(v));
  }
}

static int loop_of_iv(LtGen *g, void *iv) {
  for (unsigned l = 0; l < g->loops.nloops; l++)
    if (g->loop_iv[l] == iv)
      return (int)l;
  return -1;
}

/* Slots stored when A returns: the exit index, the loop caches. */
static void store_at_returns(LtGen *g, LLVMBuilderRef b, unsigned i) {
  LtSlotKind kind = (LtSlotKind)(size_t)g->plan.slot_kind.v[i];
  unsigned k = 0;
  int l = kind == LT_SLOT_LOOPBUF || kind == LT_SLOT_LOOPCOUNT
              ? loop_of_iv(g, g->plan.slot_src.v[i])
              : -1;
  for (unsigned bi = 0; bi < g->g.nblocks; bi++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->g.block[bi]);
    if (!LLVMIsAReturnInst(t))
      continue;
    LLVMPositionBuilderBefore(b, lt_map_get(&g->fmap, t));
    LLVMValueRef v;
    if (kind == LT_SLOT_EXIT)
      v = LLVMConstInt(g->c->i32, k++, 0);
    else if (kind == LT_SLOT_LOOPBUF)
      v = LLVMBuildLoad2(b, g->c->ptr, g->a_buf[l], "");
    else if (kind == LT_SLOT_UNDOLOG || kind == LT_SLOT_UNDOCOUNT || kind == LT_SLOT_UNDOBASE)
      v = lt_undo_forward_field(g, b, kind == LT_SLOT_UNDOLOG    ? 0
                                      : kind == LT_SLOT_UNDOBASE ? 5
                                                                 : 1);
    else
      v = LLVMBuildLoad2(b, g->c->i64, g->a_n[l], "");
    LLVMValueRef off = LLVMConstInt(g->c->i64, g->plan.slot_off[i], 0);
    store_slot(g, b, i, v, byte_gep(g, b, g->atape, off));
  }
}

void lt_tape_store_all(LtGen *g) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->c->llctx);
  for (unsigned i = 0; i < g->plan.slot_ty.n; i++) {
    LtSlotKind kind = (LtSlotKind)(size_t)g->plan.slot_kind.v[i];
    void *src = g->plan.slot_src.v[i];
    if (kind == LT_SLOT_EXIT || kind == LT_SLOT_LOOPBUF ||
        kind == LT_SLOT_LOOPCOUNT || kind == LT_SLOT_UNDOLOG ||
        kind == LT_SLOT_UNDOCOUNT || kind == LT_SLOT_UNDOBASE) {
      store_at_returns(g, b, i);
      continue;
    }
    LLVMValueRef v, ph = NULL;
    if (kind == LT_SLOT_SUBTAPE || kind == LT_SLOT_SUBPTR) {
      /* At the callee's A call, before its tape placeholder. */
      ph = lt_map_get(&g->subtape_ph, src);
      if (!ph) {
        g->failed = 1;
        continue;
      }
      LLVMPositionBuilderBefore(b, ph);
      v = kind == LT_SLOT_SUBPTR ? lt_callee_heap_tape(g, b, src) : NULL;
    } else {
      if (kind == LT_SLOT_CHOICE)
        v = lt_forward_choice(g, src);
      else if (kind == LT_SLOT_CUSTOMTAPE)
        v = lt_map_get(&g->custom_tape, src);
      else if (kind == LT_SLOT_CKPT)
        v = lt_map_get(&g->ckpt_ctx, src);
      else if (kind == LT_SLOT_CKPTTAPE)
        v = lt_map_get(&g->ckpt_tape, src);
      else if (kind == LT_SLOT_SHADOW)
        v = lt_map_get(&g->fshadow, src);
      else
        v = lt_map_get(&g->fmap, src);
      if (!v) {
        g->failed = 1;
        continue;
      }
      position_after(b, v, g->A);
    }
    int s = lt_plan_slot_scope(&g->plan, i);
    LLVMValueRef off = LLVMConstInt(g->c->i64, g->plan.slot_off[i], 0), base = g->atape;
    if (s >= 0) {
      LLVMValueRef cur = LLVMBuildLoad2(b, g->c->i64, g->a_cur[s], "");
      LLVMValueRef rs = LLVMConstInt(g->c->i64, g->plan.rec_size[s], 0);
      off = LLVMBuildAdd(b, LLVMBuildMul(b, cur, rs, ""), off, "");
      base = LLVMBuildLoad2(b, g->c->ptr, g->a_buf[s], "");
    }
    LLVMValueRef p = byte_gep(g, b, base, off);
    if (kind == LT_SLOT_SUBTAPE || kind == LT_SLOT_SUBPTR) {
      if (kind == LT_SLOT_SUBPTR)
        store_slot(g, b, i, v, p);
      lt_callee_tape_store(g, src, kind == LT_SLOT_SUBPTR ? v : p);
      continue;
    }
    store_slot(g, b, i, v, p);
  }
  /* Kept calls whose callee keeps no tape get none. */
  for (size_t k = 0; k < g->subtape_ph.cap; k++)
    if (g->subtape_ph.keys[k] && g->subtape_ph.vals[k])
      lt_callee_tape_store(g, g->subtape_ph.keys[k], LLVMConstNull(g->c->ptr));
  LLVMDisposeBuilder(b);
}
