/* adjoint.c: the adjoint accumulators of the reverse function R.
 *
 * An adjoint lives in an alloca of R's entry (promoted by the cleanup
 * pipeline), or, for a value used only in its own block, as an SSA value
 * summed while that block's reverse is generated. Reading an adjoint zeroes
 * it; accumulators start at -0.0, the identity of fadd.
 */
#include "lt.h"

/* Accumulators start at -0.0, the identity of fadd (x + -0.0 == x for
 * every x), so that instcombine folds the first accumulation away. */
static LLVMValueRef neg_zero(LLVMTypeRef t) { return lt_adj_init(t); }

static LLVMValueRef adj_slot(LtGen *g, LLVMValueRef v) {
  LLVMValueRef s = lt_map_get(&g->adj, v);
  if (s)
    return s;
  LLVMTypeRef t = lt_adj_type(&g->act_of, v);
  s = LLVMBuildAlloca(g->eb, t, "lt.adj");
  LLVMBuildStore(g->eb, neg_zero(t), s);
  lt_map_put(&g->adj, v, s);
  return s;
}

/* A value used only in its own block (not by PHIs): its adjoint is summed
 * and read while that block's reverse is generated, so it is an SSA value
 * there (g->adj_ssa), not a stack slot: straight-line code of 10^5
 * instructions would otherwise give mem2reg 10^4 allocas. */
static int block_local(LtGen *g, LLVMValueRef v) {
  size_t m = (size_t)lt_map_get(&g->adj_local, v);
  if (m)
    return m == 1;
  int local = LLVMIsAInstruction(v) && !LLVMIsAPHINode(v);
  LLVMBasicBlockRef bb = local ? LLVMGetInstructionParent(v) : NULL;
  for (LLVMUseRef u = local ? LLVMGetFirstUse(v) : NULL; u && local; u = LLVMGetNextUse(u)) {
    LLVMValueRef w = LLVMGetUser(u);
    local = LLVMIsAInstruction(w) && !LLVMIsAPHINode(w) &&
            LLVMGetInstructionParent(w) == bb;
  }
  lt_map_put(&g->adj_local, v, (void *)(size_t)(local ? 1 : 2));
  return local;
}

LLVMValueRef lt_adj_read(LtGen *g, LLVMValueRef v) {
  LLVMTypeRef t = lt_adj_type(&g->act_of, v);
  if (block_local(g, v)) {
    LLVMValueRef d = lt_map_get(&g->adj_ssa, v);
    lt_map_put(&g->adj_ssa, v, NULL);
    return d ? d : neg_zero(t);
  }
  LLVMValueRef s = adj_slot(g, v);
  LLVMValueRef d = LLVMBuildLoad2(g->b, t, s, "lt.d");
  LLVMBuildStore(g->b, neg_zero(t), s);
  return d;
}

void lt_adj_add(LtGen *g, LLVMValueRef v, LLVMValueRef d) {
  if (!d || LLVMIsAConstant(v) || !lt_is_varied(&g->act_of, v))
    return;
  LLVMTypeRef t = lt_adj_type(&g->act_of, v);
  if (LLVMTypeOf(d) != t) {
    lt_internal_error(g->c, g->P, "adjoint of the wrong type");
    g->failed = 1;
    return;
  }
  if (block_local(g, v)) {
    LLVMValueRef old = lt_map_get(&g->adj_ssa, v);
    lt_map_put(&g->adj_ssa, v, old ? lt_build_accum(g->b, old, d) : d);
    return;
  }
  LLVMValueRef s = adj_slot(g, v);
  LLVMValueRef old = LLVMBuildLoad2(g->b, t, s, "");
  LLVMBuildStore(g->b, lt_build_accum(g->b, old, d), s);
}

