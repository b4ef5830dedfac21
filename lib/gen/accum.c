/* accum.c: what a generated loop's accumulations look like (gather.c,
 * ascend.c): a reverse loop's `t[p] += v` is a load, an fadd with
 * `reassoc` (lt_build_accum) and a store back to the same address; which
 * memory an instruction of the loop may touch; and the rounds of rewrites
 * over a function's loops both run.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

/* The memory instruction i may access: its address, NULL when it touches
 * none, LT_CLOBBER when it may touch memory it does not name. */
LLVMValueRef lt_accum_accessed(LLVMValueRef i) {
  if (LLVMIsALoadInst(i))
    return LLVMGetOperand(i, 0);
  if (LLVMIsAStoreInst(i))
    return LLVMGetOperand(i, 1);
  if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i)) {
    LLVMValueRef f = LLVMGetCalledValue(i);
    if (!f || !LLVMIsAFunction(f))
      return LT_CLOBBER;
    size_t n;
    const char *s = LLVMGetValueName2(f, &n);
    if ((n >= 9 && !strncmp(s, "llvm.dbg.", 9)) ||
        (n >= 36 && !strncmp(s, "llvm.experimental.noalias.scope.decl", 36)))
      return NULL;
    /* errno is no memory of the loop's (libm without -fno-math-errno) */
    return lt_rules_errno_only(f) ? NULL : LT_CLOBBER;
  }
  if (LLVMIsAAtomicRMWInst(i) || LLVMIsAAtomicCmpXchgInst(i) || LLVMIsAFenceInst(i) ||
      LLVMIsAVAArgInst(i))
    return LT_CLOBBER;
  return NULL;
}

static int single_use(LLVMValueRef v, LLVMValueRef user) {
  LLVMUseRef u = LLVMGetFirstUse(v);
  return u && !LLVMGetNextUse(u) && LLVMGetUser(u) == user;
}

/* store (fadd reassoc (load addr), val), addr in one block, nothing
 * between the load and the store that may write memory. */
int lt_accum_match(LLVMValueRef st, LtAccum *a) {
  if (!LLVMIsAStoreInst(st) || LLVMGetVolatile(st) || LLVMGetOrdering(st) != LLVMAtomicOrderingNotAtomic)
    return 0;
  LLVMValueRef add = LLVMGetOperand(st, 0), addr = LLVMGetOperand(st, 1);
  LLVMOpcode op = LLVMIsAInstruction(add) ? LLVMGetInstructionOpcode(add) : LLVMRet;
  if ((op != LLVMFAdd && op != LLVMFSub) ||
      !(LLVMGetFastMathFlags(add) & LLVMFastMathAllowReassoc) || !single_use(add, st))
    return 0;
  LLVMTypeKind tk = LLVMGetTypeKind(LLVMTypeOf(add));
  if (tk != LLVMDoubleTypeKind && tk != LLVMFloatTypeKind)
    return 0;
  /* (instcombine makes acc + -v acc - v) */
  for (unsigned k = 0; k < (op == LLVMFSub ? 1u : 2u); k++) {
    LLVMValueRef ld = LLVMGetOperand(add, k);
    if (!LLVMIsALoadInst(ld) || LLVMGetOperand(ld, 0) != addr || LLVMGetVolatile(ld) ||
        LLVMGetOrdering(ld) != LLVMAtomicOrderingNotAtomic || !single_use(ld, add) ||
        LLVMGetInstructionParent(ld) != LLVMGetInstructionParent(st))
      continue;
    LLVMValueRef i = LLVMGetNextInstruction(ld);
    for (; i && i != st; i = LLVMGetNextInstruction(i))
      if (LLVMIsAStoreInst(i) || lt_accum_accessed(i) == LT_CLOBBER)
        break;
    if (i != st)
      return 0;
    memset(a, 0, sizeof *a);
    a->load = ld;
    a->add = add;
    a->store = st;
    a->addr = addr;
    a->val = LLVMGetOperand(add, 1 - k);
    a->bb = LLVMGetInstructionParent(st);
    a->neg = op == LLVMFSub;
    return 1;
  }
  return 0;
}

static long long inv_coef(const LtAffine *a, LLVMValueRef inv) {
  for (unsigned i = 0; i < a->ninv; i++)
    if (a->inv[i] == inv)
      return a->icoef[i];
  return 0;
}

/* a's and b's elements of size sz are the same or apart: they have the
 * same pointer terms, and every other difference is a multiple of sz */
int lt_affine_aligned(const LtAffine *a, const LtAffine *b, long long sz) {
  if ((a->off - b->off) % sz)
    return 0;
  for (int pass = 0; pass < 2; pass++) {
    const LtAffine *x = pass ? b : a, *y = pass ? a : b;
    for (unsigned i = 0; i < x->nterm; i++)
      if ((x->coef[i] - lt_affine_coef(y, x->loop[i])) % sz)
        return 0;
    for (unsigned i = 0; i < x->ninv; i++) {
      long long d = x->icoef[i] - inv_coef(y, x->inv[i]);
      if (lt_is_ptr_ty(LLVMTypeOf(x->inv[i])) ? d != 0 : d % sz != 0)
        return 0;
    }
  }
  return 1;
}


/* One rewrite per round: the analyses are rebuilt after each. */
static int round_once(LtCtx *c, LLVMValueRef fn, LtMap *copies, int (*rewrite)(LtLoopAt *),
                      size_t size) {
  LtCfg g;
  LtLoops ls;
  LtInduction ind;
  lt_cfg_build(&g, fn);
  lt_loops_build(&ls, &g);
  int done = 0;
  if (!ls.irreducible && ls.nloops) {
    lt_induction_build(&ind, &ls);
    for (unsigned l = 0; l < ls.nloops && !done; l++) {
      LtLoopAt *at = lt_xcalloc(1, size);
      *at = (LtLoopAt){c, &g, &ls, &ind, l, copies};
      done = rewrite(at);
      free(at);
    }
    lt_induction_free(&ind);
  }
  lt_loops_free(&ls);
  lt_cfg_free(&g);
  return done;
}

void lt_rewrite_loops(LtCtx *c, LLVMValueRef fn, LtMap *copies, int (*rewrite)(LtLoopAt *),
                      size_t size, unsigned rounds) {
  /* R loads what it cached for an outer loop where it uses it, in the
   * inner loop, and the cleanup (derive.c) has no LICM: an address made
   * from such a load has no affine form until it is hoisted */
  if (lt_run_pipeline(c, fn, "loop-mssa(licm)"))
    return;
  for (unsigned round = 0; round < rounds; round++) {
    lt_llvm_forget(c, fn);
    if (!round_once(c, fn, copies, rewrite, size))
      break;
  }
  lt_llvm_forget(c, fn);
}
