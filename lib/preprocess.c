/* preprocess.c: the canonical clone that every later stage reads.
 *
 * Clones the function (dropping optnone/noinline), inlines every call to a
 * defined function (the call graph below it must be acyclic), then runs a
 * canonicalising pipeline: SSA form, simplified CFG, loop-simplify and LCSSA.
 * Nested pipelines may be skipped by the host (opt-bisect), so later stages
 * check the form they rely on instead of assuming it.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *pipeline =
    "mem2reg,sroa,early-cse,simplifycfg,loop-mssa(licm),loop-simplify,lcssa";

static LLVMValueRef defined_callee(LLVMValueRef i) {
  if (!LLVMIsACallInst(i) && !LLVMIsAInvokeInst(i))
    return NULL;
  LLVMValueRef f = lt_called_fn(i);
  if (!f || LLVMIsDeclaration(f) || LLVMGetIntrinsicID(f))
    return NULL;
  return f;
}

/* DFS over defined callees; reports the first cycle. */
static int find_cycle(LtCtx *c, LLVMValueRef fn, LtMap *state, LtVec *stack) {
  lt_map_put(state, fn, (void *)1);
  lt_vec_push(stack, fn);
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb;
       bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
         i = LLVMGetNextInstruction(i)) {
      if (LLVMGetInstructionOpcode(i) == LLVMIndirectBr) {
        /* Block addresses name the original's blocks; a clone cannot
         * jump through them. */
        lt_error(c, i, "computed goto (indirect branch) is not supported in "
                       "differentiated code");
        return -1;
      }
      LLVMValueRef g = defined_callee(i);
      if (!g)
        continue;
      size_t st = (size_t)lt_map_get(state, g), len;
      if (st == 1) {
        lt_error(c, i, "recursive call to '%s': recursion is not supported "
                       "in differentiated code yet",
                 LLVMGetValueName2(g, &len));
        return -1;
      }
      if (!st && find_cycle(c, g, state, stack))
        return -1;
    }
  lt_map_put(state, fn, (void *)2);
  stack->n--;
  return 0;
}

static int inline_all(LtCtx *c, LLVMValueRef f) {
  for (int changed = 1; changed;) {
    changed = 0;
    if (lt_eh_lower(c, f))
      return -1;
    for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb && !changed;
         bb = LLVMGetNextBasicBlock(bb))
      for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i;
           i = LLVMGetNextInstruction(i)) {
        if (!defined_callee(i) || !LLVMIsACallInst(i))
          continue;
        if (lt_inline_call(c, i, 1)) {
          lt_error(c, i, "cannot inline this call into the differentiated "
                         "function");
          return -1;
        }
        changed = 1;
        break;
      }
  }
  return 0;
}

LLVMValueRef lt_preprocess(LtCtx *c, LLVMValueRef fn, LLVMValueRef at) {
  LtMap state;
  LtVec stack = {0};
  lt_map_init(&state, 16);
  int cyc = find_cycle(c, fn, &state, &stack);
  lt_map_free(&state);
  lt_vec_free(&stack);
  if (cyc)
    return NULL;
  size_t len;
  char name[256];
  snprintf(name, sizeof name, "%s.lt.pre", LLVMGetValueName2(fn, &len));
  LLVMValueRef p = lt_clone_decl(fn, name, LLVMGlobalGetValueType(fn));
  LtMap vm;
  lt_map_init(&vm, 256);
  for (unsigned i = 0, n = LLVMCountParams(fn); i < n; i++)
    lt_map_put(&vm, LLVMGetParam(fn, i), LLVMGetParam(p, i));
  lt_clone_body(&vm, fn, p, NULL, 1);
  lt_map_free(&vm);
  if (inline_all(c, p)) {
    lt_bury(c, p);
    return NULL;
  }
  if (lt_run_pipeline(p, pipeline)) {
    lt_internal_error(c, at, "the preprocessing pipeline failed");
    lt_bury(c, p);
    return NULL;
  }
  return p;
}
