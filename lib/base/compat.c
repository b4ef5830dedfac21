/* compat.c: C implementations of the LLVM 22 C API functions that LLVM 19
 * lacks (the list and contracts are in compat.h). Empty under LLVM 20+.
 */
#include "lt.h"

#if LLVM_VERSION_MAJOR < 20
LLVMBool lt_compat_is_atomic(LLVMValueRef inst) {
  if (LLVMIsAAtomicRMWInst(inst) || LLVMIsAAtomicCmpXchgInst(inst) ||
      LLVMIsAFenceInst(inst))
    return 1;
  if (LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst))
    return LLVMGetOrdering(inst) != LLVMAtomicOrderingNotAtomic;
  return 0;
}
#else
typedef int lt_compat_unused; /* ISO C wants a declaration in every file */
#endif
