/* ckptdead.c: a checkpointed step's taped run as its reversal runs it
 * (issue 20).
 *
 * Where checkpointing reverses a step (ckpttv.c lt.ckpt.back) it runs the
 * step's A, then its R, then restores a snapshot (or, at the end, the
 * state A left before the reversal): what A writes through the step's
 * parameters is read again by A alone. R reads the tape and the memory of
 * kept parameters only (split mode), so a store of A through a parameter
 * that is not kept, whose bytes nothing after it in A may read, is dead
 * there, and with it the arithmetic that only fed it. In an in-place step
 * (Burgers: tmp from u, then u from tmp) that is all of the step but the
 * loads R needs and their taping: the divisions go.
 *
 * <aug>.dead is a copy of A without those stores, found again after each
 * round's ADCE (the loads that fed only removed stores go with it, and the
 * stores they read become dead in turn). A store through parameter p
 * stays when something that may run after it (later in its block, or in
 * any block reachable from it, around loops too) may read p's bytes: a
 * load through p, through a pointer based on neither a parameter nor a
 * local (a global, a loaded pointer), or a call that may read memory.
 * Loads through another parameter read other bytes only when the step's
 * parameters are apart, which a run-time test says (derive.c: the bytes
 * reached through each are apart from those through every other, as for
 * versioned gradients): lt.ckpt.back runs <aug>.dead only then. Shadows
 * never share bytes with primal memory (Enzyme's convention), and the tape
 * is A's own.
 */
#include "lt.h"

#include <llvm-c/Analysis.h>
#include <stdio.h>
#include <stdlib.h>

/* May i read the bytes of parameter base? */
static int may_read(LLVMValueRef i, LLVMValueRef base) {
  if (LLVMIsALoadInst(i)) {
    LLVMValueRef b = lt_base_of(LLVMGetOperand(i, 0));
    return b == base || !(LLVMIsAArgument(b) || LLVMIsAAllocaInst(b));
  }
  if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i)) {
    LLVMValueRef fn = LLVMGetCalledValue(i);
    unsigned k = LLVMGetEnumAttributeKindForName("memory", 6);
    LLVMAttributeRef a = k && LLVMIsAFunction(fn)
                             ? LLVMGetEnumAttributeAtIndex(fn, LLVMAttributeFunctionIndex, k)
                             : NULL;
    return !a || LLVMGetEnumAttributeValue(a) != 0; /* memory(none) reads nothing */
  }
  return LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAVAArgInst(i);
}

static int read_after(LLVMValueRef s, LLVMValueRef base) {
  for (LLVMValueRef i = LLVMGetNextInstruction(s); i; i = LLVMGetNextInstruction(i))
    if (may_read(i, base))
      return 1;
  LtVec work = {0};
  LtMap seen;
  lt_map_init(&seen, 16);
  LLVMValueRef t = LLVMGetBasicBlockTerminator(LLVMGetInstructionParent(s));
  for (unsigned k = 0; t && k < LLVMGetNumSuccessors(t); k++)
    lt_vec_push(&work, LLVMGetSuccessor(t, k));
  int r = 0;
  while (work.n && !r) {
    LLVMBasicBlockRef bb = work.v[--work.n];
    if (lt_map_get(&seen, bb))
      continue;
    lt_map_put(&seen, bb, (void *)1);
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i && !r; i = LLVMGetNextInstruction(i))
      r = may_read(i, base);
    LLVMValueRef tt = LLVMGetBasicBlockTerminator(bb);
    for (unsigned k = 0; tt && k < LLVMGetNumSuccessors(tt); k++)
      lt_vec_push(&work, LLVMGetSuccessor(tt, k));
  }
  lt_vec_free(&work);
  lt_map_free(&seen);
  return r;
}

/* One round: the dead stores through the parameters marked in dead. */
static int drop_dead_stores(LLVMValueRef f, const unsigned char *dead, unsigned np) {
  int n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb), next; i; i = next) {
      next = LLVMGetNextInstruction(i);
      if (!LLVMIsAStoreInst(i) || LLVMGetVolatile(i) ||
          LLVMGetOrdering(i) != LLVMAtomicOrderingNotAtomic)
        continue;
      LLVMValueRef b = lt_base_of(LLVMGetOperand(i, 1));
      int mine = 0;
      for (unsigned p = 0; p < np && !mine; p++)
        mine = dead[p] && LLVMGetParam(f, p) == b;
      if (!mine || read_after(i, b))
        continue;
      LLVMInstructionEraseFromParent(i);
      n++;
    }
  return n;
}

LLVMValueRef lt_ckpt_dead_aug(LtCtx *c, const LtDeriv *d, const unsigned char *keep,
                              unsigned np) {
  if (!d->aug || c->opt_level == 0)
    return NULL;
  unsigned char *dead = lt_xcalloc(np + 1, 1);
  int any = 0;
  for (unsigned p = 0; p < np; p++) {
    dead[p] = lt_is_ptr_ty(LLVMTypeOf(LLVMGetParam(d->aug, p))) && !(keep && keep[p]);
    any |= dead[p];
  }
  char name[300];
  snprintf(name, sizeof name, "%s.dead", LLVMGetValueName2(d->aug, &(size_t){0}));
  LLVMValueRef f = any ? lt_clone_fn(d->aug, name, 1) : NULL;
  int dropped = 0;
  for (int round = 0; f && round < 8; round++) {
    int n = drop_dead_stores(f, dead, np);
    dropped += n;
    if (!n || lt_run_pipeline(c, f, "adce,loop(loop-deletion),simplifycfg"))
      break;
  }
  free(dead);
  if (f && (!dropped || lt_run_pipeline(c, f, "instcombine<no-verify-fixpoint>,simplifycfg") ||
            LLVMVerifyFunction(f, LLVMReturnStatusAction))) {
    lt_bury(c, f);
    return NULL;
  }
  if (f)
    LLVMSetLinkage(f, LLVMInternalLinkage);
  return f;
}
