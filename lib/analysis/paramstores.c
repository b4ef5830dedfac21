/* paramstores.c: may a function store through the memory a pointer
 * parameter addresses?
 *
 * A kept call (one differentiated on its own, or with a custom gradient)
 * that has active inputs may store what it computes through a pointer it
 * is given. Where that memory has no shadow (an enzyme_const argument of
 * the caller, a global) the caller reads back values whose derivatives the
 * callee could not record: a recursive fill of an enzyme_const buffer,
 * read by its caller, gave a gradient of 0 at -O0, silently (at -O2 the
 * recursion became a loop inlined into the caller, which saw the stores).
 * activity.c taints such memory for the calls this says store through
 * it, and the caller's reads of it are then reported, or get the
 * gradient's own shadow (scratch.c). A walk of the uses of the parameter
 * through address arithmetic: a store of floating-point data through it
 * (a float, or an integer as wide as one: not an index or a pointer, which
 * carry no derivative), a copy or set into it, an atomic, a call that may
 * store through the argument it gets (this again, to a depth, a recursive
 * call passing the parameter on adding nothing; a declaration by its
 * memory effects), or a use that lets the address escape (stored,
 * converted to an integer, returned) counts.
 */
#include "lt.h"

#define DEPTH 4

static int stores_through(LtCtx *c, LLVMValueRef v, LtMap *seen, int depth);

/* A stored value that may be floating-point data: a float, a vector or
 * aggregate with one, or an integer as wide as a double (its bits). Not a
 * pointer or a narrow integer (an index, a flag). */
static int may_hold_float(LLVMTypeRef t) {
  switch (LLVMGetTypeKind(t)) {
  case LLVMIntegerTypeKind:
    return LLVMGetIntTypeWidth(t) >= 64;
  case LLVMPointerTypeKind:
    return 0;
  case LLVMVectorTypeKind:
  case LLVMArrayTypeKind:
    return may_hold_float(LLVMGetElementType(t));
  case LLVMStructTypeKind:
    for (unsigned k = 0, n = LLVMCountStructElementTypes(t); k < n; k++)
      if (may_hold_float(LLVMStructGetTypeAtIndex(t, k)))
        return 1;
    return 0;
  default:
    return lt_is_float_ty(t);
  }
}

/* The pointer stored into slot: at -O0 each parameter goes to a stack
 * slot first. A local slot that is only loaded from (and stored to)
 * passes it on to its loads; anything else lets the address escape. */
static int spilled(LtCtx *c, LLVMValueRef slot, LtMap *seen, int depth) {
  if (!LLVMIsAAllocaInst(slot))
    return 1;
  for (LLVMUseRef u = LLVMGetFirstUse(slot); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef i = LLVMGetUser(u);
    if (LLVMIsAStoreInst(i) && LLVMGetOperand(i, 1) == slot)
      continue;
    if (!LLVMIsALoadInst(i))
      return 1;
    if (stores_through(c, i, seen, depth))
      return 1;
  }
  return 0;
}

static int call_stores(LtCtx *c, LLVMValueRef call, LLVMValueRef v, LtMap *seen, int depth) {
  LLVMValueRef f = lt_called_fn(call);
  const LtRule *rule;
  LtCallKind k = lt_call_kind(call, &rule);
  if (k == LT_CALL_MEMCPY || k == LT_CALL_MEMSET)
    return LLVMGetOperand(call, 0) == v; /* the destination (else the source) */
  if (!f || LLVMIsDeclaration(f)) {
    if (lt_call_writes(c, call) == 0)
      return 0;
    return 1;
  }
  if (depth >= DEPTH)
    return 1;
  for (unsigned a = 0, n = LLVMGetNumArgOperands(call); a < n; a++) {
    if (LLVMGetOperand(call, a) != v)
      continue;
    if (a >= LLVMCountParams(f))
      return 1; /* a variadic argument */
    /* one map for the whole walk: a parameter being walked already (a
     * recursive call passing it on) adds nothing */
    if (stores_through(c, LLVMGetParam(f, a), seen, depth + 1))
      return 1;
  }
  return 0;
}

static int stores_through(LtCtx *c, LLVMValueRef v, LtMap *seen, int depth) {
  if (lt_map_get(seen, v))
    return 0;
  lt_map_put(seen, v, (void *)1);
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef i = LLVMGetUser(u);
    if (!LLVMIsAInstruction(i))
      return 1;
    switch (LLVMGetInstructionOpcode(i)) {
    case LLVMLoad:
      break;
    case LLVMStore: /* of it (the address escapes), or of data through it */
      if (LLVMGetOperand(i, 0) == v) {
        if (spilled(c, LLVMGetOperand(i, 1), seen, depth))
          return 1;
        break;
      }
      if (may_hold_float(LLVMTypeOf(LLVMGetOperand(i, 0))))
        return 1;
      break;
    case LLVMGetElementPtr:
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
    case LLVMPHI:
    case LLVMSelect:
      if (stores_through(c, i, seen, depth))
        return 1;
      break;
    case LLVMICmp:
      break;
    case LLVMCall:
      if (call_stores(c, i, v, seen, depth))
        return 1;
      break;
    default:
      return 1; /* an atomic, ptrtoint, a return, ... */
    }
  }
  return 0;
}

int lt_param_stores(LtCtx *c, LLVMValueRef f, unsigned p) {
  if (!f || LLVMIsDeclaration(f) || p >= LLVMCountParams(f))
    return 1;
  LtMap seen;
  lt_map_init(&seen, 16);
  int w = stores_through(c, LLVMGetParam(f, p), &seen, 0);
  lt_map_free(&seen);
  return w;
}
