/* launder.c: reverse loop nests whose inner loops LLVM's vectoriser can
 * check at run time (issue 17, item 4).
 *
 * A loop the vectoriser cannot prove free of aliasing gets run-time
 * checks of its pointers' ranges before it. Inside an outer loop, LLVM
 * (hoist-runtime-checks, on by default) computes those ranges over the
 * whole outer loop instead, once before it, when the inner loop's bounds
 * move with the outer loop's counter; it handles only an outer loop that
 * moves upwards, and adds a test that the outer step is not negative. The
 * reverse pass runs its loops downwards: that test always fails, and the
 * vectorised inner loop never runs (a double buffer's reverse stencil,
 * whose buffers swap through pointers: scalar, though gather.c rewrote it
 * for the vectoriser).
 *
 * So in a derivative, every innermost loop inside a loop that counts
 * downwards, and whose stores LLVM cannot tell from its other accesses,
 * gets the integers and pointers it takes from that loop through
 * an empty inline asm in its preheader (a copy the optimiser cannot see
 * through): the inner loop's ranges no longer move with the outer counter
 * as far as LLVM can tell, and its checks stay before it, once per run of
 * it. The asm costs nothing at run time (no instruction; "=r,0": the value
 * stays in its register).
 */
#include "lt.h"

#include <string.h>

/* Does loop l count downwards (its canonical counter's step < 0)? */
static int downwards(const LtInduction *ind, unsigned l) {
  return ind->nctr[l] && ind->ctr[l][0].step < 0;
}

/* A 32- or 64-bit integer or a pointer of address space 0 (a general
 * register's width on the targets laundered) */
static int launderable(LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMTypeKind k = LLVMGetTypeKind(t);
  return (k == LLVMIntegerTypeKind &&
          (LLVMGetIntTypeWidth(t) == 32 || LLVMGetIntTypeWidth(t) == 64)) ||
         (k == LLVMPointerTypeKind && LLVMGetPointerAddressSpace(t) == 0);
}

/* v through `asm "" "=r,0"` at b */
static LLVMValueRef copy_of(LLVMBuilderRef b, LLVMValueRef v) {
  LLVMTypeRef t = LLVMTypeOf(v);
  LLVMTypeRef ft = LLVMFunctionType(t, &t, 1, 0);
  LLVMValueRef a = LLVMGetInlineAsm(ft, "", 0, "=r,0", 4, 0, 0, LLVMInlineAsmDialectATT, 0);
  return LLVMBuildCall2(b, ft, a, &v, 1, "lt.laundered");
}

/* Would LLVM check loop l's accesses at run time: does a store of l
 * touch, as far as LLVM's alias analysis (with R's scopes) knows, memory
 * another access of l touches at another address? Loops whose accesses
 * the scopes keep apart (gemm's reverse) are left alone: hiding the outer
 * counter there only costs the outer loop's strength reduction. */
static int checked(LtCtx *c, const LtCfg *g, const LtLoop *L) {
  LtVec acc = {0};
  for (unsigned bi = 0; bi < L->nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[L->blocks[bi]]); i;
         i = LLVMGetNextInstruction(i))
      if ((LLVMIsALoadInst(i) || LLVMIsAStoreInst(i)) && lt_access_addr(i))
        lt_vec_push(&acc, i);
  int need = 0;
  for (size_t a = 0; a < acc.n && !need && acc.n <= 64; a++) {
    LLVMValueRef s = acc.v[a];
    if (!LLVMIsAStoreInst(s))
      continue;
    for (size_t k = 0; k < acc.n && !need; k++) {
      LLVMValueRef o = acc.v[k];
      if (o != s && lt_access_addr(o) != lt_access_addr(s) &&
          lt_llvm_may_alias(c, s, lt_access_addr(s), o, lt_access_addr(o)))
        need = 1;
    }
  }
  lt_vec_free(&acc);
  return need;
}

/* Loop l (innermost, in a downward loop p): its operands defined in p but
 * outside l, laundered in l's preheader. 1 when any was. */
static int launder_loop(LtCtx *c, const LtCfg *g, const LtLoops *ls, unsigned l, unsigned p) {
  const LtLoop *L = &ls->loop[l];
  LLVMBasicBlockRef pre = g->block[L->preheader];
  LtMap done;
  lt_map_init(&done, 16);
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, LLVMGetBasicBlockTerminator(pre));
  int any = 0;
  for (unsigned bi = 0; bi < L->nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->block[L->blocks[bi]]); i;
         i = LLVMGetNextInstruction(i)) {
      unsigned n = (unsigned)LLVMGetNumOperands(i);
      if (LLVMIsACallInst(i) || LLVMIsAInvokeInst(i))
        n = LLVMGetNumArgOperands(i); /* not the callee */
      for (unsigned k = 0; k < n; k++) {
        LLVMValueRef v = LLVMGetOperand(i, k);
        if (!v || !LLVMIsAInstruction(v) || !launderable(v))
          continue;
        int id = lt_cfg_id(g, LLVMGetInstructionParent(v));
        if (id < 0 || lt_loop_contains(ls, l, (unsigned)id) ||
            !lt_loop_contains(ls, p, (unsigned)id))
          continue;
        LLVMValueRef w = lt_map_get(&done, v);
        if (!w) {
          w = copy_of(b, v);
          lt_map_put(&done, v, w);
        }
        LLVMSetOperand(i, k, w);
        any = 1;
      }
    }
  LLVMDisposeBuilder(b);
  lt_map_free(&done);
  return any;
}

void lt_launder_reverse_nests(LtCtx *c, LLVMValueRef fn) {
  if (c->opt_level < 2 || !lt_target_64(c->mod))
    return;
  LtCfg g;
  LtLoops ls;
  LtInduction ind;
  lt_cfg_build(&g, fn);
  lt_loops_build(&ls, &g);
  if (!ls.irreducible && ls.nloops) {
    lt_induction_build(&ind, &ls);
    for (unsigned l = 0; l < ls.nloops; l++) {
      const LtLoop *L = &ls.loop[l];
      if (L->nchildren || L->parent < 0 || L->preheader < 0 ||
          !downwards(&ind, (unsigned)L->parent))
        continue;
      /* the preheader in the parent itself (not a block the loop shares) */
      if (!lt_loop_contains(&ls, (unsigned)L->parent, (unsigned)L->preheader))
        continue;
      if (checked(c, &g, L))
        launder_loop(c, &g, &ls, l, (unsigned)L->parent);
    }
    lt_induction_free(&ind);
  }
  lt_loops_free(&ls);
  lt_cfg_free(&g);
  lt_llvm_forget(c, fn);
}
