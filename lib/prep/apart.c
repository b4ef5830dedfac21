/* apart.c: the canonical clone of a derivative that runs only when its
 * pointer parameters are apart (issue 17, item 4).
 *
 * An __enzyme_autodiff gradient over plain pointers gets a second version
 * that a run-time test chooses when the bytes reached through each pointer
 * parameter are apart from those of every other (gen/version.c). The
 * primal it differentiates was optimised without knowing that: in
 * C[i][j] += A[i][k] B[k][j] the load of A[i][k] stays in the j loop,
 * since a store to C might change it, and its adjoint dA[i][k] is then
 * loaded, added to and stored in every iteration of the reverse j loop,
 * where restrict pointers give a sum in a register stored once. In that
 * version the parameters are what restrict says they are, so the clone's
 * pointer parameters become noalias and LICM moves what that allows out
 * of its loops, before the analyses see it.
 *
 * Only where the parameters are all the clone's memory: every access (and
 * memory intrinsic) is through a pointer based on one of them or on a
 * local, no call touches memory but errno (libm: rules.c
 * lt_rules_errno_only; Gram-Schmidt's sqrt). (noalias speaks of every pointer, the
 * test only of the parameters': a global or a pointer loaded from memory
 * may reach the same bytes.)
 */
#include "lt.h"

#include <string.h>

/* The parameter v is based on (through GEPs, casts, PHIs and selects), or
 * an alloca, or NULL; a PHI met again (a cycle) answers itself, which the
 * walk of its inputs skips. */
static LLVMValueRef base(LLVMValueRef v, LtMap *walking, unsigned depth) {
  v = lt_base_of(v);
  if (LLVMIsAArgument(v) || LLVMIsAAllocaInst(v))
    return v;
  if (depth > 16 || (!LLVMIsAPHINode(v) && !LLVMIsASelectInst(v)))
    return NULL;
  if (lt_map_get(walking, v))
    return v; /* a cycle: neutral */
  lt_map_put(walking, v, (void *)1);
  LLVMValueRef b = NULL;
  unsigned n = LLVMIsAPHINode(v) ? LLVMCountIncoming(v) : 2;
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef in = LLVMIsAPHINode(v) ? LLVMGetIncomingValue(v, k) : LLVMGetOperand(v, k + 1);
    LLVMValueRef x = base(in, walking, depth + 1);
    if (!x)
      return NULL;
    if (x == v)
      continue;
    if (b && b != x)
      return NULL;
    b = x;
  }
  return b;
}

static int based_ok(LLVMValueRef p, const unsigned char *apart) {
  LtMap walking;
  lt_map_init(&walking, 8);
  LLVMValueRef b = base(p, &walking, 0);
  lt_map_free(&walking);
  if (!b)
    return 0;
  if (LLVMIsAAllocaInst(b))
    return 1;
  LLVMValueRef fn = LLVMGetParamParent(b);
  for (unsigned k = 0, n = LLVMCountParams(fn); k < n; k++)
    if (LLVMGetParam(fn, k) == b)
      return apart[k];
  return 0;
}

static int name_is(LLVMValueRef f, const char *prefix) {
  size_t n, m = strlen(prefix);
  const char *s = LLVMGetValueName2(f, &n);
  return n >= m && !strncmp(s, prefix, m);
}

/* Every memory access of P is through an apart parameter or a local. */
static int only_params(LLVMValueRef P, const unsigned char *apart) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(P); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      if (LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) {
        if (LLVMGetVolatile(i) || LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic ||
            !based_ok(LLVMGetOperand(i, LLVMIsAStoreInst(i) ? 1 : 0), apart))
          return 0;
        continue;
      }
      if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i) ||
          LLVMIsAVAArgInst(i) || LLVMIsAInvokeInst(i))
        return 0;
      if (!LLVMIsACallInst(i))
        continue;
      LLVMValueRef f = LLVMGetCalledValue(i);
      if (!f || !LLVMIsAFunction(f))
        return 0;
      if (name_is(f, "llvm.dbg.") || name_is(f, "llvm.lifetime.") ||
          name_is(f, "llvm.experimental.noalias.scope.decl"))
        continue;
      if (name_is(f, "llvm.memset.") || name_is(f, "llvm.memcpy.") ||
          name_is(f, "llvm.memmove.")) {
        if (!based_ok(LLVMGetOperand(i, 0), apart) ||
            (!name_is(f, "llvm.memset.") && !based_ok(LLVMGetOperand(i, 1), apart)))
          return 0;
        continue;
      }
      if (!lt_rules_errno_only(f)) /* libm's errno is no parameter's memory */
        return 0;
    }
  return 1;
}

int lt_prep_apart(LtCtx *c, LLVMValueRef P, const unsigned char *apart) {
  if (c->opt_level < 2 || !only_params(P, apart))
    return 0;
  unsigned na = LLVMGetEnumAttributeKindForName("noalias", 7);
  int any = 0;
  for (unsigned k = 0, n = LLVMCountParams(P); k < n; k++)
    if (apart[k] && lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(P, k)))) {
      LLVMAddAttributeAtIndex(P, k + 1, LLVMCreateEnumAttribute(c->llctx, na, 0));
      any = 1;
    }
  if (!any)
    return 0;
  lt_llvm_forget(c, P);
  return lt_run_pipeline(c, P, "loop-mssa(licm)") ? -1 : 1;
}
