/* overwrite.c: may a load's memory change before the reverse pass reads it?
 *
 * Collects the underlying objects the primal writes (stores, memory
 * transfers, frees, lifetime ends; any call that may write unknown memory
 * clobbers everything), then answers per load: can any written object be
 * the loaded one? Objects are told apart only where that is certain:
 * distinct allocas, allocations and globals, a local object versus an
 * argument, and a noalias argument versus anything else. Used in combined
 * mode only: in split mode the caller may change memory between the halves.
 */
#include "lt.h"

#include <string.h>

static int is_alloc(LLVMValueRef v) {
  const LtRule *r;
  return LLVMIsAAllocaInst(v) ||
         (LLVMIsACallInst(v) && lt_call_kind(v, &r) == LT_CALL_MALLOC);
}

static int is_identified(LLVMValueRef v) {
  return is_alloc(v) || (LLVMIsAGlobalVariable(v) && !LLVMIsAGlobalAlias(v));
}

static int is_noalias_arg(LLVMValueRef v) {
  if (!LLVMIsAArgument(v))
    return 0;
  LLVMValueRef f = LLVMGetParamParent(v);
  unsigned idx = 0;
  for (unsigned i = 0, n = LLVMCountParams(f); i < n; i++)
    if (LLVMGetParam(f, i) == v)
      idx = i + 1;
  unsigned k = LLVMGetEnumAttributeKindForName("noalias", 7);
  return LLVMGetEnumAttributeAtIndex(f, idx, k) != NULL;
}

static int may_alias(LLVMValueRef a, LLVMValueRef b) {
  if (a == b)
    return 1;
  if (is_identified(a) && is_identified(b))
    return 0;
  if ((is_alloc(a) && LLVMIsAArgument(b)) || (is_alloc(b) && LLVMIsAArgument(a)))
    return 0;
  if (LLVMIsAArgument(a) && LLVMIsAArgument(b))
    return !(is_noalias_arg(a) || is_noalias_arg(b));
  return 1;
}

static int call_writes(LtOverwrite *o, LLVMValueRef i) {
  const LtRule *rule;
  size_t len;
  const char *n = lt_callee_name(i, &len);
  switch (lt_call_kind(i, &rule)) {
  case LT_CALL_RULE:
    for (unsigned a = 0, n = LLVMGetNumArgOperands(i); rule->writes_arg && a < n; a++)
      if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(i, a))))
        lt_vec_push(&o->written, lt_base_of(LLVMGetOperand(i, a)));
    return 0;
  case LT_CALL_MALLOC: {
    const LtAllocFn *af = lt_alloc_fn(i);
    if (af->old_arg >= 0)
      lt_vec_push(&o->written, lt_base_of(LLVMGetOperand(i, (unsigned)af->old_arg)));
    if (af->out_arg >= 0)
      lt_vec_push(&o->written, lt_base_of(LLVMGetOperand(i, (unsigned)af->out_arg)));
    return 0;
  }
  case LT_CALL_ZERO:
  case LT_CALL_COMPLEX:
    return 0;
  case LT_CALL_MEMCPY:
  case LT_CALL_MEMSET:
  case LT_CALL_FREE:
    lt_vec_push(&o->written, lt_base_of(LLVMGetOperand(i, 0)));
    return 0;
  case LT_CALL_INACTIVE:
    if (len > 14 && !strncmp(n, "llvm.lifetime.", 14)) {
      unsigned a = LLVMGetNumArgOperands(i) - 1;
      lt_vec_push(&o->written, lt_base_of(LLVMGetOperand(i, a)));
      return 0;
    }
    return strstr(n, "printf") == NULL && strncmp(n, "llvm.", 5) &&
           strcmp(n, "puts") && strcmp(n, "putchar");
  default:
    return 1;
  }
}

void lt_overwrite_build(LtOverwrite *o, const LtCfg *g) {
  memset(o, 0, sizeof *o);
  for (unsigned b = 0; b < g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if (op == LLVMStore)
        lt_vec_push(&o->written, lt_base_of(LLVMGetOperand(i, 1)));
      else if (op == LLVMAtomicRMW || op == LLVMAtomicCmpXchg)
        lt_vec_push(&o->written, lt_base_of(LLVMGetOperand(i, 0)));
      else if (op == LLVMCall && call_writes(o, i))
        o->clobber_all = 1;
    }
}

int lt_overwrite_reloadable(const LtOverwrite *o, LLVMValueRef load) {
  if (o->clobber_all || LLVMGetVolatile(load) || LLVMIsAtomic(load))
    return 0;
  LLVMValueRef base = lt_base_of(LLVMGetOperand(load, 0));
  for (size_t k = 0; k < o->written.n; k++)
    if (may_alias(o->written.v[k], base))
      return 0;
  return 1;
}

void lt_overwrite_free(LtOverwrite *o) { lt_vec_free(&o->written); }
