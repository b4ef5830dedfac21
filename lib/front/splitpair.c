/* splitpair.c: __enzyme_augmentfwd and __enzyme_reverse with nothing
 * between them.
 *
 * In split mode the caller may change any argument's memory between the
 * halves, so by default the reverse half reads nothing back from it
 * (Enzyme's contract; enzyme_not_overwritten lifts it per argument). When
 * the reverse call follows the forward call in the same block, takes the
 * tape the forward call made, and no instruction between them can write
 * memory, nothing changed: both calls are marked so that every pointer
 * argument counts as not overwritten (as if enzyme_not_overwritten were
 * given). Found before any call is rewritten (the driver), since the
 * pairing is lost once the forward call is replaced. The derivative key
 * holds the flags, so both calls keep agreeing on the tape's layout.
 */
#include "lt.h"

#include <string.h>

/* An alloca used only as the address of loads and stores (and by
 * lifetime markers): no pointer to it exists, so no argument reaches it. */
static int private_slot(LLVMValueRef a) {
  if (!LLVMIsAAllocaInst(a))
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user))
      continue;
    if (LLVMIsAStoreInst(user) && LLVMGetOperand(user, 1) == a &&
        LLVMGetOperand(user, 0) != a)
      continue;
    if (LLVMIsAIntrinsicInst(user)) {
      size_t n;
      const char *s = LLVMGetValueName2(LLVMGetCalledValue(user), &n);
      if (n >= 14 && !strncmp(s, "llvm.lifetime.", 14))
        continue;
    }
    return 0;
  }
  return 1;
}

/* The value a tape operand came from: through an -O0 stack slot (the
 * last store to it between the calls, in seen[]) and an extractvalue of
 * the forward call's {tape, result}. */
#define MAXSEEN 32
static LLVMValueRef tape_origin(LLVMValueRef v, LLVMValueRef (*seen)[2], unsigned nseen) {
  if (LLVMIsALoadInst(v)) {
    LLVMValueRef slot = LLVMGetOperand(v, 0);
    v = NULL;
    for (unsigned k = nseen; k-- > 0;)
      if (seen[k][0] == slot) {
        v = seen[k][1];
        break;
      }
  }
  if (v && LLVMIsAExtractValueInst(v))
    v = LLVMGetOperand(v, 0);
  return v;
}

/* May i write memory that an argument of the pair can point to? */
static int may_write(LLVMValueRef i) {
  if (LLVMIsAStoreInst(i))
    return !private_slot(LLVMGetOperand(i, 1)) || LLVMGetVolatile(i);
  if (LLVMIsAIntrinsicInst(i)) {
    size_t n;
    const char *s = LLVMGetValueName2(LLVMGetCalledValue(i), &n);
    if (n >= 9 && !strncmp(s, "llvm.dbg.", 9))
      return 0;
  }
  if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i)) {
    LLVMValueRef f = LLVMGetCalledValue(i);
    /* a readnone / readonly function (memory(none), memory(read)) */
    if (lt_rules_errno_only(f))
      return 0; /* libm: errno is no argument's memory */
    if (f && LLVMIsAFunction(f)) {
      unsigned k = LLVMGetEnumAttributeKindForName("memory", 6);
      LLVMAttributeRef a = k ? LLVMGetEnumAttributeAtIndex(f, LLVMAttributeFunctionIndex, k)
                             : NULL;
      /* MemoryEffects: two bits per location, bit 1 = may write */
      if (a && !(LLVMGetEnumAttributeValue(a) & 0xAAAAAAAAu))
        return 0;
    }
    return 1;
  }
  return LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i) ||
         LLVMIsAVAArgInst(i);
}

/* enzyme_tape or enzyme_allocated: the tape lives in caller-given storage
 * whose size __enzyme_augmentsize gives without knowing the pair */
static int caller_storage(LLVMValueRef call) {
  for (unsigned k = 0, n = LLVMGetNumArgOperands(call); k < n; k++) {
    const char *bad;
    int m = lt_marker_of(LLVMGetOperand(call, k), &bad);
    if (m == LT_M_TAPE || m == LT_M_ALLOCATED)
      return 1;
  }
  return 0;
}

/* a and b are the same value: identical, GEPs of the same operands, or
 * loads of the same -O0 slot that nothing stored to between the calls */
static int same_value(LLVMValueRef a, LLVMValueRef b, LLVMValueRef (*seen)[2], unsigned nseen,
                      int depth) {
  if (a == b)
    return 1;
  if (depth > 4 || !LLVMIsAInstruction(a) || !LLVMIsAInstruction(b) ||
      LLVMGetInstructionOpcode(a) != LLVMGetInstructionOpcode(b))
    return 0;
  if (LLVMIsALoadInst(a)) {
    LLVMValueRef slot = LLVMGetOperand(a, 0);
    if (slot != LLVMGetOperand(b, 0) || !private_slot(slot) || LLVMTypeOf(a) != LLVMTypeOf(b))
      return 0;
    for (unsigned q = 0; q < nseen; q++)
      if (seen[q][0] == slot)
        return 0;
    return 1;
  }
  if (!LLVMIsAGetElementPtrInst(a) || LLVMGetNumOperands(a) != LLVMGetNumOperands(b) ||
      LLVMGetGEPSourceElementType(a) != LLVMGetGEPSourceElementType(b))
    return 0;
  for (int k = 0; k < LLVMGetNumOperands(a); k++)
    if (!same_value(LLVMGetOperand(a, k), LLVMGetOperand(b, k), seen, nseen, depth + 1))
      return 0;
  return 1;
}

/* The two calls pass the same pointers. */
static int same_pointers(LLVMValueRef aug, LLVMValueRef rev, LLVMValueRef (*seen)[2],
                         unsigned nseen) {
  unsigned na = LLVMGetNumArgOperands(aug), nr = LLVMGetNumArgOperands(rev);
  if (nr < na)
    return 0;
  for (unsigned k = 0; k < na; k++) {
    LLVMValueRef a = LLVMGetOperand(aug, k), b = LLVMGetOperand(rev, k);
    if (lt_is_ptr_ty(LLVMTypeOf(a)) && !same_value(a, b, seen, nseen, 0))
      return 0;
  }
  return 1;
}

void lt_split_pairs(LtCtx *c, const LtVec *calls) {
  for (size_t k = 0; k < calls->n; k++) {
    LLVMValueRef aug = calls->v[k];
    LtMode m;
    if (!lt_callsite_mode(aug, &m) || m != LT_AUGFWD || !LLVMIsACallInst(aug))
      continue;
    LLVMValueRef seen[MAXSEEN][2];
    unsigned nseen = 0;
    for (LLVMValueRef i = LLVMGetNextInstruction(aug); i; i = LLVMGetNextInstruction(i)) {
      LtMode mi;
      if (lt_callsite_mode(i, &mi) && mi == LT_REVERSE && LLVMIsACallInst(i)) {
        unsigned n = LLVMGetNumArgOperands(i);
        if (n && tape_origin(LLVMGetOperand(i, n - 1), seen, nseen) == aug &&
            lt_callsite_fn(i) == lt_callsite_fn(aug) && !caller_storage(aug) &&
            !caller_storage(i) && same_pointers(aug, i, seen, nseen)) {
          lt_map_put(&c->split_clean, aug, (void *)1);
          lt_map_put(&c->split_clean, i, (void *)1);
        }
        break;
      }
      if (may_write(i) || (LLVMIsAStoreInst(i) && nseen == MAXSEEN))
        break;
      if (LLVMIsAStoreInst(i)) {
        seen[nseen][0] = LLVMGetOperand(i, 1);
        seen[nseen++][1] = LLVMGetOperand(i, 0);
      }
    }
  }
}
