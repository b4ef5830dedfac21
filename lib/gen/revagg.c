/* revagg.c: adjoints of aggregate and vector values.
 *
 * Structs and arrays of floats ({double, double} returns, std::pair,
 * std::complex, small arrays in registers) and float vectors carry
 * adjoints of their own type: an aggregate adjoint holds the adjoint of
 * each float leaf (zero elsewhere), a vector one lane by lane. Element
 * access instructions move adjoints between the whole and its part; in
 * memory, an aggregate is handled leaf by leaf, so shadow pointers and
 * integers stored beside its floats are never touched.
 */
#include "lt.h"

#define MAX_LEAVES 64

typedef struct Leaf {
  unsigned long long off; /* byte offset in the aggregate */
  unsigned idx[LT_TYPE_DEPTH]; /* extractvalue path */
  unsigned depth;
  LLVMTypeRef ty;         /* a float or float vector */
} Leaf;

static int leaves(LtCtx *c, LLVMTypeRef t, unsigned long long off,
                  unsigned *path, unsigned depth, Leaf *out, unsigned *n) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  if (!lt_is_diff_ty(t))
    return 0;
  if (!lt_is_aggregate_ty(t)) {
    if (*n >= MAX_LEAVES)
      return -1;
    Leaf *l = &out[(*n)++];
    l->off = off;
    l->depth = depth;
    for (unsigned d = 0; d < depth; d++)
      l->idx[d] = path[d];
    l->ty = t;
    return 0;
  }
  if (depth >= LT_TYPE_DEPTH)
    return -1;
  unsigned m = k == LLVMStructTypeKind ? LLVMCountStructElementTypes(t)
                                       : (unsigned)LLVMGetArrayLength2(t);
  for (unsigned e = 0; e < m; e++) {
    LLVMTypeRef et = k == LLVMStructTypeKind ? LLVMStructGetTypeAtIndex(t, e)
                                             : LLVMGetElementType(t);
    unsigned long long eo = k == LLVMStructTypeKind
                                ? LLVMOffsetOfElement(c->td, t, e)
                                : e * LLVMABISizeOfType(c->td, et);
    path[depth] = e;
    if (leaves(c, et, off + eo, path, depth + 1, out, n))
      return -1;
  }
  return 0;
}

static LLVMValueRef extract_path(LLVMBuilderRef b, LLVMValueRef agg,
                                 const unsigned *idx, unsigned n) {
  for (unsigned k = 0; k < n; k++)
    agg = LLVMBuildExtractValue(b, agg, idx[k], "");
  return agg;
}

static LLVMValueRef insert_path(LLVMBuilderRef b, LLVMValueRef agg,
                                LLVMValueRef v, const unsigned *idx, unsigned n) {
  if (n == 1)
    return LLVMBuildInsertValue(b, agg, v, idx[0], "");
  LLVMValueRef inner = LLVMBuildExtractValue(b, agg, idx[0], "");
  return LLVMBuildInsertValue(b, agg, insert_path(b, inner, v, idx + 1, n - 1),
                              idx[0], "");
}

static int too_big(LtGen *g, LLVMValueRef i) {
  lt_error(g->c, i, "an aggregate with more than %d floating-point members "
                    "is not supported as a value here; keep it in memory",
           MAX_LEAVES);
  return -1;
}

/* The float leaves of an aggregate in memory at shadow sp: read (and
 * zero) for a store's reverse, accumulate for a load's. */
int lt_rev_agg_memory(LtGen *g, LLVMValueRef i, LLVMValueRef rd,
                      LLVMValueRef wr, int is_store) {
  LLVMTypeRef t = LLVMTypeOf(is_store ? LLVMGetOperand(i, 0) : i);
  Leaf lv[MAX_LEAVES];
  unsigned n = 0, path[LT_TYPE_DEPTH];
  if (leaves(g->c, t, 0, path, 0, lv, &n))
    return too_big(g, i);
  LLVMBuilderRef b = g->b;
  if (is_store) {
    LLVMValueRef v = LLVMGetOperand(i, 0), d = LLVMConstNull(t);
    for (unsigned k = 0; k < n; k++) {
      LLVMValueRef off = LLVMConstInt(g->c->i64, lv[k].off, 0);
      LLVMValueRef r = LLVMBuildGEP2(b, g->c->i8, rd, &off, 1, "");
      LLVMValueRef w = LLVMBuildGEP2(b, g->c->i8, wr, &off, 1, "");
      LLVMValueRef x = LLVMBuildLoad2(b, lv[k].ty, r, "");
      LLVMSetAlignment(x, 1);
      LLVMValueRef z = LLVMBuildStore(b, LLVMConstNull(lv[k].ty), w);
      LLVMSetAlignment(z, 1);
      lt_scope_shadow(g, x, i);
      lt_scope_shadow(g, z, i);
      d = insert_path(b, d, x, lv[k].idx, lv[k].depth);
    }
    if (lt_is_varied(&g->act_of, v))
      lt_adj_add(g, v, d);
    return 0;
  }
  LLVMValueRef d = lt_adj_read(g, i);
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef off = LLVMConstInt(g->c->i64, lv[k].off, 0);
    LLVMValueRef w = LLVMBuildGEP2(b, g->c->i8, wr, &off, 1, "");
    LLVMValueRef old = LLVMBuildLoad2(b, lv[k].ty, w, "");
    LLVMSetAlignment(old, 1);
    LLVMValueRef x = extract_path(b, d, lv[k].idx, lv[k].depth);
    LLVMValueRef s = LLVMBuildStore(b, lt_build_accum(b, old, x), w);
    LLVMSetAlignment(s, 1);
    lt_scope_shadow(g, old, i);
    lt_scope_shadow(g, s, i);
  }
  return 0;
}

static int lanes(LLVMTypeRef t) {
  return LLVMGetTypeKind(t) == LLVMVectorTypeKind ? (int)LLVMGetVectorSize(t) : -1;
}

static int rev_shuffle(LtGen *g, LLVMValueRef i, LLVMValueRef d) {
  LLVMBuilderRef b = g->b;
  LLVMValueRef a = LLVMGetOperand(i, 0), c = LLVMGetOperand(i, 1);
  int na = lanes(LLVMTypeOf(a));
  unsigned nm = LLVMGetNumMaskElements(i);
  LLVMValueRef da = LLVMConstNull(LLVMTypeOf(a)), dc = LLVMConstNull(LLVMTypeOf(c));
  for (unsigned k = 0; k < nm; k++) {
    int m = LLVMGetMaskValue(i, k);
    if (m < 0 || na < 0)
      continue;
    LLVMValueRef *acc = m < na ? &da : &dc;
    LLVMValueRef lane = LLVMConstInt(g->c->i32, (unsigned)(m % na), 0);
    LLVMValueRef x = LLVMBuildExtractElement(b, d, LLVMConstInt(g->c->i32, k, 0), "");
    LLVMValueRef old = LLVMBuildExtractElement(b, *acc, lane, "");
    *acc = LLVMBuildInsertElement(b, *acc, lt_build_accum(b, old, x), lane, "");
  }
  lt_adj_add(g, a, da);
  lt_adj_add(g, c, dc);
  return 0;
}

int lt_rev_agg(LtGen *g, LLVMValueRef i) {
  LLVMBuilderRef b = g->b;
  LLVMValueRef d = lt_adj_read(g, i);
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMExtractValue: {
    LLVMValueRef agg = LLVMGetOperand(i, 0);
    unsigned n = LLVMGetNumIndices(i);
    if (n > 8)
      return too_big(g, i);
    lt_adj_add(g, agg, insert_path(b, LLVMConstNull(LLVMTypeOf(agg)), d,
                                   LLVMGetIndices(i), n));
    return 0;
  }
  case LLVMInsertValue: {
    LLVMValueRef agg = LLVMGetOperand(i, 0), v = LLVMGetOperand(i, 1);
    unsigned n = LLVMGetNumIndices(i);
    if (n > 8)
      return too_big(g, i);
    const unsigned *idx = LLVMGetIndices(i);
    lt_adj_add(g, v, extract_path(b, d, idx, n));
    lt_adj_add(g, agg, insert_path(b, d, LLVMConstNull(LLVMTypeOf(v)), idx, n));
    return 0;
  }
  case LLVMExtractElement: {
    LLVMValueRef vec = LLVMGetOperand(i, 0);
    LLVMValueRef at = lt_rv(g, LLVMGetOperand(i, 1));
    lt_adj_add(g, vec, LLVMBuildInsertElement(b, LLVMConstNull(LLVMTypeOf(vec)),
                                              d, at, ""));
    return 0;
  }
  case LLVMInsertElement: {
    LLVMValueRef vec = LLVMGetOperand(i, 0), s = LLVMGetOperand(i, 1);
    LLVMValueRef at = lt_rv(g, LLVMGetOperand(i, 2));
    lt_adj_add(g, s, LLVMBuildExtractElement(b, d, at, ""));
    lt_adj_add(g, vec, LLVMBuildInsertElement(b, d, LLVMConstNull(LLVMTypeOf(s)),
                                              at, ""));
    return 0;
  }
  case LLVMShuffleVector:
    return rev_shuffle(g, i, d);
  default:
    lt_internal_error(g->c, g->P, "no adjoint for this aggregate operation");
    return -1;
  }
}
