/* tape.c: the tape that joins the augmented forward and reverse functions.
 *
 * The tape is a byte buffer with one slot per value the reverse pass needs
 * and cannot recompute: primal values, shadows, branch choices. Slots are
 * allocated lazily while the reverse function is generated (so only what the
 * reverse pass really reads is kept), each at its ABI alignment; once the
 * reverse function is complete, the forward function stores every slot
 * right after the value is defined. In combined mode the tape is an alloca
 * that SROA dissolves into registers.
 */
#include "lt.h"

#include <stdlib.h>

static LtMap *slot_map(LtGen *g, LtSlotKind kind) {
  switch (kind) {
  case LT_SLOT_PRIMAL:
    return &g->slot_primal;
  case LT_SLOT_SHADOW:
    return &g->slot_shadow;
  default:
    return &g->slot_choice;
  }
}

static unsigned new_slot(LtGen *g, LtSlotKind kind, void *src,
                         LLVMTypeRef ty) {
  unsigned long long size = LLVMABISizeOfType(g->c->td, ty);
  unsigned long long align = LLVMABIAlignmentOfType(g->c->td, ty);
  unsigned long long off = (g->tape_size + align - 1) / align * align;
  unsigned idx = (unsigned)g->slot_ty.n;
  unsigned long long *offs = lt_xcalloc(idx + 1, sizeof *offs);
  for (unsigned i = 0; i < idx; i++)
    offs[i] = g->slot_off[i];
  offs[idx] = off;
  free(g->slot_off);
  g->slot_off = offs;
  g->tape_size = off + size;
  lt_vec_push(&g->slot_ty, ty);
  lt_vec_push(&g->slot_src, src);
  lt_vec_push(&g->slot_kind, (void *)(size_t)kind);
  lt_map_put(slot_map(g, kind), src, (void *)(size_t)(idx + 1));
  return idx;
}

static LLVMValueRef slot_addr(LtGen *g, LLVMBuilderRef b, LLVMValueRef base,
                              unsigned idx) {
  LLVMValueRef off = LLVMConstInt(g->c->i64, g->slot_off[idx], 0);
  return LLVMBuildGEP2(b, g->c->i8, base, &off, 1, "lt.slot");
}

LLVMValueRef lt_tape_load(LtGen *g, LtSlotKind kind, void *src,
                          LLVMTypeRef ty) {
  size_t s = (size_t)lt_map_get(slot_map(g, kind), src);
  unsigned idx = s ? (unsigned)(s - 1) : new_slot(g, kind, src, ty);
  LLVMValueRef p = slot_addr(g, g->eb, g->rtape, idx);
  return LLVMBuildLoad2(g->eb, ty, p, "lt.tape");
}

static void position_after(LLVMBuilderRef b, LLVMValueRef v,
                           LLVMValueRef fn) {
  if (LLVMIsAArgument(v)) {
    LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(fn);
    LLVMPositionBuilderBefore(b, lt_first_non_phi(e));
  } else if (LLVMIsAPHINode(v)) {
    LLVMPositionBuilderBefore(b, lt_first_non_phi(LLVMGetInstructionParent(v)));
  } else {
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(v));
  }
}

void lt_tape_store_all(LtGen *g) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->c->llctx);
  for (unsigned i = 0; i < g->slot_ty.n; i++) {
    LtSlotKind kind = (LtSlotKind)(size_t)g->slot_kind.v[i];
    void *src = g->slot_src.v[i];
    if (kind == LT_SLOT_EXIT) {
      /* src is unused; every returning block stores its index. */
      unsigned k = 0;
      for (unsigned bi = 0; bi < g->g.nblocks; bi++) {
        LLVMValueRef t = LLVMGetBasicBlockTerminator(g->g.block[bi]);
        if (!LLVMIsAReturnInst(t))
          continue;
        LLVMValueRef at = lt_map_get(&g->fmap, t);
        LLVMPositionBuilderBefore(b, at);
        LLVMBuildStore(b, LLVMConstInt(g->c->i32, k++, 0),
                       slot_addr(g, b, g->atape, i));
      }
      continue;
    }
    LLVMValueRef v;
    if (kind == LT_SLOT_CHOICE)
      v = lt_forward_choice(g, src);
    else if (kind == LT_SLOT_SHADOW)
      v = lt_map_get(&g->fshadow, src);
    else
      v = lt_map_get(&g->fmap, src);
    if (!v) {
      g->failed = 1;
      continue;
    }
    position_after(b, v, g->A);
    LLVMBuildStore(b, v, slot_addr(g, b, g->atape, i));
  }
  LLVMDisposeBuilder(b);
}
