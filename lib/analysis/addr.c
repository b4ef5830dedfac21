/* addr.c: an address as a base pointer plus a constant byte offset.
 *
 * Walks bitcasts, address-space casts and GEPs whose indices are all
 * constant, summing their byte offsets from the data layout. Two accesses
 * whose addresses give the same base and overlapping byte ranges touch
 * the same bytes (the converse needs an alias analysis).
 */
#include "lt.h"

LLVMValueRef lt_const_offset(LLVMTargetDataRef td, LLVMValueRef p,
                             long long *off) {
  *off = 0;
  for (int depth = 0; depth < 64; depth++) {
    if (LLVMIsABitCastInst(p) || LLVMIsAAddrSpaceCastInst(p)) {
      p = LLVMGetOperand(p, 0);
      continue;
    }
    if (!LLVMIsAGetElementPtrInst(p))
      return p;
    LLVMTypeRef cur = LLVMGetGEPSourceElementType(p);
    for (int k = 1, n = LLVMGetNumOperands(p); k < n; k++) {
      LLVMValueRef ix = LLVMGetOperand(p, (unsigned)k);
      if (!LLVMIsAConstantInt(ix))
        return NULL;
      long long v = LLVMConstIntGetSExtValue(ix);
      if (k == 1) {
        *off += v * (long long)LLVMABISizeOfType(td, cur);
      } else if (LLVMGetTypeKind(cur) == LLVMStructTypeKind) {
        *off += (long long)LLVMOffsetOfElement(td, cur, (unsigned)v);
        cur = LLVMStructGetTypeAtIndex(cur, (unsigned)v);
      } else if (LLVMGetTypeKind(cur) == LLVMArrayTypeKind ||
                 LLVMGetTypeKind(cur) == LLVMVectorTypeKind) {
        cur = LLVMGetElementType(cur);
        *off += v * (long long)LLVMABISizeOfType(td, cur);
      } else {
        return NULL;
      }
    }
    p = LLVMGetOperand(p, 0);
  }
  return NULL;
}
