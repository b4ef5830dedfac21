/* memsize.c: what a copy's byte count says it moves: the range from one
 * of its ends to a typed GEP of it moves elements of that type, and a
 * constant copy shorter than the struct its !tbaa.struct describes moves
 * a prefix of one (memlayout.c, memuse.c).
 */
#include "lt.h"

#include <string.h>

/* A copy of the range [p, gep T, p, k) of one of its ends, T a float or
 * pointer type: `(end - begin) * sizeof(T)` bytes of T. Eigen's
 * smart_copy (std::copy of a DenseStorage's doubles, a memcpy at -O0)
 * has no other evidence, and points-to, blind to fields, lets the
 * storage's data pointer address Eigen objects that hold pointers (fuzz
 * --eigen seeds 65014, 65015, 71011 at -O0: a clean error). */
int lt_mem_range_layout(LtCtx *c, LLVMValueRef call, LtMemLayout *L) {
  LLVMValueRef n = LLVMGetOperand(call, 2), hi, lo;
  if (!LLVMIsAInstruction(n) || LLVMGetInstructionOpcode(n) != LLVMSub ||
      !LLVMIsAPtrToIntInst(hi = LLVMGetOperand(n, 0)) ||
      !LLVMIsAPtrToIntInst(lo = LLVMGetOperand(n, 1)))
    return 0;
  LLVMValueRef end = LLVMGetOperand(hi, 0), begin = LLVMGetOperand(lo, 0);
  if (!LLVMIsAGetElementPtrInst(end) || LLVMGetNumOperands(end) != 2 ||
      LLVMGetOperand(end, 0) != begin ||
      (begin != LLVMGetOperand(call, 0) && begin != LLVMGetOperand(call, 1)))
    return 0;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(end);
  if (!lt_is_float_ty(t) && !lt_is_ptr_ty(t))
    return 0;
  memset(L, 0, sizeof *L);
  L->period = LLVMABISizeOfType(c->td, t);
  L->n = 1;
  L->f[0].off = 0;
  L->f[0].ty = t;
  return 1;
}

int lt_mem_partial_struct(LtCtx *c, LLVMValueRef call) {
  unsigned kind = LLVMGetMDKindIDInContext(c->llctx, "tbaa.struct", 11);
  LLVMValueRef md = LLVMGetMetadata(call, kind), size = LLVMGetOperand(call, 2);
  unsigned no = md ? LLVMGetMDNodeNumOperands(md) : 0;
  if (!no || no % 3 || no > 3 * LT_MEM_FIELDS || !LLVMIsAConstantInt(size))
    return 0;
  LLVMValueRef ops[3 * LT_MEM_FIELDS];
  LLVMGetMDNodeOperands(md, ops);
  for (unsigned k = 0; k < no; k += 3)
    if (LLVMIsAConstantInt(ops[k]) && LLVMIsAConstantInt(ops[k + 1]) &&
        LLVMConstIntGetZExtValue(ops[k]) + LLVMConstIntGetZExtValue(ops[k + 1]) >
            LLVMConstIntGetZExtValue(size))
      return 1;
  return 0;
}

