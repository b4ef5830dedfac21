/* frame.c: locals that the reverse pass may read again.
 *
 * Under __enzyme_autodiff the augmented forward A and the reverse R are
 * inlined into one gradient function (gen/derive.c), and the inliner
 * (base/clone.c) moves their static allocas to its entry: P's locals of
 * a constant size, allocated in its entry block, are then alive until
 * the gradient returns, and R may read them again as it re-reads the
 * caller's memory, instead of taping each read (GradBench's gmm: its
 * Qdiags[k][d], written once before the main loop, taped at each of its
 * n·k·d reads). Only their lifetime markers stand in the way: an end
 * would let R read (and the undo log restore into) a dead slot that
 * stack colouring may give to another local; a start inside a loop makes
 * the contents undefined. They go from the clone, so the overwrite
 * analysis sees only the program's own writes. Split mode and callees
 * kept as calls (A returns before R runs) keep them, and every local
 * stays memory R never reads (analysis/overwrite.c).
 */
#include "lt.h"

#include <string.h>

int lt_lifetime_marker(LLVMValueRef i) {
  size_t len;
  return LLVMIsACallInst(i) && !strncmp(lt_callee_name(i, &len), "llvm.lifetime.", 14);
}

int lt_static_local(LLVMValueRef P, LLVMValueRef a) {
  return LLVMIsAAllocaInst(a) && LLVMGetInstructionParent(a) == LLVMGetEntryBasicBlock(P) &&
         LLVMIsAConstantInt(LLVMGetOperand(a, 0));
}

int lt_frame_alloca(LLVMValueRef P, LLVMValueRef a) {
  if (!lt_static_local(P, a))
    return 0;
  for (LLVMUseRef u = LLVMGetFirstUse(a); u; u = LLVMGetNextUse(u))
    if (lt_lifetime_marker(LLVMGetUser(u)))
      return 0;
  return 1;
}

void lt_frame_locals(LLVMValueRef P) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(P); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (lt_lifetime_marker(i) &&
          lt_static_local(P, lt_base_of(LLVMGetOperand(i, LLVMGetNumArgOperands(i) - 1))))
        LLVMInstructionEraseFromParent(i);
    }
}
