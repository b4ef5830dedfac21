/* revinst.c: the adjoint of one primal instruction, emitted at g->b.
 *
 * Arithmetic and casts propagate the result's adjoint to their operands;
 * a load adds it to the shadow of its address; a store moves the shadow's
 * content to the stored value's adjoint and zeroes the shadow; math calls
 * go through the rule table (rules.c); memory transfers call a generated
 * helper that moves shadow adjoints element by element.
 */
#include "lt.h"

#include <stdio.h>
#include <string.h>

static LLVMValueRef fmul(LtGen *g, LLVMValueRef a, LLVMValueRef b) {
  return LLVMBuildFMul(g->b, a, b, "");
}

static int rev_binary(LtGen *g, LLVMValueRef i, LLVMValueRef d) {
  LLVMValueRef a = LLVMGetOperand(i, 0), b = LLVMGetOperand(i, 1);
  int va = lt_is_varied(&g->act_of, a), vb = lt_is_varied(&g->act_of, b);
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMFAdd:
    lt_adj_add(g, a, d);
    lt_adj_add(g, b, d);
    return 0;
  case LLVMFSub:
    lt_adj_add(g, a, d);
    if (vb)
      lt_adj_add(g, b, LLVMBuildFNeg(g->b, d, ""));
    return 0;
  case LLVMFMul:
    if (va)
      lt_adj_add(g, a, fmul(g, d, lt_rv(g, b)));
    if (vb)
      lt_adj_add(g, b, fmul(g, d, lt_rv(g, a)));
    return 0;
  case LLVMFDiv: {
    /* d(a/b)/db = -(a/b)/b: the quotient itself, which the plan makes
     * from a and b again or tapes (source.c cheaper_taped) */
    LLVMValueRef rb = lt_rv(g, b);
    LLVMValueRef t = lt_adj_div(g->b, d, rb);
    lt_adj_add(g, a, t);
    if (vb)
      lt_adj_add(g, b, LLVMBuildFNeg(g->b, fmul(g, t, lt_rv(g, i)), ""));
    return 0;
  }
  case LLVMFRem: {
    lt_adj_add(g, a, d);
    if (vb) {
      LLVMValueRef q = LLVMBuildFDiv(g->b, lt_rv(g, a), lt_rv(g, b), "");
      LLVMTypeRef t = LLVMTypeOf(q);
      LLVMValueRef tr = LLVMBuildCall2(
          g->b, LLVMIntrinsicGetType(g->c->llctx, LLVMLookupIntrinsicID("llvm.trunc", 10), &t, 1),
          LLVMGetIntrinsicDeclaration(g->c->mod, LLVMLookupIntrinsicID("llvm.trunc", 10), &t, 1),
          &q, 1, "");
      lt_adj_add(g, b, LLVMBuildFNeg(g->b, fmul(g, d, tr), ""));
    }
    return 0;
  }
  default:
    return -1;
  }
}

/* Erase v and the operands it alone used, among the instructions `mine`
 * (a rule's own, placeholders included: never materialised values). */
static void erase_dead(LtMap *mine, LLVMValueRef v) {
  if (!v || !LLVMIsAInstruction(v) || !lt_map_get(mine, v) || LLVMGetFirstUse(v))
    return;
  int n = LLVMGetNumOperands(v);
  LLVMValueRef ops[n > 0 ? n : 1];
  for (int k = 0; k < n; k++)
    ops[k] = LLVMGetOperand(v, (unsigned)k);
  lt_map_put(mine, v, NULL);
  LLVMInstructionEraseFromParent(v);
  for (int k = 0; k < n; k++)
    if (!LLVMIsAPHINode(ops[k]) && !LLVMIsAFreezeInst(ops[k]))
      erase_dead(mine, ops[k]);
}

static int rev_rule(LtGen *g, LLVMValueRef i, const LtRule *rule) {
  LtRuleIn in;
  memset(&in, 0, sizeof in);
  in.b = g->b;
  in.mod = g->c->mod;
  in.fty = LLVMTypeOf(i);
  in.nargs = LLVMGetNumArgOperands(i);
  if (in.nargs > LT_RULE_MAXARGS)
    return -1;
  /* Placeholders first: only the primal values the rule really uses are
   * materialised (and so taped), e.g. not fmuladd's addend. */
  LLVMValueRef ph[LT_RULE_MAXARGS + 1], src[LT_RULE_MAXARGS + 1];
  unsigned nph = 0;
  for (unsigned k = 0; k < in.nargs; k++, nph++) {
    src[nph] = LLVMGetOperand(i, k);
    ph[nph] = LLVMBuildFreeze(g->b, LLVMGetPoison(LLVMTypeOf(src[nph])), "");
    in.x[k] = ph[nph];
  }
  if (rule->needs_result) {
    src[nph] = i;
    ph[nph] = LLVMBuildFreeze(g->b, LLVMGetPoison(LLVMTypeOf(i)), "");
    in.y = ph[nph++];
  }
  in.dy = lt_adj_read(g, i);
  LLVMValueRef dx[LT_RULE_MAXARGS] = {0};
  LLVMBasicBlockRef here = LLVMGetInsertBlock(g->b);
  LLVMValueRef before = LLVMGetLastInstruction(here);
  int rc = rule->adjoint(&in, dx);
  /* Partials of inactive operands go before their primal operands are
   * materialised: fmuladd(a, dt, v) with dt inactive needs a's partial
   * (dt) only, so a is neither recomputed nor taped. */
  if (!rc) {
    LtMap mine;
    lt_map_init(&mine, 16);
    for (LLVMValueRef x = before ? LLVMGetNextInstruction(before)
                                 : LLVMGetFirstInstruction(here);
         x; x = LLVMGetNextInstruction(x))
      if (x != in.dy)
        lt_map_put(&mine, x, (void *)1);
    for (unsigned k = 0; k < in.nargs; k++) {
      LLVMValueRef a = LLVMGetOperand(i, k);
      if (dx[k] && (!(rule->active_mask >> k & 1) || LLVMIsAConstant(a) ||
                    !lt_is_varied(&g->act_of, a))) {
        erase_dead(&mine, dx[k]);
        dx[k] = NULL;
      }
    }
    lt_map_free(&mine);
  }
  for (unsigned k = 0; k < nph; k++) {
    if (LLVMGetFirstUse(ph[k])) {
      LLVMPositionBuilderBefore(g->b, ph[k]);
      LLVMReplaceAllUsesWith(ph[k], lt_rv(g, src[k]));
    }
    LLVMInstructionEraseFromParent(ph[k]);
  }
  LLVMPositionBuilderAtEnd(g->b, here);
  if (rc)
    return -1;
  for (unsigned k = 0; k < in.nargs; k++)
    if (rule->active_mask >> k & 1)
      lt_adj_add(g, LLVMGetOperand(i, k), dx[k]);
  return 0;
}

static int rev_memcall(LtGen *g, LLVMValueRef i, LtCallKind k) {
  LLVMValueRef dst = LLVMGetOperand(i, 0);
  LLVMValueRef ddst = lt_rs(g, dst);
  LtMemLayout L;
  if (!ddst || lt_mem_layout(g->c, &g->act_of, i, &L) || !lt_mem_layout_has(&L, 0))
    return 0;
  LLVMValueRef n = LLVMBuildZExtOrBitCast(g->b, lt_rv(g, LLVMGetOperand(i, 2)),
                                          g->c->i64, "");
  LLVMValueRef dsrc = k == LT_CALL_MEMCPY ? lt_rs(g, LLVMGetOperand(i, 1)) : NULL;
  if (!dsrc)
    dsrc = LLVMConstNull(g->c->ptr); /* the helper then zeroes ddst */
  LLVMValueRef f = lt_mem_helper(g->c, &L, 0);
  LLVMValueRef args[3] = {
      LLVMBuildPointerCast(g->b, ddst, g->c->ptr, ""),
      LLVMBuildPointerCast(g->b, dsrc, g->c->ptr, ""),
      n};
  LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, args, 3, "");
  return 0;
}

/* The shadow lives from the allocation to here, its reverse. A realloc
 * first moves the adjoints of the copied part back to the old shadow. */
static int rev_alloc(LtGen *g, LLVMValueRef i) {
  const LtAllocFn *af = lt_alloc_fn(i);
  LLVMValueRef s;
  if (af->out_arg >= 0) {
    if (!lt_points_any_active(&g->act_of.pts, i))
      return 0;
    s = lt_tape_load(g, LT_SLOT_SHADOW, i, g->c->ptr);
  } else {
    if (!lt_is_shadowed(&g->act_of, i) || lt_shadow_plain(&g->act_of, i))
      return 0; /* a plain shadow is the caller's (heap.c) */
    s = lt_rs(g, i);
  }
  if (af->old_arg >= 0) {
    LLVMValueRef old = lt_rs(g, LLVMGetOperand(i, (unsigned)af->old_arg));
    LtMemLayout L;
    if (old && !lt_realloc_layout(g->c, i, &L) && lt_mem_layout_has(&L, 0)) {
      LLVMValueRef m = lt_shadow_size(g->c, g->b, old);
      LLVMValueRef n = lt_shadow_size(g->c, g->b, s);
      LLVMValueRef k = LLVMBuildSelect(g->b, LLVMBuildICmp(g->b, LLVMIntULT, m, n, ""),
                                       m, n, "");
      LLVMValueRef f = lt_mem_helper(g->c, &L, 0);
      LLVMValueRef args[3] = {s, old, k};
      LLVMBuildCall2(g->b, LLVMGlobalGetValueType(f), f, args, 3, "");
    }
  }
  lt_shadow_free(g->c, g->b, s);
  return 0;
}

static int rev_call(LtGen *g, LLVMValueRef i) {
  const LtRule *rule;
  LtCallKind k = lt_call_kind(i, &rule);
  switch (k) {
  case LT_CALL_RULE:
    return lt_is_varied(&g->act_of, i) ? rev_rule(g, i, rule) : 0;
  case LT_CALL_COMPLEX:
    return lt_is_varied(&g->act_of, i) ? lt_rev_complex(g, i) : 0;
  case LT_CALL_DIFF:
    return lt_callee_reverse(g, i);
  case LT_CALL_CUSTOM:
    return lt_custom_reverse(g, i);
  case LT_CALL_MEMCPY:
  case LT_CALL_MEMSET:
    lt_undo_reverse_store(g, i); /* a block the undo log saved (overwrite.c) */
    return rev_memcall(g, i, k);
  case LT_CALL_MALLOC:
    return rev_alloc(g, i);
  case LT_CALL_SYNC:
    return lt_omp_reverse_sync(g, i);
  case LT_CALL_MPI:
    return lt_mpi_reverse(g, i);
  case LT_CALL_BLAS:
    return lt_blas_reverse(g, i);
  default:
    return 0; /* inactive, zero-derivative, free (the shadow is freed at
                 the reverse of its allocation) */
  }
}

static LLVMValueRef rsink(LtGen *g) {
  if (!g->r_sink)
    g->r_sink = lt_guard_sink(g->c, g->eb);
  return g->r_sink;
}

/* The shadow of p for reading (rd) and writing (wr) at g->b; guarded when
 * it may be null. 0 when p has no shadow. */
static int shadow_rw(LtGen *g, LLVMValueRef p, LLVMValueRef *rd,
                     LLVMValueRef *wr) {
  LLVMValueRef sp = lt_rs(g, p);
  if (!sp)
    return 0;
  *rd = *wr = sp;
  if (lt_shadow_maynull(&g->act_of, p)) {
    *rd = lt_guard_read(g->c, g->b, sp);
    *wr = lt_guard_write(g->c, g->b, sp, rsink(g));
  }
  return 1;
}

/* A constant integer (or vector of integers) as wide as a float, stored. */
static int const_int_store(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  if (!LLVMIsAConstant(v) || LLVMIsAConstantExpr(v))
    return 0;
  if (LLVMGetTypeKind(t) == LLVMVectorTypeKind)
    t = LLVMGetElementType(t);
  if (LLVMGetTypeKind(t) != LLVMIntegerTypeKind)
    return 0;
  unsigned w = LLVMGetIntTypeWidth(t);
  return w == 16 || w == 32 || w == 64 || w == 128;
}

/* In a parallel region: may another thread add into the shadow of the
 * memory inst accesses at p, at the same time? */
static int shared(LtGen *g, LLVMValueRef inst, LLVMValueRef p) {
  return g->parallel && !lt_omp_private(&g->fx, inst, p);
}

static void rev_store(LtGen *g, LLVMValueRef i) {
  LLVMValueRef v = LLVMGetOperand(i, 0), p = LLVMGetOperand(i, 1), rd, wr;
  LLVMTypeRef t = lt_adj_type(&g->act_of, v);
  if (const_int_store(v) && shadow_rw(g, p, &rd, &wr)) {
    /* -O2 turns memset(p, 0, 8) into `store i64 0`: what was stored there
     * before is overwritten, and its adjoint must not flow further back. */
    LLVMValueRef z = LLVMBuildStore(g->b, LLVMConstNull(LLVMTypeOf(v)), wr);
    LLVMSetAlignment(z, LLVMGetAlignment(i));
    lt_scope_shadow(g, z, i);
    return;
  }
  if (!lt_is_diff_ty(t) || !shadow_rw(g, p, &rd, &wr))
    return;
  if (lt_is_aggregate_ty(t)) {
    lt_rev_agg_memory(g, i, rd, wr, 1);
    return;
  }
  if (LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic && shared(g, i, p)) {
    /* an atomic write other threads may write too: one takes the adjoint */
    LLVMValueRef d = LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpXchg, wr,
                                        LLVMConstNull(t), LLVMAtomicOrderingMonotonic, 0);
    LLVMSetAlignment(d, LLVMGetAlignment(i));
    lt_adj_add(g, v, d);
    return;
  }
  if (lt_is_varied(&g->act_of, v)) {
    LLVMValueRef d = LLVMBuildLoad2(g->b, t, rd, "");
    LLVMSetAlignment(d, LLVMGetAlignment(i));
    lt_scope_shadow(g, d, i);
    lt_adj_add(g, v, d);
  }
  LLVMValueRef z = LLVMBuildStore(g->b, LLVMConstNull(t), wr);
  LLVMSetAlignment(z, LLVMGetAlignment(i));
  lt_scope_shadow(g, z, i);
}

static int rev_load(LtGen *g, LLVMValueRef i) {
  LLVMValueRef rd, wr, p = LLVMGetOperand(i, 0);
  if (!shadow_rw(g, p, &rd, &wr))
    return 0;
  if (lt_is_aggregate_ty(LLVMTypeOf(i))) {
    if (shared(g, i, p)) {
      lt_error(g->c, i, "a load of a whole struct or array from memory that "
                        "several threads of a parallel region share is not "
                        "supported; load its members one by one");
      return -1;
    }
    lt_rev_agg_memory(g, i, rd, wr, 0);
    return 0;
  }
  LLVMValueRef d = lt_adj_read(g, i);
  /* Through the sink when the shadow is null: the sum is discarded. */
  int sh = shared(g, i, p);
  LLVMValueRef pw = sh ? lt_omp_private_shadow(g, i, wr) : NULL;
  lt_omp_accumulate(g, pw ? pw : wr, d, LLVMGetAlignment(i), sh && !pw, i);
  return 0;
}

/* r = atomicrmw op p, v (fadd, fsub, xchg): a read of *p then a write
 * of r op v. The write's reverse gives v the shadow's adjoint (add and
 * subtract keep it in the shadow, exchange takes it out); the read's adds
 * r's adjoint back into the shadow. Atomic where other threads may share
 * the shadow. */
static int rev_atomicrmw(LtGen *g, LLVMValueRef i) {
  LLVMValueRef p = LLVMGetOperand(i, 0), v = LLVMGetOperand(i, 1), rd, wr;
  if (!shadow_rw(g, p, &rd, &wr))
    return 0;
  LLVMTypeRef t = LLVMTypeOf(i);
  unsigned align = LLVMGetAlignment(i);
  int sh = shared(g, i, p);
  LLVMValueRef dr = lt_is_varied(&g->act_of, i) ? lt_adj_read(g, i) : NULL;
  LLVMValueRef d;
  if (LLVMGetAtomicRMWBinOp(i) == LLVMAtomicRMWBinOpXchg) {
    LLVMValueRef back = dr ? dr : LLVMConstNull(t);
    if (sh) {
      d = LLVMBuildAtomicRMW(g->b, LLVMAtomicRMWBinOpXchg, wr, back,
                             LLVMAtomicOrderingMonotonic, 0);
      LLVMSetAlignment(d, align);
    } else {
      d = LLVMBuildLoad2(g->b, t, rd, "");
      LLVMSetAlignment(d, align);
      LLVMSetAlignment(LLVMBuildStore(g->b, back, wr), align);
    }
    lt_adj_add(g, v, d);
    return 0;
  }
  d = LLVMBuildLoad2(g->b, t, rd, "");
  LLVMSetAlignment(d, align);
  if (sh)
    LLVMSetOrdering(d, LLVMAtomicOrderingMonotonic);
  lt_adj_add(g, v, LLVMGetAtomicRMWBinOp(i) == LLVMAtomicRMWBinOpFSub
                       ? LLVMBuildFNeg(g->b, d, "")
                       : d);
  if (dr)
    lt_omp_accumulate(g, wr, dr, align, sh, NULL);
  return 0;
}

int lt_revinst(LtGen *g, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  lt_map_put(&g->reversed, i, (void *)1);
  if (op == LLVMAlloca) {
    if (g->split && lt_is_shadowed(&g->act_of, i))
      lt_build_free(g->b, g->c->mod, lt_rs(g, i)); /* heap shadow, forward.c */
    return 0;
  }
  if (op == LLVMStore) {
    lt_undo_reverse_store(g, i); /* first: what the store's reverse reads */
    rev_store(g, i);
    return 0;
  }
  if (op == LLVMCall)
    return rev_call(g, i);
  if (op == LLVMAtomicRMW)
    return lt_atomic_differentiable(i) ? rev_atomicrmw(g, i) : 0;
  if (!lt_is_varied(&g->act_of, i))
    return 0;
  switch (op) {
  case LLVMLoad:
    return rev_load(g, i);
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFDiv:
  case LLVMFRem:
    return rev_binary(g, i, lt_adj_read(g, i));
  case LLVMFNeg:
    lt_adj_add(g, LLVMGetOperand(i, 0), LLVMBuildFNeg(g->b, lt_adj_read(g, i), ""));
    return 0;
  case LLVMFPExt:
  case LLVMFPTrunc: {
    LLVMValueRef a = LLVMGetOperand(i, 0);
    lt_adj_add(g, a, LLVMBuildFPCast(g->b, lt_adj_read(g, i), LLVMTypeOf(a), ""));
    return 0;
  }
  case LLVMFreeze:
  case LLVMBitCast: /* float bits moved through an integer (bits.c) */
    lt_adj_add(g, LLVMGetOperand(i, 0), lt_adj_read(g, i));
    return 0;
  case LLVMExtractValue:
  case LLVMInsertValue:
  case LLVMExtractElement:
  case LLVMInsertElement:
  case LLVMShuffleVector:
    return lt_rev_agg(g, i);
  case LLVMSelect: {
    LLVMValueRef d = lt_adj_read(g, i), c = lt_rv(g, LLVMGetOperand(i, 0));
    LLVMValueRef z = LLVMConstNull(lt_adj_type(&g->act_of, i));
    lt_adj_add(g, LLVMGetOperand(i, 1), LLVMBuildSelect(g->b, c, d, z, ""));
    lt_adj_add(g, LLVMGetOperand(i, 2), LLVMBuildSelect(g->b, c, z, d, ""));
    return 0;
  }
  default: {
    char msg[128];
    snprintf(msg, sizeof msg, "no adjoint for opcode %d", (int)op);
    lt_internal_error(g->c, g->P, msg);
    return -1;
  }
  }
}
