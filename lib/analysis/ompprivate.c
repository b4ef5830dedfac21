/* ompprivate.c: which memory a thread of an OpenMP team accesses alone.
 *
 * The reverse of a parallel region adds adjoints into shadow memory; an
 * addition another thread may make to the same location at the same time
 * must be atomic (or go through a per-thread buffer, gen/ompsync.c). A
 * location is proven thread-private when it is memory of the thread's own
 * allocations, or an element of a worksharing loop's own iteration: the
 * address affine in the loop's iteration starting from the thread's first
 * iteration (as __kmpc_for_static_init / __kmpc_dispatch_next wrote it),
 * every other term the same on every thread, and every other read with an
 * adjoint of the same memory at the same affine address. (A separate file
 * from omp.c, which classifies runtime calls for calls.c, because this
 * needs the activity facts, which need calls.c.)
 */
#include "lt.h"

/* A value every thread of the team sees the same: a constant, a
 * parameter (a captured variable or its address), or a load through one
 * (the captured variable's value), two levels deep. */
static int team_invariant(LLVMValueRef v, int depth) {
  if (LLVMIsAConstant(v) || LLVMIsAArgument(v))
    return 1;
  if (depth < 2 && LLVMIsALoadInst(v) && !LLVMGetVolatile(v))
    return team_invariant(LLVMGetOperand(v, 0), depth + 1);
  return 0;
}

/* addr as an affine form inside the loop of inst: 0 on success. */
static int form_of(const LtFacts *f, LLVMValueRef inst, LLVMValueRef addr, LtAffine *a) {
  int b = lt_cfg_id(f->g, LLVMGetInstructionParent(inst));
  int l = b >= 0 ? lt_loop_of(f->loops, (unsigned)b) : -1;
  return l < 0 ? -1 : lt_affine_of(f->ind, f->c->td, addr, l, a);
}

static int same_form(const LtAffine *x, const LtAffine *y) {
  return x->off == y->off && lt_affine_same_terms(x, y);
}

/* A thread's own iteration of worksharing loop l: the form is c * (start
 * + step * k) + the same on every thread. */
static int iteration_form(const LtFacts *f, const LtAffine *a) {
  if (a->nterm != 1 || !a->coef[0])
    return 0;
  unsigned l = a->loop[0];
  int starts = 0;
  for (unsigned k = 0; k < a->ninv; k++) {
    if (lt_omp_worksharing_start(a->inv[k])) {
      int fits = 0;
      for (unsigned m = 0; m < f->ind->nctr[l]; m++)
        fits |= f->ind->ctr[l][m].step &&
                a->icoef[k] * f->ind->ctr[l][m].step == a->coef[0];
      if (!fits)
        return 0;
      starts++;
    } else if (!team_invariant(a->inv[k], 0)) {
      return 0;
    }
  }
  return starts == 1;
}

int lt_omp_private(const LtFacts *f, LLVMValueRef inst, LLVMValueRef addr) {
  LtPoints *pt = &f->act->pts;
  if (lt_points_all_own(pt, addr))
    return 1;
  LtAffine a;
  if (form_of(f, inst, addr, &a))
    return 0;
  int ok = iteration_form(f, &a);
  for (unsigned b = 0; ok && b < f->g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(f->g->block[b]); ok && i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef p = lt_access_addr(i);
      if (!p) {
        /* a call that may touch the same memory: give up */
        for (unsigned k = 0, n = LLVMIsACallInst(i) ? LLVMGetNumArgOperands(i) : 0;
             ok && k < n; k++) {
          LLVMValueRef op = LLVMGetOperand(i, k);
          const LtRule *rule;
          ok = !lt_is_ptr_ty(LLVMTypeOf(op)) || lt_call_kind(i, &rule) == LT_CALL_SYNC ||
               lt_call_kind(i, &rule) == LT_CALL_INACTIVE ||
               !lt_points_may_alias(pt, op, addr);
        }
        continue;
      }
      /* a store of another thread to the same memory would be a data race
       * of the primal: only other reads (and atomics) can meet this
       * adjoint in the reverse pass */
      if (i == inst || LLVMIsAStoreInst(i) || !lt_points_may_alias(pt, p, addr))
        continue;
      /* a read without an adjoint adds nothing back */
      if (LLVMIsALoadInst(i) && !lt_is_varied(f->act, i))
        continue;
      LtAffine b2;
      if (form_of(f, i, p, &b2)) {
        ok = 0;
        break;
      }
      ok = same_form(&a, &b2);
      lt_affine_free(&b2);
    }
  lt_affine_free(&a);
  return ok;
}
