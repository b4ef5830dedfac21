/* memelem.c: the element type of an object that a copy moves, from how
 * the function indexes it (memlayout.c's evidence when neither end of the
 * copy has a declared type): a GEP with an aggregate source type on the
 * object's pointer, or on the pointers PHIs and selects merge it with; for
 * a pointer loaded from memory, on the allocations points-to says it may
 * address (a std::vector's data pointer, loaded from the vector).
 */
#include "lt.h"
#include "points.h"

#include <string.h>

/* An aggregate type that a GEP indexes the object at base with (`gep
 * %struct.S, ptr base, i64 %i`), or NULL. */
static LLVMTypeRef direct_element_type(LLVMValueRef base) {
  for (LLVMUseRef u = LLVMGetFirstUse(base); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (!LLVMIsAGetElementPtrInst(w) || LLVMGetOperand(w, 0) != base)
      continue;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(w);
    LLVMTypeKind k = LLVMGetTypeKind(t);
    if ((k == LLVMStructTypeKind || k == LLVMArrayTypeKind) && !lt_mem_bytes_only(t))
      return t;
  }
  return NULL;
}

/* The element type of the pointers that flow into or out of v through
 * PHIs and selects (a vector's data pointer, merged over reallocations
 * and loop iterations), when those that have one agree: *t, or
 * (LLVMTypeRef)1 on a conflict. */
static void merged_element_type(LLVMValueRef v, LtMap *seen, int depth, LLVMTypeRef *t) {
  if (depth > 6 || *t == (LLVMTypeRef)1 || lt_map_get(seen, v))
    return;
  lt_map_put(seen, v, (void *)1);
  LLVMTypeRef d = direct_element_type(v);
  if (d) {
    *t = !*t || *t == d ? d : (LLVMTypeRef)1;
    return;
  }
  if (LLVMIsAPHINode(v))
    for (unsigned k = 0, n = LLVMCountIncoming(v); k < n; k++)
      merged_element_type(LLVMGetIncomingValue(v, k), seen, depth + 1, t);
  if (LLVMIsASelectInst(v))
    for (unsigned k = 1; k < 3; k++)
      merged_element_type(LLVMGetOperand(v, k), seen, depth + 1, t);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    if (LLVMIsAPHINode(w) || (LLVMIsASelectInst(w) && LLVMGetOperand(w, 0) != v))
      merged_element_type(w, seen, depth + 1, t);
  }
}

/* direct_element_type, or failing that the type the pointers merged with
 * base by PHIs and selects agree on: libstdc++'s vector copies its
 * elements from a PHI of its data pointer (at -O2 an `i8` GEP from it)
 * while only the PHI's other values are indexed as `%struct.S`. */
LLVMTypeRef lt_mem_element_type(LLVMValueRef base) {
  LLVMTypeRef t = direct_element_type(base);
  if (t || !(LLVMIsAPHINode(base) || LLVMIsASelectInst(base) || LLVMIsACallInst(base)))
    return t;
  LtMap seen;
  lt_map_init(&seen, 16);
  merged_element_type(base, &seen, 0, &t);
  lt_map_free(&seen);
  return t == (LLVMTypeRef)1 ? NULL : t;
}

LLVMTypeRef lt_mem_pointee_element_type(LtPoints *pt, LLVMValueRef p) {
  const uint64_t *s = lt_points_of(pt, p);
  LLVMTypeRef t = NULL;
  for (unsigned o = 0; s && o < pt->nobj; o++) {
    if (!set_has(s, o))
      continue;
    LLVMTypeRef e = pt->obj[o].kind == O_ALLOC && pt->obj[o].src
                        ? lt_mem_element_type(pt->obj[o].src)
                        : NULL;
    if (!e || (t && e != t))
      return NULL; /* every object the same type */
    t = e;
  }
  return t;
}


int lt_mem_pointee_holds_ptrs(LtCtx *c, LtPoints *pt, LLVMValueRef p) {
  const uint64_t *s = lt_points_of(pt, p);
  for (unsigned o = 0; s && o < pt->nobj; o++) {
    LLVMTypeRef e = set_has(s, o) && pt->obj[o].kind == O_ALLOC && pt->obj[o].src
                        ? lt_mem_element_type(pt->obj[o].src)
                        : NULL;
    if (!e)
      continue;
    LtMemLayout L;
    memset(&L, 0, sizeof L);
    lt_mem_leaves(c->td, e, 0, 0, (long long)LLVMABISizeOfType(c->td, e), &L, 0);
    if (L.overflow || lt_mem_layout_has(&L, 1))
      return 1;
  }
  return 0;
}
