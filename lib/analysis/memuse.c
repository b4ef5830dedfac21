/* memuse.c: how a function accesses the objects a copy moves: the float
 * or pointer type its loads, stores and GEPs use there (the fill of
 * memlayout.c's layouts), and whether it moves both floats and pointers
 * there (the copy's layout must then say which bytes are which).
 */
#include "lt.h"

LLVMValueRef lt_mem_access(LLVMValueRef i, LLVMTypeRef *t) {
  if (LLVMIsALoadInst(i)) {
    *t = LLVMTypeOf(i);
    return LLVMGetOperand(i, 0);
  }
  if (LLVMIsAStoreInst(i)) {
    *t = LLVMTypeOf(LLVMGetOperand(i, 0));
    return LLVMGetOperand(i, 1);
  }
  return NULL;
}

/* How fn accesses the objects b1 and b2: the first float type a load,
 * store or GEP into them has (of a vector's elements too), the last
 * pointer type a load reads, and whether loads and stores move floats,
 * pointers or both there. With a copy `call` of n bytes (0: not constant),
 * accesses at a constant offset from one of its ends that lie outside
 * the copied bytes do not count: Eigen's aligned malloc keeps the block's
 * own pointer 8 bytes before the data it returns, and the load that frees
 * it made a copy of doubles a copy of pointers (their adjoints dropped,
 * silently, where the doubles were stored as <4 x double> and read back
 * through a pointer loaded from the vector object; fuzz --eigen seed
 * 1122025 at -O3). */
typedef struct {
  LLVMTypeRef fl, pt;
  int any_fl, any_pt;
} Uses;

static int outside_copy(LLVMTargetDataRef td, LLVMValueRef call, unsigned long long n,
                        LLVMValueRef addr, LLVMTypeRef t) {
  long long o;
  LLVMValueRef at = call ? lt_const_offset(td, addr, &o) : NULL;
  if (!at)
    return 0;
  for (unsigned e = 0; e < 2 && e < LLVMGetNumArgOperands(call); e++) {
    long long oe;
    LLVMValueRef end = LLVMGetOperand(call, e);
    if (!lt_is_ptr_ty(LLVMTypeOf(end)) || lt_const_offset(td, end, &oe) != at)
      continue;
    long long r = o - oe;
    return r + (long long)LLVMABISizeOfType(td, t) <= 0 || (n && r >= (long long)n);
  }
  return 0;
}

static Uses uses_of(LLVMValueRef fn, LLVMValueRef b1, LLVMValueRef b2, LLVMTargetDataRef td,
                    LLVMValueRef call, unsigned long long n) {
  Uses u = {NULL, NULL, 0, 0};
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef t = NULL;
      LLVMValueRef addr = lt_mem_access(i, &t);
      int moves = addr != NULL;
      if (!addr && LLVMIsAGetElementPtrInst(i)) {
        addr = i;
        t = LLVMGetGEPSourceElementType(i);
      }
      if (!addr || !t)
        continue;
      LLVMValueRef base = lt_base_of(addr);
      if (base != b1 && base != b2)
        continue;
      if (moves && outside_copy(td, call, n, addr, t))
        continue;
      if (LLVMGetTypeKind(t) == LLVMVectorTypeKind && lt_is_float_ty(LLVMGetElementType(t)))
        t = LLVMGetElementType(t);
      if (lt_is_float_ty(t) && !u.fl)
        u.fl = t;
      if (lt_is_ptr_ty(t) && LLVMIsALoadInst(i))
        u.pt = t;
      u.any_fl |= moves && lt_is_float_ty(t);
      u.any_pt |= moves && lt_is_ptr_ty(t);
    }
  return u;
}

LLVMTypeRef lt_elem_type_of(LLVMValueRef fn, LLVMValueRef b1, LLVMValueRef b2) {
  Uses u = uses_of(fn, b1, b2, NULL, NULL, 0);
  return u.fl ? u.fl : u.pt;
}

/* Every pointer fn loads or stores in the object of `end` lies at a
 * constant offset below end's: a copy starting at end moves none of them
 * (a std::string's characters copied into a map node, after the node's
 * links and the string's own pointer). */
static int ptrs_before(LLVMTargetDataRef td, LLVMValueRef fn, LLVMValueRef end) {
  long long at, off;
  LLVMValueRef base = lt_const_offset(td, end, &at);
  if (!base)
    return 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMTypeRef t = NULL;
      LLVMValueRef addr = lt_mem_access(i, &t);
      if (!addr || !lt_is_ptr_ty(t) || lt_base_of(addr) != lt_base_of(base))
        continue;
      if (lt_const_offset(td, addr, &off) != base ||
          off + (long long)LLVMABISizeOfType(td, t) > at)
        return 0;
    }
  return 1;
}

int lt_mem_mixed(LLVMTargetDataRef td, LLVMValueRef call) {
  LLVMValueRef fn = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
  Uses u = uses_of(fn, lt_base_of(LLVMGetOperand(call, 0)), lt_base_of(LLVMGetOperand(call, 1)),
                   NULL, NULL, 0);
  return u.any_fl && u.any_pt &&
         !(ptrs_before(td, fn, LLVMGetOperand(call, 0)) &&
           ptrs_before(td, fn, LLVMGetOperand(call, 1)));
}

LLVMTypeRef lt_mem_elem_type(LLVMTargetDataRef td, LLVMValueRef call) {
  LLVMValueRef b1 = lt_base_of(LLVMGetOperand(call, 0));
  LLVMValueRef b2 = LLVMGetNumArgOperands(call) > 1 &&
                            lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(call, 1)))
                        ? lt_base_of(LLVMGetOperand(call, 1))
                        : b1;
  LLVMValueRef size = LLVMGetOperand(call, 2);
  Uses u = uses_of(LLVMGetBasicBlockParent(LLVMGetInstructionParent(call)), b1, b2, td, call,
                   LLVMIsAConstantInt(size) ? LLVMConstIntGetZExtValue(size) : 0);
  return u.fl ? u.fl : u.pt;
}
