/* scratch.c: enzyme_const memory that a gradient needs a shadow for.
 *
 * A pointer passed enzyme_const has no shadow: its memory is the caller's
 * constant data. A function that stores active values there and reads
 * them back (a recurrent state updated in place from the parameters:
 * the LSTM of Enzyme's benchmarks passes its `state` so) would lose their
 * derivatives, and that is an error (activity.c). Under __enzyme_autodiff
 * the gradient can give such a parameter a shadow of its own instead, zero
 * where it starts and dropped where it ends (gen/derive.c): derivatives
 * then flow through the memory as through any scratch buffer, and none
 * goes to the caller, whose data it is. Only for the memory the parameter
 * points to directly, and when the function loads no pointer from it
 * (a shadow of zeros holds no shadow pointers).
 */
#include "lt.h"
#include "analysis/points.h"

#include <stdlib.h>

/* Does fn load a pointer from memory object o may be? */
static int loads_pointer_from(LtPoints *pt, LLVMValueRef fn, unsigned o) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsALoadInst(i) || !lt_is_ptr_ty(LLVMTypeOf(i)))
        continue;
      const uint64_t *s = lt_points_of(pt, LLVMGetOperand(i, 0));
      if (!s || set_has(s, o))
        return 1;
    }
  return 0;
}

int lt_scratch_params(LtActivity *a, LLVMValueRef fn, LLVMValueRef from) {
  LtPoints *pt = &a->pts;
  if (!a->scratch_ok || !pt->tainted)
    return 0;
  const uint64_t *s = lt_points_of(pt, from);
  unsigned np = LLVMCountParams(fn), any = 0;
  for (unsigned o = 0; s && o < pt->nobj; o++) {
    if (!set_has(s, o) || !pt->tainted[o])
      continue;
    int p = pt->obj[o].param;
    if (pt->obj[o].kind != O_ARG || p < 0 || (unsigned)p >= np || pt->active[o] ||
        loads_pointer_from(pt, fn, o))
      return 0;
    any = 1;
  }
  if (!any)
    return 0;
  if (!a->scratch)
    a->scratch = lt_xcalloc(np + 1, 1);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(s, o) && pt->tainted[o])
      a->scratch[pt->obj[o].param] = 1;
  return 1;
}
