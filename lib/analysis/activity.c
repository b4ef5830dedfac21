/* activity.c: which values carry derivatives.
 *
 * A float value is varied when it depends on an active input: an enzyme_out
 * argument, or a load from active memory. Which memory is active, and so
 * which pointers have shadows, comes from the points-to sets (points.c):
 * both are forward fixpoints over the blocks in RPO, run together because
 * each feeds the other (an allocation becomes active when a varied value
 * is stored in it). A second walk rejects what the reverse pass cannot
 * handle (unknown external calls, inline asm, aggregates on varied values,
 * active data left in memory that has no shadow and read back).
 *
 * activity.c, points.c, bits.c and memlayout.c call each other: they are
 * one fixpoint (which floats vary, which memory has shadows, which integers
 * carry float bits, what a copy moves), split by concept for size.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

int lt_atomic_differentiable(LLVMValueRef i) {
  LLVMAtomicRMWBinOp op = LLVMGetAtomicRMWBinOp(i);
  return lt_is_float_ty(LLVMTypeOf(i)) &&
         (op == LLVMAtomicRMWBinOpFAdd || op == LLVMAtomicRMWBinOpFSub ||
          op == LLVMAtomicRMWBinOpXchg);
}

int lt_is_varied(const LtActivity *a, LLVMValueRef v) {
  return lt_map_get(&a->varied, v) != NULL;
}

int lt_is_shadowed(LtActivity *a, LLVMValueRef v) {
  return lt_is_ptr_ty(LLVMTypeOf(v)) && lt_points_any_active(&a->pts, v);
}

int lt_shadow_maynull(LtActivity *a, LLVMValueRef v) {
  return lt_is_shadowed(a, v) && lt_points_any_inactive(&a->pts, v);
}

static int varied(LtActivity *a, LLVMValueRef v) { return lt_is_varied(a, v); }

static int any_operand(LtActivity *a, LLVMValueRef i, unsigned nops,
                       int (*pred)(LtActivity *, LLVMValueRef)) {
  for (unsigned k = 0; k < nops; k++)
    if (pred(a, LLVMGetOperand(i, k)))
      return 1;
  return 0;
}

static int call_varied(LtActivity *a, LLVMValueRef i) {
  const LtRule *rule;
  unsigned n = LLVMGetNumArgOperands(i);
  switch (lt_call_kind(i, &rule)) {
  case LT_CALL_RULE:
    for (unsigned k = 0; k < n && k < LT_RULE_MAXARGS; k++)
      if ((rule->active_mask >> k & 1) && lt_is_varied(a, LLVMGetOperand(i, k)))
        return 1;
    return 0;
  case LT_CALL_COMPLEX:
    return any_operand(a, i, n, varied);
  case LT_CALL_DIFF:
  case LT_CALL_CUSTOM:
  case LT_CALL_UNKNOWN:
  case LT_CALL_BLAS: /* dot, nrm2, asum of active vectors */
    return any_operand(a, i, n, varied) ||
           any_operand(a, i, n, lt_is_shadowed);
  default:
    return 0;
  }
}

static int float_varied(LtActivity *a, LLVMValueRef i) {
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMFAdd:
  case LLVMFSub:
  case LLVMFMul:
  case LLVMFDiv:
  case LLVMFRem:
  case LLVMFNeg:
  case LLVMFPExt:
  case LLVMFPTrunc:
  case LLVMFreeze:
  case LLVMBitCast:
  case LLVMSelect:
  case LLVMExtractValue:
  case LLVMExtractElement:
  case LLVMInsertValue:
  case LLVMInsertElement:
  case LLVMShuffleVector:
    return any_operand(a, i, (unsigned)LLVMGetNumOperands(i), varied);
  case LLVMPHI:
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++)
      if (lt_is_varied(a, LLVMGetIncomingValue(i, k)))
        return 1;
    return 0;
  case LLVMLoad:
    return lt_is_shadowed(a, LLVMGetOperand(i, 0));
  case LLVMAtomicRMW: /* the old value, read from the memory */
    return lt_is_shadowed(a, LLVMGetOperand(i, 0));
  case LLVMCall:
    return call_varied(a, i);
  default:
    return 0;
  }
}


/* Every user is a sanitizer report call: the value is only printed. */
static int only_sanitizer_uses(LLVMValueRef v) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    size_t len;
    const char *n = LLVMIsACallInst(user) ? lt_callee_name(user, &len) : "";
    if (strncmp(n, "__ubsan_", 8))
      return 0;
  }
  return 1;
}

/* Active data stored into memory without a shadow (an enzyme_const
 * argument, a global) loses its derivative; that only matters when the
 * function reads it back. Pass 1 marks such memory, pass 2 reports reads. */
static int blas_activate(LtActivity *a, LLVMValueRef i, int taint);

/* A call differentiated on its own (or with a custom gradient) that reads
 * a varied value or active memory. */
static int active_kept_call(LtActivity *a, LLVMValueRef i) {
  const LtRule *rule;
  LtCallKind k = lt_call_kind(i, &rule);
  if (k != LT_CALL_DIFF && k != LT_CALL_CUSTOM)
    return 0;
  for (unsigned q = 0, n = LLVMGetNumArgOperands(i); q < n; q++)
    if (lt_is_varied(a, LLVMGetOperand(i, q)) ||
        lt_points_any_active(&a->pts, LLVMGetOperand(i, q)))
      return 1;
  return 0;
}

static void taint_stores(LtActivity *a, LLVMValueRef i) {
  const LtRule *rule;
  if (LLVMIsAStoreInst(i)) {
    LLVMValueRef v = LLVMGetOperand(i, 0);
    if (lt_is_varied(a, v) || lt_points_any_active(&a->pts, v))
      lt_points_taint(&a->pts, LLVMGetOperand(i, 1));
  } else if (LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_MEMCPY &&
             lt_points_any_active(&a->pts, LLVMGetOperand(i, 1))) {
    lt_points_taint(&a->pts, LLVMGetOperand(i, 0));
  } else if (LLVMIsACallInst(i) && active_kept_call(a, i)) {
    /* what a kept call with active inputs stores through a pointer it is
     * given may be active (paramstores.c) */
    LLVMValueRef f = lt_called_fn(i);
    for (unsigned q = 0, n = LLVMGetNumArgOperands(i); q < n; q++)
      if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, q))) && lt_param_stores(a->pts.c, f, q))
        lt_points_taint(&a->pts, LLVMGetOperand(i, q));
  }
  blas_activate(a, i, 1);
}

/* A BLAS call reads active data: a varied scalar, or a matrix, vector
 * or (Fortran) scalar in memory with a shadow. */
static int blas_active_in(LtActivity *a, LLVMValueRef i, const LtBlasCall *d) {
  int in[5];
  for (unsigned k = 0, n = lt_blas_inputs(d, in); k < n; k++)
    if (lt_is_shadowed(a, LLVMGetOperand(i, (unsigned)in[k])))
      return 1;
  int s[2] = {d->alpha, d->beta};
  for (int k = 0; k < 2; k++)
    if (s[k] >= 0 && (lt_is_varied(a, LLVMGetOperand(i, (unsigned)s[k])) ||
                      lt_is_shadowed(a, LLVMGetOperand(i, (unsigned)s[k]))))
      return 1;
  return 0;
}

/* What a BLAS routine with a rule writes from active inputs gets a
 * shadow (taint: where it cannot, reading it back is an error). */
static int blas_activate(LtActivity *a, LLVMValueRef i, int taint) {
  LtBlasCall d;
  const LtRule *rule;
  if (!LLVMIsACallInst(i) || lt_call_kind(i, &rule) != LT_CALL_BLAS ||
      lt_blas_call(i, &d) == LT_BLAS_UNSUPPORTED || !blas_active_in(a, i, &d))
    return 0;
  int o[2], changed = 0;
  for (unsigned k = 0, n = lt_blas_outputs(&d, o); k < n; k++) {
    LLVMValueRef p = LLVMGetOperand(i, (unsigned)o[k]);
    changed |= taint ? lt_points_taint(&a->pts, p) : lt_points_activate(&a->pts, p);
  }
  return changed;
}

/* Two integer operands (Fortran's: pointers) are one value. */
static int same_int(LLVMValueRef a, LLVMValueRef b) {
  if (a == b)
    return 1;
  return LLVMIsAConstantInt(a) && LLVMIsAConstantInt(b) &&
         LLVMConstIntGetSExtValue(a) == LLVMConstIntGetSExtValue(b);
}

/* An active BLAS call that cannot be differentiated: reported, -1. */
static int check_blas(LtCtx *c, LtActivity *a, LLVMValueRef i) {
  LtBlasCall d;
  size_t len;
  const char *n = lt_callee_name(i, &len);
  int in[5];
  if (lt_blas_call(i, &d) == LT_BLAS_UNSUPPORTED) {
    lt_error(c, i, "no derivative rule for '%.*s' (a BLAS/LAPACK routine Leantape "
                   "has no rule for yet); mark its arguments enzyme_const, or register "
                   "a custom derivative (void *__enzyme_register_gradient_<name>[3] = "
                   "{%.*s, augmented, gradient}; see the README)",
             (int)len, n, (int)len, n);
    return -1;
  }
  if (d.unknown_flag) {
    lt_error(c, i, "'%.*s' on active data: its layout and transposes must be "
                   "constants (CblasRowMajor, CblasTrans, or \"N\"/\"T\" literals)",
             (int)len, n);
    return -1;
  }
  if (d.kind == LT_BLAS_GETRF && !same_int(LLVMGetOperand(i, (unsigned)d.m),
                                            LLVMGetOperand(i, (unsigned)d.n))) {
    lt_error(c, i, "'%.*s' on active data: the rule is for square matrices; pass "
                   "the same variable or constant as m and n",
             (int)len, n);
    return -1;
  }
  for (unsigned k = 0, ni = lt_blas_inputs(&d, in); k < ni; k++) {
    LLVMValueRef p = LLVMGetOperand(i, (unsigned)in[k]);
    if (lt_points_reads_tainted(&a->pts, p)) {
      lt_error(c, i, "'%.*s' reads an active value that was stored to memory that "
                     "has no shadow (a global, or an enzyme_const argument); pass that "
                     "memory as an enzyme_dup argument with a shadow buffer",
               (int)len, n);
      return -1;
    }
  }
  int all[7] = {d.a, d.b, d.c, d.x, d.y, d.fortran ? d.alpha : -1, d.fortran ? d.beta : -1};
  for (int k = 0; k < 7; k++)
    if (all[k] >= 0 && lt_shadow_maynull(a, LLVMGetOperand(i, (unsigned)all[k]))) {
      lt_error(c, i, "'%.*s': argument %d may address active or inactive memory "
                     "(its shadow may be null at run time), which BLAS rules do "
                     "not support yet; pass one kind of memory",
               (int)len, n, all[k] + 1);
      return -1;
    }
  return 0;
}

static int check_memory(LtCtx *c, LtActivity *a, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  const LtRule *rule;
  LLVMValueRef from = NULL;
  if (op == LLVMLoad && (lt_is_float_ty(LLVMTypeOf(i)) || lt_is_ptr_ty(LLVMTypeOf(i))))
    from = LLVMGetOperand(i, 0);
  else if (op == LLVMCall && lt_call_kind(i, &rule) == LT_CALL_MEMCPY)
    from = LLVMGetOperand(i, 1);
  if (from && lt_points_reads_tainted(&a->pts, from) &&
      !lt_inactive_readback_ok(a, i) &&
      !lt_scratch_params(a, LLVMGetBasicBlockParent(LLVMGetInstructionParent(i)), from)) {
    lt_error(c, i, "this reads back an active value that was stored to "
                   "memory that has no shadow (a global, or an enzyme_const "
                   "argument), so its derivative would be lost; pass that "
                   "memory as an enzyme_dup argument with a shadow buffer");
    return -1;
  }
  if (lt_map_get(&a->bits_lost, i)) {
    lt_error(c, i, "an active floating-point value is reinterpreted as "
                   "bits and used in integer arithmetic (type punning, bit "
                   "tricks), so its derivative would be lost; compute with "
                   "floating-point operations, or register a custom "
                   "gradient for the function");
    return -1;
  }
  if (lt_map_get(&a->bits_mixed, i) && !lt_bits_type(a, i)) {
    lt_error(c, i, "this integer copy of active memory may hold "
                   "floating-point bits, but the program also treats the "
                   "same bits as other data (floats packed with integers or "
                   "pointers in one word), so their derivative cannot be "
                   "carried; copy the floating-point fields separately, or "
                   "register a custom gradient for the function");
    return -1;
  }
  return 0;
}

/* Integers that come (through casts and shuffles) from a load of memory
 * with a shadow: floating-point data moved as an integer vector. */
static int ints_from_active_memory(LtActivity *a, LLVMValueRef v, int depth) {
  if (depth > 8 || !LLVMIsAInstruction(v) || lt_bits_type(a, v))
    return 0;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMLoad:
    return lt_is_shadowed(a, LLVMGetOperand(v, 0));
  case LLVMBitCast:
  case LLVMFreeze:
    return ints_from_active_memory(a, LLVMGetOperand(v, 0), depth + 1);
  case LLVMShuffleVector:
  case LLVMInsertElement:
  case LLVMExtractElement:
    return ints_from_active_memory(a, LLVMGetOperand(v, 0), depth + 1) ||
           (LLVMGetInstructionOpcode(v) != LLVMExtractElement &&
            ints_from_active_memory(a, LLVMGetOperand(v, 1), depth + 1));
  default:
    return 0;
  }
}

static int check_inst(LtCtx *c, LtActivity *a, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  unsigned nops = (unsigned)LLVMGetNumOperands(i);
  int vin = any_operand(a, i, nops, varied);
  const LtRule *rule;
  if (op == LLVMIndirectBr) {
    lt_error(c, i, "computed goto (indirect branch) is not supported in "
                   "differentiated code");
    return -1;
  }
  if (check_memory(c, a, i))
    return -1;
  if (op == LLVMInvoke || op == LLVMLandingPad || op == LLVMResume ||
      op == LLVMCallBr) {
    lt_error(c, i, "exception handling and callbr are not supported in "
                   "differentiated code");
    return -1;
  }
  if (op == LLVMAtomicRMW && lt_is_shadowed(a, LLVMGetOperand(i, 0)) &&
      !lt_atomic_differentiable(i)) {
    lt_error(c, i, "this atomic operation on active memory is not supported "
                   "(atomic add, subtract and exchange of floating-point "
                   "values are; for OpenMP: 'atomic' updates with + and -)");
    return -1;
  }
  if (op == LLVMBitCast && vin && !lt_is_diff_ty(LLVMTypeOf(i)) &&
      !lt_bits_type(a, i) && !only_sanitizer_uses(i)) {
    lt_error(c, i, "an active floating-point value is reinterpreted as "
                   "bits; its derivative would be lost (use arithmetic, or "
                   "mark the input enzyme_const)");
    return -1;
  }
  if (op == LLVMBitCast && !vin && lt_is_diff_ty(LLVMTypeOf(i)) &&
      !lt_is_diff_ty(LLVMTypeOf(LLVMGetOperand(i, 0))) && !lt_bits_type(a, i) &&
      ints_from_active_memory(a, LLVMGetOperand(i, 0), 0)) {
    /* read as integers, the data would arrive here without a derivative */
    lt_error(c, i, "floating-point data is read from active memory as an "
                   "integer vector and turned back into floating point; its "
                   "derivative would be lost (load it as floating point, or "
                   "mark the input enzyme_const)");
    return -1;
  }
  if (op == LLVMBitCast && vin && lt_is_diff_ty(LLVMTypeOf(i)) &&
      LLVMTypeOf(i) != LLVMTypeOf(LLVMGetOperand(i, 0)) &&
      !lt_is_float_ty(LLVMTypeOf(i))) {
    lt_error(c, i, "an active vector is reinterpreted as another vector "
                   "type; this is not supported yet");
    return -1;
  }
  if (op != LLVMCall)
    return 0;
  LLVMValueRef callee = LLVMGetCalledValue(i);
  unsigned nargs = LLVMGetNumArgOperands(i);
  int active = any_operand(a, i, nargs, varied) ||
               any_operand(a, i, nargs, lt_is_shadowed);
  if (lt_call_is_fallback(i)) {
    /* no function of the module answered this indirect call: on active
     * data the derivative cannot go on (prep/indirect.c) */
    LLVMValueRef check = lt_fallback_check(i);
    if (active && check)
      LLVMSetOperand(check, 0, LLVMConstInt(c->i1, 1, 0));
    if (active && !check)
      lt_error(c, i, "indirect call on an active value; call the function "
                     "directly");
    return active && !check ? -1 : 0;
  }
  if (LLVMIsAInlineAsm(callee)) {
    if (active) {
      lt_error(c, i, "inline assembly on an active value; compute it in C, "
                     "or mark the input enzyme_const");
      return -1;
    }
    return 0;
  }
  size_t len;
  const char *n = lt_callee_name(i, &len);
  if (lt_is_enzyme_name(n, len) && !lt_is_iter_hint(i)) {
    lt_error(c, i, "nested differentiation: '%.*s' inside a differentiated "
                   "function is not supported yet",
             (int)len, n);
    return -1;
  }
  LtMpiCall m;
  if (lt_call_kind(i, &rule) == LT_CALL_MPI && lt_mpi_call(i, &m) != LT_MPI_NONE) {
    const char *why = lt_mpi_check(&m, i, active);
    if (why)
      lt_error(c, i, "'%.*s' %s", (int)len, n, why);
    return why ? -1 : 0;
  }
  if (lt_call_kind(i, &rule) == LT_CALL_BLAS)
    return active ? check_blas(c, a, i) : 0;
  if (lt_call_kind(i, &rule) == LT_CALL_LINK && active)
    for (unsigned q = 0; q < nargs; q++) {
      LLVMValueRef p = LLVMGetOperand(i, q);
      if (lt_is_ptr_ty(LLVMTypeOf(p)) && !LLVMIsAConstantPointerNull(p) &&
          (!lt_is_shadowed(a, p) || lt_points_any_inactive_node(&a->pts, p))) {
        lt_error(c, i, "'%.*s' links active nodes with nodes that have no "
                       "shadow (argument %u), so the shadow structure cannot "
                       "follow it; keep active values and inactive ones in "
                       "separate containers",
                 (int)len, n, q + 1);
        return -1;
      }
    }
  if (lt_masked_int_store(i) && varied(a, LLVMGetOperand(i, 0))) {
    lt_error(c, i, "an active floating-point value is stored as integer bits "
                   "by '%.*s'; its derivative would be lost (store it as "
                   "floating point, or mark the input enzyme_const)",
             (int)len, n);
    return -1;
  }
  if (lt_call_kind(i, &rule) != LT_CALL_UNKNOWN || !active)
    return 0;
  /* the callee may well be defined in another file of the program */
  const char *thin = c->host->thinlto_o0
                         ? "; ThinLTO at -O0 differentiates in each "
                           "compile step, which sees this file only: define "
                           "the callee here, or use -O1 or full LTO (-flto)"
                         : "";
  if (!len)
    lt_error(c, i, "indirect call on an active value, and no function of "
                   "this module can be its callee (none of its type has its "
                   "address taken); define the callee in this module, call "
                   "it directly, or mark the argument enzyme_const%s",
             thin);
  else
    lt_error(c, i, "no derivative rule for '%.*s'; define it in this module "
                   "so it can be differentiated, mark the argument "
                   "enzyme_const, or register a custom gradient%s",
             (int)len, n, thin);
  return -1;
}

/* Allocations that must get a shadow because of what i does with them:
 * active data or active pointers stored or copied into them, or a pointer
 * that may address them and active memory alike. */
static int activate(LtActivity *a, LLVMValueRef i) {
  LtPoints *pt = &a->pts;
  const LtRule *rule;
  int changed = 0;
  if (LLVMIsAStoreInst(i)) {
    LLVMValueRef v = LLVMGetOperand(i, 0), q = LLVMGetOperand(i, 1);
    if (lt_is_varied(a, v) || lt_points_any_active(pt, v))
      changed |= lt_points_activate(pt, q);
    /* A pointer stored into memory with a shadow gets one (whoever loads
     * it back, here or in a caller, finds its shadow there). */
    if (lt_points_any_active(pt, q) && !lt_is_varied(a, v))
      changed |= lt_points_activate(pt, v);
  } else if (LLVMIsAAtomicRMWInst(i)) {
    if (lt_is_varied(a, LLVMGetOperand(i, 1)))
      changed |= lt_points_activate(pt, LLVMGetOperand(i, 0));
  } else if (LLVMIsALoadInst(i) && lt_points_any_active(pt, i)) {
    /* Loading a pointer with a shadow needs the shadow of the memory. */
    changed |= lt_points_activate(pt, LLVMGetOperand(i, 0));
  } else if (LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_MEMCPY &&
             lt_points_any_active(pt, LLVMGetOperand(i, 1))) {
    changed |= lt_points_activate(pt, LLVMGetOperand(i, 0));
  }
  if (lt_points_any_active(pt, i))
    changed |= lt_points_activate(pt, i);
  changed |= blas_activate(a, i, 0);
  /* What an MPI call receives may be active on the sending rank: the
   * receive buffers of floating-point data get shadows whatever this
   * rank stores there (every rank then takes part in the adjoint
   * communication). */
  LtMpiCall m;
  if (LLVMIsACallInst(i) && lt_mpi_call(i, &m) > LT_MPI_INERT && lt_mpi_float(&m, i) &&
      m.rbuf >= 0)
    changed |= lt_points_activate(pt, LLVMGetOperand(i, (unsigned)m.rbuf));
  const LtAllocFn *af = LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_MALLOC
                            ? lt_alloc_fn(i)
                            : NULL;
  if (af && af->old_arg >= 0) {
    /* The reverse of realloc moves adjoints from the new block's shadow
     * back to the old one's: both or neither have one. */
    LLVMValueRef old = LLVMGetOperand(i, (unsigned)af->old_arg);
    if (lt_points_any_active(pt, old))
      changed |= lt_points_activate(pt, i);
    if (lt_points_any_active(pt, i))
      changed |= lt_points_activate(pt, old);
  }
  if (af && af->out_arg >= 0 && lt_points_any_active(pt, i))
    changed |= lt_points_activate(pt, LLVMGetOperand(i, (unsigned)af->out_arg));
  /* A function differentiated on its own may store what it computes from
   * active inputs into any memory it is given: that memory gets shadows. */
  LtCallKind k = LLVMIsACallInst(i) ? lt_call_kind(i, &rule) : LT_CALL_INACTIVE;
  if (k == LT_CALL_DIFF || k == LT_CALL_CUSTOM) {
    unsigned n = LLVMGetNumArgOperands(i);
    int active = 0;
    for (unsigned q = 0; q < n && !active; q++)
      active = lt_is_varied(a, LLVMGetOperand(i, q)) ||
               lt_points_any_active(pt, LLVMGetOperand(i, q));
    for (unsigned q = 0; q < n && active; q++)
      if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, q))))
        changed |= lt_points_activate_reach(pt, LLVMGetOperand(i, q));
  }
  /* A link call does the same to the shadows: with one node of the
   * structure active, all of them and their links are. */
  if (k == LT_CALL_LINK) {
    unsigned n = LLVMGetNumArgOperands(i);
    int active = lt_points_any_active(pt, i);
    for (unsigned q = 0; q < n && !active; q++)
      active = lt_points_any_active(pt, LLVMGetOperand(i, q));
    for (unsigned q = 0; q < n && active; q++)
      if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, q))))
        changed |= lt_points_activate_reach(pt, LLVMGetOperand(i, q));
    if (active && lt_is_ptr_ty(LLVMTypeOf(i)))
      changed |= lt_points_activate_reach(pt, i);
  }
  /* A callee whose caller uses the shadow of its pointer result gives
   * what it returns a shadow (a buffer it allocates, say). */
  if (a->ret_shadow && LLVMIsAReturnInst(i) && LLVMGetNumOperands(i) == 1 &&
      lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, 0))))
    changed |= lt_points_activate(pt, LLVMGetOperand(i, 0));
  return changed;
}

int lt_activity_run(LtCtx *c, LtActivity *a, LLVMValueRef fn, const LtCfg *g,
                    const LtAct *act, const unsigned char *pflags) {
  lt_map_init(&a->varied, 64);
  lt_points_init(&a->pts, c, fn, g, act, pflags);
  for (unsigned p = 0, n = LLVMCountParams(fn); p < n; p++)
    if (act[p] == LT_OUT)
      lt_map_put(&a->varied, LLVMGetParam(fn, p), (void *)1);
  /* Which integers move float bits depends on which memory is active,
   * and the other way round: alternate until the bit groups settle. */
  for (int round = 0; round < 4; round++) {
    for (int changed = 1; changed;) {
      changed = 0;
      for (unsigned b = 0; b < g->nblocks; b++)
        for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
             i = LLVMGetNextInstruction(i)) {
          changed |= lt_points_step(&a->pts, i);
          if ((lt_is_diff_ty(LLVMTypeOf(i)) || lt_bits_type(a, i)) &&
              !lt_is_varied(a, i) && float_varied(a, i)) {
            lt_map_put(&a->varied, i, (void *)1);
            changed = 1;
          }
          changed |= activate(a, i);
        }
    }
    size_t before = a->bits_ty.n + a->bits_lost.n + a->bits_mixed.n;
    lt_bits_run(a, fn, g, c);
    if (a->bits_ty.n + a->bits_lost.n + a->bits_mixed.n == before)
      break;
  }
  lt_ptr_words_run(a, g);
  for (unsigned b = 0; b < g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
         i = LLVMGetNextInstruction(i))
      taint_stores(a, i);
  /* A compare-and-exchange loop on active memory (C's atomic multiply,
   * OpenMP's `atomic` x *= y) also moves the float's bits through an
   * integer before the cmpxchg; name the loop, not the bits. */
  for (unsigned b = 0; b < g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMIsAAtomicCmpXchgInst(i) && lt_is_shadowed(a, LLVMGetOperand(i, 0))) {
        lt_error(c, i, "a compare-and-exchange on active memory is not supported "
                       "(for OpenMP: 'atomic' updates other than + and -, e.g. "
                       "x *= y or a max; use a critical section instead)");
        return -1;
      }
  for (unsigned b = 0; b < g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
         i = LLVMGetNextInstruction(i))
      if (check_inst(c, a, i))
        return -1;
  return a->scratch ? 2 : 0;
}

void lt_activity_free(LtActivity *a) {
  free(a->scratch);
  a->scratch = NULL;
  lt_map_free(&a->varied);
  lt_map_free(&a->bits_ty);
  lt_map_free(&a->bits_lost);
  lt_map_free(&a->bits_mixed);
  lt_map_free(&a->bits_ptr);
  lt_map_free(&a->ptr_words);
  lt_points_free(&a->pts);
}
