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
 * points to directly, when the function loads no pointer from it (a
 * shadow of zeros holds no shadow pointers), and none from the memory of a
 * parameter with a shadow (the caller may have aimed that pointer into the
 * const memory, with a shadow of its own: the derivatives would go apart).
 * A dup and a const argument that overlap directly (x and x + 1) are the
 * caller's inconsistency, as in Enzyme, and are not detected.
 */
#include "lt.h"
#include "analysis/points.h"

#include <stdlib.h>

/* Does fn load a pointer from memory object o may be, or (o < 0) from
 * memory of a parameter that has a shadow? */
static int loads_pointer_from(LtPoints *pt, LLVMValueRef fn, int o) {
  for (LLVMBasicBlockRef b = LLVMGetFirstBasicBlock(fn); b; b = LLVMGetNextBasicBlock(b))
    for (LLVMValueRef i = LLVMGetFirstInstruction(b); i; i = LLVMGetNextInstruction(i)) {
      if (!LLVMIsALoadInst(i) || !lt_is_ptr_ty(LLVMTypeOf(i)))
        continue;
      const uint64_t *s = lt_points_of(pt, LLVMGetOperand(i, 0));
      if (!s)
        return 1;
      if (o >= 0) {
        if (set_has(s, (unsigned)o))
          return 1;
        continue;
      }
      for (unsigned q = 0; q < pt->nobj; q++)
        if (set_has(s, q) && pt->active[q] && pt->obj[q].param >= 0 &&
            (pt->obj[q].kind == O_ARG || pt->obj[q].kind == O_ARGMEM))
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
        loads_pointer_from(pt, fn, (int)o))
      return 0;
    any = 1;
  }
  /* A pointer loaded from an enzyme_dup argument's memory may address the
   * same bytes (a struct whose pointer the caller aims into the const
   * array, with a shadow of its own): the derivatives stored through one
   * shadow would be read through the other, a wrong gradient without a
   * word. Such a function keeps the error. */
  if (!any || loads_pointer_from(pt, fn, -1))
    return 0;
  if (!a->scratch)
    a->scratch = lt_xcalloc(np + 1, 1);
  for (unsigned o = 0; o < pt->nobj; o++)
    if (set_has(s, o) && pt->tainted[o])
      a->scratch[pt->obj[o].param] = 1;
  return 1;
}
