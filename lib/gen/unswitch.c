/* unswitch.c: loops copied for their undo-log calls (issue 17, item 4).
 *
 * The undo log's calls in a loop sit behind branches on values that do
 * not change in the loop (undo.c: A's saves behind the run's "apart" test,
 * R's restores behind "a block or run entry is on top"): in the usual run
 * no call is made, but a loop holding a call is neither vectorised nor
 * rewritten by gather.c. LLVM's unswitching (derive.c's cleanup at -O2)
 * copies such a loop only while it is small (simple-loop-unswitch's cost
 * threshold): a stencil's reverse is not. So each innermost loop with
 * such a branch gets a copy here (loopver.c), the loop taking the branch's
 * one way and the copy the other, entered by the same test before the
 * loop; simplifycfg then folds the branches.
 */
#include "lt.h"

#include <string.h>

#define MAX_COPIES 8 /* per function */

static int undo_call_in(LLVMBasicBlockRef bb) {
  for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
    LLVMValueRef f = LLVMIsACallInst(i) ? LLVMGetCalledValue(i) : NULL;
    size_t n;
    if (f && LLVMIsAFunction(f) && !strncmp(LLVMGetValueName2(f, &n), "lt.undo.", 8))
      return 1;
  }
  return 0;
}

/* A branch of loop l on a value defined outside it, to a block of l that
 * calls an undo helper; NULL if none. */
static LLVMValueRef switch_of(const LtCfg *g, const LtLoops *ls, unsigned l) {
  const LtLoop *lp = &ls->loop[l];
  for (unsigned bi = 0; bi < lp->nblocks; bi++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(g->block[lp->blocks[bi]]);
    if (!t || !LLVMIsABranchInst(t) || !LLVMIsConditional(t))
      continue;
    LLVMValueRef cond = LLVMGetCondition(t);
    if (LLVMIsAConstant(cond))
      continue;
    if (LLVMIsAInstruction(cond)) {
      int id = lt_cfg_id(g, LLVMGetInstructionParent(cond));
      if (id < 0 || lt_loop_contains(ls, l, (unsigned)id))
        continue;
    } else if (!LLVMIsAArgument(cond)) {
      continue;
    }
    for (unsigned k = 0; k < 2; k++) {
      LLVMBasicBlockRef s = LLVMGetSuccessor(t, k);
      int id = lt_cfg_id(g, s);
      if (id >= 0 && lt_loop_contains(ls, l, (unsigned)id) && undo_call_in(s))
        return t;
    }
  }
  return NULL;
}

static int round_once(LtCtx *c, LLVMValueRef fn) {
  LtCfg g;
  LtLoops ls;
  lt_cfg_build(&g, fn);
  lt_loops_build(&ls, &g);
  int done = 0;
  for (unsigned l = 0; !ls.irreducible && l < ls.nloops && !done; l++) {
    LLVMValueRef br = ls.loop[l].nchildren ? NULL : switch_of(&g, &ls, l);
    done = br && !lt_loop_unswitch(c, &g, &ls, l, br);
  }
  lt_loops_free(&ls);
  lt_cfg_free(&g);
  return done;
}

void lt_unswitch_undo(LtCtx *c, LLVMValueRef fn) {
  if (c->opt_level < 2)
    return;
  int any = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(fn); bb && !any; bb = LLVMGetNextBasicBlock(bb))
    any = undo_call_in(bb);
  /* the branches' conditions (the cleanup leaves them in the loops) out */
  if (!any || lt_run_pipeline(c, fn, "loop-mssa(licm)"))
    return;
  int n = 0;
  lt_llvm_forget(c, fn);
  while (n < MAX_COPIES && round_once(c, fn))
    n++;
  if (n)
    lt_run_pipeline(c, fn, "simplifycfg");
}
