/* tape.c: the tape that joins the augmented forward and reverse functions.
 *
 * The plan lays out what the tape holds (plan/layout.c: slots in the header
 * or in a loop's per-iteration record); this file reads and writes it. A
 * loop's cache holds one record per header execution, indexed by a
 * running count (the forward pass counts up, the reverse pass counts down,
 * so nested and data-dependent loops need no index arithmetic). Slots are
 * added while the reverse function is built, so only what it reads is
 * kept; the forward function then stores every slot right after the value
 * is defined. In combined mode the header is an alloca that SROA dissolves
 * into registers. Every access states the alignment the layout guarantees.
 */
#include "lt.h"

#include <stdlib.h>

static int scope_of_slot(LtGen *g, unsigned idx) {
  return lt_plan_slot_scope(&g->plan, idx);
}

static unsigned slot_align(LtGen *g, unsigned idx, LLVMTypeRef ty) {
  return lt_plan_slot_align(&g->plan, idx, ty);
}

/* R's slot loads get their alignment once every slot is known (the record
 * size, and so the alignment of a slot in a loop record, grows while R is
 * built), and the tape's scope where R's other accesses have scopes
 * (scopes.c; a scope alone would tell LLVM nothing). */
void lt_tape_seal(LtGen *g) {
  for (size_t k = 0; k + 1 < g->slot_access.n; k += 2) {
    LLVMValueRef ld = g->slot_access.v[k];
    unsigned idx = (unsigned)(size_t)g->slot_access.v[k + 1];
    LLVMSetAlignment(ld, slot_align(g, idx, LLVMTypeOf(ld)));
    if (g->sc_shadow)
      lt_scope_tape(g, ld);
  }
  lt_scope_undo_calls(g);
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
  LLVMValueRef off = LLVMConstInt(g->c->i64, g->plan.slot_off[idx], 0);
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
  return lt_plan_slot(&g->plan, kind, src, ty);
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

