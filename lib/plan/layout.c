/* layout.c: the tape's slots, where the plan puts what it tapes.
 *
 * A slot belongs to a scope: the tape header (values outside loops, the
 * loop caches' buffers and counts) or a loop, whose cache holds one record
 * per header execution. Slots are added as the plan tapes values (and as
 * gen asks for branch choices, counts, buffers and callees' tapes), each at
 * the next offset of its scope aligned to its type. Records are packed:
 * nothing pads a record to the alignment of its largest slot, so a slot's
 * accesses may only assume the alignment its offset, its record size and
 * the base give (lt_plan_slot_align).
 */
#include "lt.h"

#include <stdlib.h>

static int key_scope(const LtPlan *pl, LtSlotKind kind, void *src) {
  const LtFacts *f = pl->f;
  switch (kind) {
  case LT_SLOT_PRIMAL:
  case LT_SLOT_SHADOW:
  case LT_SLOT_SUBTAPE:
  case LT_SLOT_SUBPTR:
  case LT_SLOT_CUSTOMTAPE:
  case LT_SLOT_CKPT:
  case LT_SLOT_CKPTTAPE:
    return lt_loop_scope(f->g, f->loops, src);
  case LT_SLOT_CHOICE:
    return lt_loop_scope_block(f->g, f->loops, src);
  default:
    return -1;
  }
}

static unsigned new_slot(LtPlan *pl, LtSlotKind kind, void *src, LLVMTypeRef ty) {
  LLVMTargetDataRef td = pl->f->c->td;
  unsigned long long size = LLVMABISizeOfType(td, ty);
  unsigned long long align = LLVMABIAlignmentOfType(td, ty);
  int s = key_scope(pl, kind, src);
  unsigned long long *end = s < 0 ? &pl->tape_size : &pl->rec_size[s];
  unsigned long long off = (*end + align - 1) / align * align;
  *end = off + size;
  unsigned idx = (unsigned)pl->slot_ty.n;
  unsigned long long *offs = lt_xcalloc(idx + 1, sizeof *offs);
  for (unsigned i = 0; i < idx; i++)
    offs[i] = pl->slot_off[i];
  offs[idx] = off;
  free(pl->slot_off);
  pl->slot_off = offs;
  lt_vec_push(&pl->slot_ty, ty);
  lt_vec_push(&pl->slot_src, src);
  lt_vec_push(&pl->slot_kind, (void *)(size_t)kind);
  lt_vec_push(&pl->slot_scope, (void *)(size_t)(s + 1));
  lt_map_put(&pl->slot_by_kind[kind], src, (void *)(size_t)(idx + 1));
  return idx;
}

unsigned lt_plan_slot(LtPlan *pl, LtSlotKind kind, void *src, LLVMTypeRef ty) {
  size_t found = (size_t)lt_map_get(&pl->slot_by_kind[kind], src);
  return found ? (unsigned)(found - 1) : new_slot(pl, kind, src, ty);
}

int lt_plan_slot_scope(const LtPlan *pl, unsigned slot) {
  return (int)(size_t)pl->slot_scope.v[slot] - 1;
}

static unsigned long long low_pow2(unsigned long long x) {
  return x ? x & -x : 1ull << 62;
}

unsigned lt_plan_slot_align(const LtPlan *pl, unsigned slot, LLVMTypeRef ty) {
  int s = lt_plan_slot_scope(pl, slot);
  unsigned long long a = LLVMABIAlignmentOfType(pl->f->c->td, ty);
  /* loop caches are malloc'd, realloc'd or arena blocks: 16 */
  unsigned long long base = s >= 0 ? 16 : pl->header_align;
  unsigned long long off = low_pow2(pl->slot_off[slot]);
  if (s >= 0 && low_pow2(pl->rec_size[s]) < off)
    off = low_pow2(pl->rec_size[s]);
  if (off < a)
    a = off;
  return (unsigned)(base < a ? base : a);
}
