/* activity.c: which values carry derivatives.
 *
 * A float value is varied when it depends on an active input: an enzyme_out
 * argument, or a load through a pointer that has a shadow. A pointer is
 * shadowed when it derives from a dup argument, a local allocation or a
 * load through a shadowed pointer. Both are forward fixpoints over the
 * blocks in RPO. A second walk rejects what the reverse pass cannot handle
 * (unknown external calls, inline asm, aggregates on varied values).
 */
#include "lt.h"

#include <string.h>

int lt_is_varied(const LtActivity *a, LLVMValueRef v) {
  return lt_map_get(&a->varied, v) != NULL;
}

int lt_is_shadowed(const LtActivity *a, LLVMValueRef v) {
  return lt_map_get(&a->shadowed, v) != NULL;
}

static int any_operand(const LtActivity *a, LLVMValueRef i, unsigned nops,
                       int (*pred)(const LtActivity *, LLVMValueRef)) {
  for (unsigned k = 0; k < nops; k++)
    if (pred(a, LLVMGetOperand(i, k)))
      return 1;
  return 0;
}

static int call_varied(const LtActivity *a, LLVMValueRef i) {
  const LtRule *rule;
  unsigned n = LLVMGetNumArgOperands(i);
  switch (lt_call_kind(i, &rule)) {
  case LT_CALL_RULE:
    for (unsigned k = 0; k < n && k < LT_RULE_MAXARGS; k++)
      if ((rule->active_mask >> k & 1) && lt_is_varied(a, LLVMGetOperand(i, k)))
        return 1;
    return 0;
  case LT_CALL_UNKNOWN:
    return any_operand(a, i, n, lt_is_varied) ||
           any_operand(a, i, n, lt_is_shadowed);
  default:
    return 0;
  }
}

static int float_varied(const LtActivity *a, LLVMValueRef i) {
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
  case LLVMSelect:
  case LLVMExtractValue:
  case LLVMExtractElement:
    return any_operand(a, i, (unsigned)LLVMGetNumOperands(i), lt_is_varied);
  case LLVMPHI:
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++)
      if (lt_is_varied(a, LLVMGetIncomingValue(i, k)))
        return 1;
    return 0;
  case LLVMLoad:
    return lt_is_shadowed(a, LLVMGetOperand(i, 0));
  case LLVMCall:
    return call_varied(a, i);
  default:
    return 0;
  }
}

static int ptr_shadowed(const LtActivity *a, LLVMValueRef i) {
  const LtRule *rule;
  switch (LLVMGetInstructionOpcode(i)) {
  case LLVMGetElementPtr:
  case LLVMBitCast:
  case LLVMAddrSpaceCast:
  case LLVMLoad:
  case LLVMFreeze:
    return lt_is_shadowed(a, LLVMGetOperand(i, 0));
  case LLVMSelect:
    return lt_is_shadowed(a, LLVMGetOperand(i, 1)) ||
           lt_is_shadowed(a, LLVMGetOperand(i, 2));
  case LLVMPHI:
    for (unsigned k = 0, n = LLVMCountIncoming(i); k < n; k++)
      if (lt_is_shadowed(a, LLVMGetIncomingValue(i, k)))
        return 1;
    return 0;
  case LLVMAlloca:
    return 1;
  case LLVMCall:
    return lt_call_kind(i, &rule) == LT_CALL_MALLOC;
  default:
    return 0;
  }
}

static int is_aggregate_or_vector(LLVMTypeRef t) {
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return k == LLVMStructTypeKind || k == LLVMArrayTypeKind ||
         k == LLVMVectorTypeKind || k == LLVMScalableVectorTypeKind;
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

/* Does the function read floating-point data from the object at base? */
static int reads_floats_from(LLVMValueRef fn, LLVMValueRef base) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMIsALoadInst(i) && lt_is_float_ty(LLVMTypeOf(i)) &&
          lt_base_of(LLVMGetOperand(i, 0)) == base)
        return 1;
  return 0;
}

static int check_memory(LtCtx *c, const LtActivity *a, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  /* An active value in memory without a shadow loses its derivative when
   * the function reads it back (what the caller does with it is the
   * caller's choice of activity). */
  if (op == LLVMStore && lt_is_varied(a, LLVMGetOperand(i, 0)) &&
      !lt_is_shadowed(a, LLVMGetOperand(i, 1)) &&
      reads_floats_from(LLVMGetBasicBlockParent(LLVMGetInstructionParent(i)),
                        lt_base_of(LLVMGetOperand(i, 1)))) {
    lt_error(c, i, "an active value is stored to memory that has no shadow "
                   "(a global, or an enzyme_const argument), so its "
                   "derivative would be lost; pass that memory as an "
                   "enzyme_dup argument with a shadow buffer");
    return -1;
  }
  if (op == LLVMBitCast && lt_is_float_ty(LLVMTypeOf(i)) &&
      LLVMIsALoadInst(LLVMGetOperand(i, 0)) &&
      lt_is_shadowed(a, LLVMGetOperand(LLVMGetOperand(i, 0), 0))) {
    lt_error(c, i, "floating-point data in active memory is accessed as an "
                   "integer (type punning, or a small memcpy turned into an "
                   "integer copy), so its derivative would be lost; copy it "
                   "as floating-point values");
    return -1;
  }
  return 0;
}

static int check_inst(LtCtx *c, const LtActivity *a, LLVMValueRef i) {
  LLVMOpcode op = LLVMGetInstructionOpcode(i);
  unsigned nops = (unsigned)LLVMGetNumOperands(i);
  int vin = any_operand(a, i, nops, lt_is_varied);
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
  if ((op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg) &&
      lt_is_shadowed(a, LLVMGetOperand(i, 0))) {
    lt_error(c, i, "atomic operations on active memory are not supported");
    return -1;
  }
  if (op == LLVMBitCast && vin && !lt_is_float_ty(LLVMTypeOf(i)) &&
      !only_sanitizer_uses(i)) {
    lt_error(c, i, "an active floating-point value is reinterpreted as "
                   "bits; its derivative would be lost (use arithmetic, or "
                   "mark the input enzyme_const)");
    return -1;
  }
  if ((lt_is_varied(a, i) || vin) && is_aggregate_or_vector(LLVMTypeOf(i))) {
    lt_error(c, i, "vector or aggregate floating-point values are not "
                   "supported yet in differentiated code");
    return -1;
  }
  if (op == LLVMStore && lt_is_shadowed(a, LLVMGetOperand(i, 1)) &&
      is_aggregate_or_vector(LLVMTypeOf(LLVMGetOperand(i, 0))) &&
      LLVMGetTypeKind(LLVMTypeOf(LLVMGetOperand(i, 0))) != LLVMArrayTypeKind) {
    lt_error(c, i, "storing a vector or aggregate to active memory is not "
                   "supported yet");
    return -1;
  }
  if (op != LLVMCall)
    return 0;
  LLVMValueRef callee = LLVMGetCalledValue(i);
  unsigned nargs = LLVMGetNumArgOperands(i);
  int active = any_operand(a, i, nargs, lt_is_varied) ||
               any_operand(a, i, nargs, lt_is_shadowed);
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
  if (len >= 9 && !strncmp(n, "__enzyme_", 9)) {
    lt_error(c, i, "nested differentiation: '%.*s' inside a differentiated "
                   "function is not supported yet",
             (int)len, n);
    return -1;
  }
  if (lt_call_kind(i, &rule) != LT_CALL_UNKNOWN || !active)
    return 0;
  if (!len)
    lt_error(c, i, "indirect call on an active value; call the function "
                   "directly so it can be inlined, or mark the argument "
                   "enzyme_const");
  else
    lt_error(c, i, "no derivative rule for '%.*s'; define it in this module "
                   "so it can be differentiated, mark the argument "
                   "enzyme_const, or register a custom gradient",
             (int)len, n);
  return -1;
}

int lt_activity_run(LtCtx *c, LtActivity *a, LLVMValueRef fn, const LtCfg *g,
                    const LtAct *act) {
  lt_map_init(&a->varied, 64);
  lt_map_init(&a->shadowed, 64);
  for (unsigned p = 0, n = LLVMCountParams(fn); p < n; p++) {
    LLVMValueRef v = LLVMGetParam(fn, p);
    if (act[p] == LT_OUT)
      lt_map_put(&a->varied, v, (void *)1);
    if (act[p] == LT_DUP || act[p] == LT_DUPNONEED)
      lt_map_put(&a->shadowed, v, (void *)1);
  }
  for (int changed = 1; changed;) {
    changed = 0;
    for (unsigned b = 0; b < g->nblocks; b++)
      for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
           i = LLVMGetNextInstruction(i)) {
        LLVMTypeRef t = LLVMTypeOf(i);
        if (lt_is_float_ty(t) && !lt_is_varied(a, i) && float_varied(a, i)) {
          lt_map_put(&a->varied, i, (void *)1);
          changed = 1;
        }
        if (lt_is_ptr_ty(t) && !lt_is_shadowed(a, i) && ptr_shadowed(a, i)) {
          lt_map_put(&a->shadowed, i, (void *)1);
          changed = 1;
        }
      }
  }
  for (unsigned b = 0; b < g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
         i = LLVMGetNextInstruction(i))
      if (check_inst(c, a, i))
        return -1;
  return 0;
}

void lt_activity_free(LtActivity *a) {
  lt_map_free(&a->varied);
  lt_map_free(&a->shadowed);
}
