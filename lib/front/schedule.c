/* schedule.c: the order in which __enzyme_* calls are differentiated.
 *
 * A call inside code that another call differentiates (nested
 * differentiation: a Hessian-vector product, an optimisation inside an
 * objective) must be rewritten first, so that the outer derivative sees,
 * and differentiates, the generated derivative code instead of an
 * __enzyme_* call. Calls are taken innermost first: a call whose target
 * reaches no function holding a call still to rewrite; a cycle is taken
 * in module order.
 */
#include "lt.h"

#include <stdlib.h>

static void reach(LLVMValueRef f, LtMap *seen) {
  if (!f || LLVMIsDeclaration(f) || lt_map_get(seen, f))
    return;
  lt_map_put(seen, f, (void *)1);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i))
        reach(lt_called_fn(i), seen);
}

void lt_schedule_calls(LtVec *calls, LtMap *nested) {
  size_t n = calls->n;
  if (n < 2)
    return;
  LtMap *reached = lt_xcalloc(n, sizeof *reached);
  LLVMValueRef *home = lt_xcalloc(n, sizeof *home);
  for (size_t k = 0; k < n; k++) {
    LLVMValueRef call = calls->v[k];
    home[k] = LLVMGetBasicBlockParent(LLVMGetInstructionParent(call));
    lt_map_init(&reached[k], 16);
    reach(lt_callsite_fn(call), &reached[k]);
  }
  for (size_t k = 0; k < n; k++)
    for (size_t j = 0; j < n; j++)
      if (j != k && lt_map_get(&reached[j], home[k])) {
        lt_map_put(nested, calls->v[k], (void *)1);
        break;
      }
  unsigned char *done = lt_xcalloc(n, 1);
  void **order = lt_xcalloc(n, sizeof *order);
  for (size_t out = 0; out < n; out++) {
    size_t pick = n;
    for (size_t k = 0; k < n && pick == n; k++) {
      if (done[k])
        continue;
      /* k's derivative must not meet another call still to rewrite. */
      int inner = 1;
      for (size_t j = 0; j < n && inner; j++)
        if (j != k && !done[j] && lt_map_get(&reached[k], home[j]))
          inner = 0;
      if (inner)
        pick = k;
    }
    for (size_t k = 0; k < n && pick == n; k++)
      if (!done[k])
        pick = k;
    done[pick] = 1;
    order[out] = calls->v[pick];
  }
  for (size_t k = 0; k < n; k++) {
    calls->v[k] = order[k];
    lt_map_free(&reached[k]);
  }
  free(order);
  free(done);
  free(home);
  free(reached);
}
