/* deadcopy.c: copies that cannot run.
 *
 * libstdc++'s vector code, inlined and optimised, can leave on a path
 * that never runs a memmove or memcpy of a constant length that is
 * negative as a signed number (`memmove(p, q, -48)` at -O1 after an
 * erase: the path where the vector held fewer elements than it erases).
 * Such a call would copy more than half the address space, so the path
 * is undefined and never taken; but its length says nothing of a layout,
 * and the copy's shadow was rejected ("its layout is unknown": fuzz
 * --structvec -X seeds 875012 and 875024 at -O1). In the clone the plugin
 * differentiates, such calls go (a refinement of undefined behaviour).
 */
#include "lt.h"

#include <string.h>

static int impossible_copy(LLVMValueRef i) {
  if (!LLVMIsACallInst(i) || LLVMGetNumArgOperands(i) < 3)
    return 0;
  size_t len;
  const char *n = lt_callee_name(i, &len);
  if (strncmp(n, "llvm.memcpy.", 12) && strncmp(n, "llvm.memmove.", 13) &&
      strncmp(n, "llvm.memset.", 12))
    return 0;
  LLVMValueRef size = LLVMGetOperand(i, 2);
  return LLVMIsAConstantInt(size) && LLVMConstIntGetSExtValue(size) < 0;
}

void lt_drop_impossible_copies(LLVMValueRef fn) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (impossible_copy(i))
        LLVMInstructionEraseFromParent(i);
    }
}
