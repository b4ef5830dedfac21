/* tape.c: the tape that joins the augmented forward and reverse functions.
 *
 * The tape holds what the reverse pass needs and cannot recompute: primal
 * values, shadows, branch choices. A slot belongs to a scope: the tape
 * header (values outside loops, the loop caches' buffers and counts) or a
 * loop, whose cache holds one record per header execution, indexed by a
 * running count (the forward pass counts up, the reverse pass counts down,
 * so nested and data-dependent loops need no index arithmetic). Slots are
 * allocated lazily while the reverse function is built, so only what it
 * reads is kept; the forward function then stores every slot right after
 * the value is defined. In combined mode the header is an alloca that SROA
 * dissolves into registers. Records are packed (no padding between them),
 * so every access states the alignment the layout guarantees: that of the
 * slot's type, at most that of its offset, of the record size, and of the
 * base (16 for a malloc'd, arena or alloca tape; 1 for a callee's tape,
 * which its caller may place anywhere in its own, and for the caller's
 * storage of enzyme_tape/enzyme_allocated).
 */
#include "lt.h"

#include <stdlib.h>

static int slot_scope(LtGen *g, LtSlotKind kind, void *src) {
  switch (kind) {
  case LT_SLOT_PRIMAL:
  case LT_SLOT_SHADOW:
  case LT_SLOT_SUBTAPE:
  case LT_SLOT_SUBPTR:
  case LT_SLOT_CUSTOMTAPE:
    return lt_scope_of(g, src);
  case LT_SLOT_CHOICE:
    return lt_scope_of_block(g, src);
  default:
    return -1;
  }
}

static unsigned new_slot(LtGen *g, LtSlotKind kind, void *src,
                         LLVMTypeRef ty) {
  unsigned long long size = LLVMABISizeOfType(g->c->td, ty);
  unsigned long long align = LLVMABIAlignmentOfType(g->c->td, ty);
  int s = slot_scope(g, kind, src);
  unsigned long long *end = s < 0 ? &g->tape_size : &g->rec_size[s];
  unsigned long long off = (*end + align - 1) / align * align;
  *end = off + size;
  unsigned idx = (unsigned)g->slot_ty.n;
  unsigned long long *offs = lt_xcalloc(idx + 1, sizeof *offs);
  for (unsigned i = 0; i < idx; i++)
    offs[i] = g->slot_off[i];
  offs[idx] = off;
  free(g->slot_off);
  g->slot_off = offs;
  lt_vec_push(&g->slot_ty, ty);
  lt_vec_push(&g->slot_src, src);
  lt_vec_push(&g->slot_kind, (void *)(size_t)kind);
  lt_vec_push(&g->slot_scope, (void *)(size_t)(s + 1));
  lt_map_put(&g->slot_by_kind[kind], src, (void *)(size_t)(idx + 1));
  return idx;
}

static int scope_of_slot(LtGen *g, unsigned idx) {
  return (int)(size_t)g->slot_scope.v[idx] - 1;
}

static unsigned long long low_pow2(unsigned long long x) {
  return x ? x & -x : 1ull << 62;
}

/* The alignment the layout guarantees for slot idx of type ty. */
static unsigned slot_align(LtGen *g, unsigned idx, LLVMTypeRef ty) {
  int s = scope_of_slot(g, idx);
  unsigned long long a = LLVMABIAlignmentOfType(g->c->td, ty);
  unsigned long long base = s >= 0 || (!g->sub && !g->keep_header) ? 16 : 1;
  unsigned long long off = low_pow2(g->slot_off[idx]);
  if (s >= 0 && low_pow2(g->rec_size[s]) < off)
    off = low_pow2(g->rec_size[s]);
  if (off < a)
    a = off;
  return (unsigned)(base < a ? base : a);
}

/* R's slot loads get their alignment once every slot is known (the record
 * size, and so the alignment of a slot in a loop record, grows while R is
 * built). */
void lt_tape_seal(LtGen *g) {
  for (size_t k = 0; k + 1 < g->slot_access.n; k += 2) {
    LLVMValueRef ld = g->slot_access.v[k];
    unsigned idx = (unsigned)(size_t)g->slot_access.v[k + 1];
    LLVMSetAlignment(ld, slot_align(g, idx, LLVMTypeOf(ld)));
  }
}

static LLVMValueRef byte_gep(LtGen *g, LLVMBuilderRef b, LLVMValueRef base,
                             LLVMValueRef off) {
  return LLVMBuildGEP2(b, g->c->i8, base, &off, 1, "lt.slot");
}

/* The slot's address in R: in the entry for the header, else in the
 * current block for record m - 1 of the loop's cache (the iteration being
 * reversed). */
static LLVMValueRef slot_addr(LtGen *g, unsigned idx, LLVMBuilderRef *at) {
  int s = scope_of_slot(g, idx);
  LLVMValueRef off = LLVMConstInt(g->c->i64, g->slot_off[idx], 0);
  if (s < 0) {
    if (!*at)
      *at = g->eb;
    return byte_gep(g, *at, g->rtape, off);
  }
  *at = g->b;
  LLVMValueRef m = LLVMBuildLoad2(g->b, g->c->i64, g->r_m[s], "");
  LLVMValueRef i = LLVMBuildSub(g->b, m, LLVMConstInt(g->c->i64, 1, 0), "");
  LLVMValueRef o = LLVMBuildAdd(g->b, LLVMBuildMul(g->b, i, g->r_rs[s], ""), off, "");
  return byte_gep(g, g->b, g->r_buf[s], o);
}

static unsigned slot_of(LtGen *g, LtSlotKind kind, void *src, LLVMTypeRef ty) {
  size_t found = (size_t)lt_map_get(&g->slot_by_kind[kind], src);
  return found ? (unsigned)(found - 1) : new_slot(g, kind, src, ty);
}

LLVMValueRef lt_tape_load_at(LtGen *g, LtSlotKind kind, void *src,
                             LLVMTypeRef ty, LLVMBuilderRef where) {
  LLVMBuilderRef at = where == g->eb ? NULL : where;
  unsigned idx = slot_of(g, kind, src, ty);
  LLVMValueRef p = slot_addr(g, idx, &at);
  LLVMValueRef ld = LLVMBuildLoad2(at, ty, p, at == g->eb ? "lt.tape" : "lt.cache");
  lt_vec_push(&g->slot_access, ld);
  lt_vec_push(&g->slot_access, (void *)(size_t)idx);
  return ld;
}

LLVMValueRef lt_tape_load(LtGen *g, LtSlotKind kind, void *src,
                          LLVMTypeRef ty) {
  return lt_tape_load_at(g, kind, src, ty, g->eb);
}

LLVMValueRef lt_tape_addr(LtGen *g, LtSlotKind kind, void *src, LLVMTypeRef ty) {
  LLVMBuilderRef at = NULL;
  return slot_addr(g, slot_of(g, kind, src, ty), &at);
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
  LtSlotKind kind = (LtSlotKind)(size_t)g->slot_kind.v[i];
  unsigned k = 0;
  int l = kind == LT_SLOT_LOOPBUF || kind == LT_SLOT_LOOPCOUNT
              ? loop_of_iv(g, g->slot_src.v[i])
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
    else if (kind == LT_SLOT_UNDOLOG || kind == LT_SLOT_UNDOCOUNT)
      v = lt_undo_forward_field(g, b, kind == LT_SLOT_UNDOLOG ? 0 : 1);
    else
      v = LLVMBuildLoad2(b, g->c->i64, g->a_n[l], "");
    LLVMValueRef off = LLVMConstInt(g->c->i64, g->slot_off[i], 0);
    LLVMSetAlignment(LLVMBuildStore(b, v, byte_gep(g, b, g->atape, off)),
                     slot_align(g, i, LLVMTypeOf(v)));
  }
}

void lt_tape_store_all(LtGen *g) {
  LLVMBuilderRef b = LLVMCreateBuilderInContext(g->c->llctx);
  for (unsigned i = 0; i < g->slot_ty.n; i++) {
    LtSlotKind kind = (LtSlotKind)(size_t)g->slot_kind.v[i];
    void *src = g->slot_src.v[i];
    if (kind == LT_SLOT_EXIT || kind == LT_SLOT_LOOPBUF ||
        kind == LT_SLOT_LOOPCOUNT || kind == LT_SLOT_UNDOLOG ||
        kind == LT_SLOT_UNDOCOUNT) {
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
    int s = scope_of_slot(g, i);
    LLVMValueRef off = LLVMConstInt(g->c->i64, g->slot_off[i], 0), base = g->atape;
    if (s >= 0) {
      LLVMValueRef cur = LLVMBuildLoad2(b, g->c->i64, g->a_cur[s], "");
      LLVMValueRef rs = LLVMConstInt(g->c->i64, g->rec_size[s], 0);
      off = LLVMBuildAdd(b, LLVMBuildMul(b, cur, rs, ""), off, "");
      base = LLVMBuildLoad2(b, g->c->ptr, g->a_buf[s], "");
    }
    LLVMValueRef p = byte_gep(g, b, base, off);
    if (kind == LT_SLOT_SUBTAPE || kind == LT_SLOT_SUBPTR) {
      if (kind == LT_SLOT_SUBPTR)
        LLVMSetAlignment(LLVMBuildStore(b, v, p), slot_align(g, i, LLVMTypeOf(v)));
      lt_callee_tape_store(g, src, kind == LT_SLOT_SUBPTR ? v : p);
      continue;
    }
    LLVMSetAlignment(LLVMBuildStore(b, v, p), slot_align(g, i, LLVMTypeOf(v)));
  }
  /* Kept calls whose callee keeps no tape get none. */
  for (size_t k = 0; k < g->subtape_ph.cap; k++)
    if (g->subtape_ph.keys[k] && g->subtape_ph.vals[k])
      lt_callee_tape_store(g, g->subtape_ph.keys[k], LLVMConstNull(g->c->ptr));
  LLVMDisposeBuilder(b);
}
