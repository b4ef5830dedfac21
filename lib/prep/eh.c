/* eh.c: exception edges in the code to differentiate.
 *
 * C++ compiled with exceptions turns calls that may throw into invokes
 * whose unwind edge runs destructors and resumes (or terminates, for
 * noexcept). The derivative follows the normal edges only: each such
 * invoke becomes a plain call, and the landing pads, now unreachable, are
 * deleted. If the call does throw, the exception leaves the derivative
 * without running the primal's cleanups, as in Enzyme. An unwind path that
 * rejoins normal code or returns (a catch that handles the exception) is
 * reported instead: its derivative would need the exceptional path.
 */
#include "lt.h"

/* Blocks reached from the entry without taking an unwind edge. */
static void normal_blocks(LLVMValueRef fn, LtMap *normal) {
  LtVec stack = {0};
  LLVMBasicBlockRef e = LLVMGetEntryBasicBlock(fn);
  lt_map_put(normal, e, (void *)1);
  lt_vec_push(&stack, e);
  while (stack.n) {
    LLVMBasicBlockRef bb = stack.v[--stack.n];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t)
      continue;
    for (unsigned k = 0, n = LLVMGetNumSuccessors(t); k < n; k++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(t, k);
      if (LLVMIsAInvokeInst(t) && s == LLVMGetUnwindDest(t) &&
          s != LLVMGetNormalDest(t))
        continue;
      if (!lt_map_get(normal, s)) {
        lt_map_put(normal, s, (void *)1);
        lt_vec_push(&stack, s);
      }
    }
  }
  lt_vec_free(&stack);
}

/* Does the unwind path from pad only clean up: never rejoin normal code
 * and never return? */
static int cleanup_only(LLVMBasicBlockRef pad, const LtMap *normal) {
  LtMap seen;
  LtVec stack = {0};
  int ok = 1;
  lt_map_init(&seen, 16);
  lt_map_put(&seen, pad, (void *)1);
  lt_vec_push(&stack, pad);
  while (stack.n && ok) {
    LLVMBasicBlockRef bb = stack.v[--stack.n];
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (lt_map_get(normal, bb) || !t || LLVMIsAReturnInst(t)) {
      ok = 0;
      break;
    }
    for (unsigned k = 0, n = LLVMGetNumSuccessors(t); k < n; k++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(t, k);
      if (!lt_map_get(&seen, s)) {
        lt_map_put(&seen, s, (void *)1);
        lt_vec_push(&stack, s);
      }
    }
  }
  lt_map_free(&seen);
  lt_vec_free(&stack);
  return ok;
}

int lt_eh_lower(LtCtx *c, LLVMValueRef fn) {
  LtMap normal;
  LtVec invokes = {0};
  lt_map_init(&normal, 64);
  normal_blocks(fn, &normal);
  int rc = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb)) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(bb);
    if (!t || !LLVMIsAInvokeInst(t) || !lt_map_get(&normal, bb))
      continue;
    if (!cleanup_only(LLVMGetUnwindDest(t), &normal)) {
      lt_error(c, t, "an exception thrown by this call is caught inside the "
                     "differentiated code (try/catch); catching is not "
                     "supported there: move the try/catch to the caller of "
                     "the differentiated function");
      rc = -1;
      break;
    }
    lt_vec_push(&invokes, t);
  }
  if (!rc) {
    for (size_t i = 0; i < invokes.n; i++)
      lt_invoke_to_call(invokes.v[i]);
    if (invokes.n)
      lt_delete_unreachable(fn);
  }
  lt_map_free(&normal);
  lt_vec_free(&invokes);
  return rc;
}
