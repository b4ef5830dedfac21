/* steprun.c: where the accesses of a checkpointed time loop's step run
 * (gen/snapshot.c builds its snapshots from them).
 *
 * A snapshot copies the interval range.c gives for an access's address,
 * so that access must run in every iteration of the loops around it and,
 * but for conditions known where the step starts, every time the step
 * runs (lt_step_always_runs, lt_step_path_conds). An inner loop under a
 * guard known where the step starts (the j loop of a 2-D sweep over a
 * run-time grid, entered when c > 2) runs in every iteration of its
 * parent or in none: its guard joins those conditions (a loop's header is
 * passed back to its preheader). And memory a step writes
 * before it reads it (lt_step_write_first) need not be in a snapshot at
 * all: a time step often computes into a scratch array and copies back
 * (Burgers: tmp[i] = f(u[i-1], u[i], u[i+1]) for all i, then u[i] =
 * tmp[i]), and what the scratch holds when a step starts is dead. Leaving
 * it out halves Burgers' snapshots: twice the slots in the same budget,
 * fewer steps run again, half the copying.
 */
#include "lt.h"

#include <stdlib.h>
#include <string.h>

/* Does block b lie on every path through the step? */
static int on_every_path(const LtFacts *f, unsigned b) {
  for (unsigned k = 0; k < f->g->nblocks; k++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(f->g->block[k]);
    if (t && LLVMGetInstructionOpcode(t) == LLVMRet && !lt_cfg_dominates(f->g, b, k))
      return 0;
  }
  return 1;
}

/* v is computed from the step's parameters and constants alone. */
static int known_at_start(LLVMValueRef v, int depth) {
  if (LLVMIsAConstantInt(v) || LLVMIsAArgument(v))
    return 1;
  if (!LLVMIsAInstruction(v) || depth > 8)
    return 0;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd:
  case LLVMSub:
  case LLVMMul:
    return known_at_start(LLVMGetOperand(v, 0), depth + 1) &&
           known_at_start(LLVMGetOperand(v, 1), depth + 1);
  case LLVMSExt:
  case LLVMZExt:
    return known_at_start(LLVMGetOperand(v, 0), depth + 1);
  default:
    return 0;
  }
}

/* A branch condition computed from the step's parameters alone: it has
 * the same value wherever the step tests it. */
static int fixed_cond(LLVMValueRef v) {
  return LLVMIsAArgument(v) ||
         (LLVMIsAICmpInst(v) && known_at_start(LLVMGetOperand(v, 0), 0) &&
          known_at_start(LLVMGetOperand(v, 1), 0));
}

/* Does every path from block d to the step's return pass through block
 * b? (b post-dominates d: a join after a branch that d begins.) Paths
 * that test a fixed condition (fixed_cond, up to 4 of them) two ways are
 * not paths: each assignment of them is searched on its own (-O0 clones
 * branch on n > 0 again after each guarded loop). */
static int passes(const LtFacts *f, unsigned d, unsigned b) {
  unsigned n = f->g->nblocks, top = 0, *stack = lt_xcalloc(n + 1, sizeof *stack);
  unsigned char *seen = lt_xcalloc(n + 1, 1);
  LLVMValueRef fixed[4];
  unsigned nfixed = 0;
  for (unsigned k = 0; k < n; k++) {
    LLVMValueRef t = LLVMGetBasicBlockTerminator(f->g->block[k]);
    if (!t || LLVMGetInstructionOpcode(t) != LLVMBr || !LLVMIsConditional(t) ||
        !fixed_cond(LLVMGetCondition(t)))
      continue;
    unsigned m = 0;
    while (m < nfixed && fixed[m] != LLVMGetCondition(t))
      m++;
    if (m == nfixed && nfixed < 4)
      fixed[nfixed++] = LLVMGetCondition(t);
  }
  int ok = 1;
  for (unsigned mask = 0; ok && mask < 1u << nfixed; mask++) {
    memset(seen, 0, n + 1);
    seen[b] = seen[d] = 1;
    top = 0;
    stack[top++] = d;
    while (ok && top) {
      LLVMValueRef t = LLVMGetBasicBlockTerminator(f->g->block[stack[--top]]);
      if (!t || LLVMGetInstructionOpcode(t) == LLVMRet) {
        ok = 0;
        break;
      }
      int only = -1; /* the successor a fixed condition takes */
      if (LLVMGetInstructionOpcode(t) == LLVMBr && LLVMIsConditional(t))
        for (unsigned m = 0; m < nfixed; m++)
          if (fixed[m] == LLVMGetCondition(t))
            only = mask >> m & 1 ? 0 : 1;
      for (unsigned s = 0, ns = LLVMGetNumSuccessors(t); s < ns; s++) {
        int id = lt_cfg_id(f->g, LLVMGetSuccessor(t, s));
        if (id >= 0 && !seen[id] && (only < 0 || (unsigned)only == s))
          seen[id] = 1, stack[top++] = (unsigned)id;
      }
    }
  }
  free(stack);
  free(seen);
  return ok;
}

/* The conditions under which block b runs, when that is a conjunction of
 * compares of values known where the step starts: going back from b, each
 * block has one predecessor (a loop passed through from its one exit to its
 * preheader: a loop with a known trip count is left once entered), or is
 * a join that every path from its immediate dominator reaches, up to
 * `top` (the step's entry, or a loop header); the conditional branches met
 * go into conds (the compare, then (void *)1 when taken on false). 0 when
 * there is no such path or a condition is another value. */
int lt_step_path_conds(const LtFacts *f, unsigned b, unsigned top, LtVec *conds) {
  for (unsigned cur = b, guard = 0; cur != top && guard < 4096; guard++) {
    int hl = lt_loop_of(f->loops, cur);
    if (hl >= 0 && f->loops->loop[hl].header == cur) {
      /* the header of a bottom-tested loop with a known trip count,
       * entered from its preheader: a block it reaches through fixed
       * conditions runs in every iteration, and the loop runs at least
       * once (the conditions above its preheader say when) */
      const LtLoop *L = &f->loops->loop[hl];
      if (L->preheader < 0 || L->latch < 0 || L->nexiting != 1 ||
          L->exiting[0] != (unsigned)L->latch || !f->ind->trip[hl].known)
        return 0;
      cur = (unsigned)L->preheader;
      continue;
    }
    if (f->g->npred[cur] != 1) {
      /* a join that every path from its dominator reaches, in the same
       * loop: it runs when its dominator does */
      unsigned d = f->g->idom[cur];
      if (d == cur || lt_loop_of(f->loops, d) != lt_loop_of(f->loops, cur) ||
          !passes(f, d, cur))
        return 0;
      cur = d;
      continue;
    }
    unsigned p = f->g->pred[cur][0];
    int lc = lt_loop_of(f->loops, cur), lp = lt_loop_of(f->loops, p);
    if (lp >= 0 && !lt_loop_encloses(f->loops, (unsigned)lp, lc)) {
      /* cur is the exit of loop lp (or of one around it, up to cur's) */
      while (f->loops->loop[lp].parent != lc)
        lp = f->loops->loop[lp].parent;
      const LtLoop *L = &f->loops->loop[lp];
      if (L->nexiting != 1 || L->preheader < 0 || !f->ind->trip[lp].known)
        return 0;
      cur = (unsigned)L->preheader;
      continue;
    }
    LLVMValueRef t = LLVMGetBasicBlockTerminator(f->g->block[p]);
    if (t && LLVMGetInstructionOpcode(t) == LLVMBr && LLVMIsConditional(t)) {
      LLVMValueRef cmp = LLVMGetCondition(t);
      if (LLVMIsAArgument(cmp)) { /* a condition computed before the loop */
      } else if (!LLVMIsAICmpInst(cmp) || !known_at_start(LLVMGetOperand(cmp, 0), 0) ||
                 !known_at_start(LLVMGetOperand(cmp, 1), 0)) {
        return 0;
      } else {
        LLVMIntPredicate pr = LLVMGetICmpPredicate(cmp);
        if (pr != LLVMIntSLT && pr != LLVMIntSLE && pr != LLVMIntSGT && pr != LLVMIntSGE &&
            pr != LLVMIntEQ && pr != LLVMIntNE)
          return 0; /* unsigned: sign-extended bounds would compare otherwise */
      }
      lt_vec_push(conds, cmp);
      lt_vec_push(conds, (void *)(size_t)(LLVMGetSuccessor(t, 0) != f->g->block[cur]));
    } else if (t && LLVMGetInstructionOpcode(t) != LLVMBr) {
      return 0; /* a switch */
    }
    cur = p;
  }
  return 1;
}

/* Does inst run in every iteration of every loop around it, each loop with
 * one way out, and, but for conditions known where the step starts (*from:
 * the block whose lt_step_path_conds they are), every time the step runs? Then the
 * interval range.c gives for its address is the one it touches: a snapshot
 * copies those bytes (when the conditions hold), which must not reach past
 * what the program accesses (an access under a branch, u[i - 1] if i > 0,
 * would stretch it below u). */
int lt_step_always_runs(const LtFacts *f, LLVMValueRef inst, int *from) {
  int b = lt_cfg_id(f->g, LLVMGetInstructionParent(inst));
  *from = -1;
  if (b < 0)
    return 0;
  int outer = -1, guarded = -1;
  unsigned at = (unsigned)b; /* what runs in every iteration of the loop at hand */
  for (int l = lt_loop_of(f->loops, (unsigned)b); l >= 0; l = f->loops->loop[l].parent) {
    const LtLoop *lp = &f->loops->loop[l];
    if (lp->nexiting != 1 || lp->latch < 0 || lp->preheader < 0 ||
        !lt_cfg_dominates(f->g, at, (unsigned)lp->latch))
      return 0;
    if (lp->parent >= 0 && !lt_cfg_dominates(f->g, (unsigned)lp->preheader,
                                             (unsigned)f->loops->loop[lp->parent].latch)) {
      /* an inner loop entered in some iterations only, unless what
       * decides it is known where the step starts (its guard, c > 2 for
       * `for (j = 1; j < c - 1; j++)` in a 2-D sweep): then it is entered
       * in every iteration or in none, and the guard joins the
       * conditions of the snapshot (from its preheader) */
      LtVec g = {0};
      unsigned ph = f->loops->loop[lp->parent].header;
      int fixed = lt_step_path_conds(f, (unsigned)lp->preheader, ph, &g);
      lt_vec_free(&g);
      if (!fixed)
        return 0;
      if (guarded < 0)
        guarded = l;
      at = ph;
    }
    outer = l;
  }
  unsigned start = guarded >= 0 ? (unsigned)f->loops->loop[guarded].preheader
                   : outer < 0  ? (unsigned)b
                                : (unsigned)f->loops->loop[outer].preheader;
  if (on_every_path(f, start))
    return 1;
  LtVec conds = {0};
  int ok = lt_step_path_conds(f, start, 0, &conds);
  lt_vec_free(&conds);
  if (ok)
    *from = (int)start;
  return ok;
}

/* ---- memory a step writes before it reads it --------------------------- */

static int same_int(LLVMValueRef a, LLVMValueRef b) {
  return a == b || (a && b && LLVMIsAConstantInt(a) && LLVMIsAConstantInt(b) &&
                    LLVMTypeOf(a) == LLVMTypeOf(b) &&
                    LLVMConstIntGetSExtValue(a) == LLVMConstIntGetSExtValue(b));
}

/* Loops a and b run the same number of iterations. */
static int same_trip(const LtInduction *ind, unsigned a, unsigned b) {
  const LtTrip *x = &ind->trip[a], *y = &ind->trip[b];
  return x->known && y->known && !x->vstep && !y->vstep && x->step == y->step &&
         x->pred == y->pred && x->on_next == y->on_next && same_int(x->start, y->start) &&
         same_int(x->bound, y->bound);
}

/* The number of iterations of a loop whose counter starts, steps and ends
 * at constants (X_k = start + step (k + on_next) goes on while X_k pred
 * bound); 0 when it is not such a loop. */
static long long const_trip(const LtTrip *t) {
  if (!t->known || t->vstep || !t->step || !LLVMIsAConstantInt(t->start) ||
      !LLVMIsAConstantInt(t->bound))
    return 0;
  long long s = LLVMConstIntGetSExtValue(t->start), b = LLVMConstIntGetSExtValue(t->bound);
  long long st = t->step, x0 = s + st * t->on_next, d = st > 0 ? b - x0 : x0 - b;
  long long a = st > 0 ? st : -st, n;
  if (d < 0 || d > (1LL << 40))
    return 0;
  switch (t->pred) {
  case LLVMIntNE:
    if (d % a)
      return 0;
    n = d / a;
    break;
  case LLVMIntSLT: case LLVMIntULT: case LLVMIntSGT: case LLVMIntUGT:
    if ((st > 0) != (t->pred == LLVMIntSLT || t->pred == LLVMIntULT))
      return 0;
    n = (d + a - 1) / a;
    break;
  case LLVMIntSLE: case LLVMIntULE: case LLVMIntSGE: case LLVMIntUGE:
    if ((st > 0) != (t->pred == LLVMIntSLE || t->pred == LLVMIntULE))
      return 0;
    n = d / a + 1;
    break;
  default:
    return 0;
  }
  return n + 1; /* header executions: the k that go on, and the first */
}

/* Does store s write every byte load l reads, earlier in the same run of
 * the step? s runs in every iteration of its loops (lt_step_always_runs), each of
 * those that is not around l is left at its latch only (so all its
 * iterations have run when l does), s comes before l on every path, and
 * the two addresses are the same affine form: the same invariants, the
 * same coefficients of the loops around both, each loop only one of them
 * is in paired with one of the other's that has the same coefficient and
 * trip count, and the same constant but for a multiple of the coefficient
 * of one unpaired loop of s's that its iterations span. l is no wider
 * than s. */
static int covers(const LtFacts *f, LLVMValueRef s, LLVMValueRef l) {
  LLVMTargetDataRef td = f->c->td;
  int bs = lt_cfg_id(f->g, LLVMGetInstructionParent(s));
  int bl = lt_cfg_id(f->g, LLVMGetInstructionParent(l)), from;
  if (bs < 0 || bl < 0 || !lt_step_always_runs(f, s, &from) ||
      LLVMStoreSizeOfType(td, LLVMTypeOf(l)) >
          LLVMStoreSizeOfType(td, LLVMTypeOf(LLVMGetOperand(s, 0))))
    return 0;
  if (bs == bl) {
    LLVMValueRef i = s;
    while (i && i != l)
      i = LLVMGetNextInstruction(i);
    if (!i)
      return 0;
  } else if (!lt_cfg_dominates(f->g, (unsigned)bs, (unsigned)bl)) {
    return 0;
  }
  int ls = lt_loop_of(f->loops, (unsigned)bs), ll = lt_loop_of(f->loops, (unsigned)bl);
  for (int m = ls; m >= 0; m = f->loops->loop[m].parent) {
    const LtLoop *lp = &f->loops->loop[m];
    if (!lt_loop_encloses(f->loops, (unsigned)m, ll) &&
        (lp->nexiting != 1 || lp->exiting[0] != (unsigned)lp->latch))
      return 0;
  }
  LtAffine as, al;
  if (lt_affine_of(f->ind, td, LLVMGetOperand(s, 1), ls, &as))
    return 0;
  if (lt_affine_of(f->ind, td, LLVMGetOperand(l, 0), ll, &al)) {
    lt_affine_free(&as);
    return 0;
  }
  int ok = as.ninv == al.ninv;
  for (unsigned i = 0; ok && i < al.ninv; i++) {
    unsigned j = 0;
    while (j < as.ninv && (as.inv[j] != al.inv[i] || as.icoef[j] != al.icoef[i]))
      j++;
    ok = j < as.ninv;
  }
  unsigned char *used = lt_xcalloc(as.nterm + 1, 1);
  for (unsigned i = 0; ok && i < al.nterm; i++) {
    unsigned m = al.loop[i];
    if (lt_loop_encloses(f->loops, m, ls)) { /* around both */
      ok = lt_affine_coef(&as, m) == al.coef[i];
      continue;
    }
    unsigned j = 0;
    while (j < as.nterm && (used[j] || lt_loop_encloses(f->loops, as.loop[j], ll) ||
                            as.coef[j] != al.coef[i] || !same_trip(f->ind, as.loop[j], m)))
      j++;
    ok = j < as.nterm;
    if (ok)
      used[j] = 1;
  }
  /* the constants differ by a multiple of the coefficient of at most one
   * loop of s's alone with a constant trip count that it spans (a row
   * written in a loop, read back element by element: the copy back
   * unrolled) */
  long long d = al.off - as.off;
  for (unsigned j = 0; ok && j < as.nterm; j++) {
    if (used[j] || lt_loop_encloses(f->loops, as.loop[j], ll))
      continue;
    long long c = as.coef[j], n = const_trip(&f->ind->trip[as.loop[j]]);
    ok = c && d % c == 0 && d / c >= 0 && d / c < n;
    d = 0;
  }
  ok = ok && d == 0;
  free(used);
  lt_affine_free(&as);
  lt_affine_free(&al);
  return ok;
}

/* Does every read of memory through parameter base in a step read bytes
 * the step wrote before (a store of ws covers it)? Then what base's
 * writes reach holds nothing a step needs when it starts (Burgers' tmp:
 * filled from u, then copied back), and a snapshot may leave it out,
 * where no read through another pointer reaches it (the run-time test in
 * lt_ckpt_snap_build). Every use of a pointer made from base must be a
 * GEP, a load, a store to it or a memset of it, a comparison, or a store
 * of it into what the step carries (a rotated pointer). */
int lt_step_write_first(const LtFacts *f, LLVMValueRef base, const LtVec *ws) {
  LtVec work = {0};
  LtMap seen;
  lt_map_init(&seen, 16);
  lt_vec_push(&work, base);
  int ok = 1;
  while (ok && work.n) {
    LLVMValueRef p = work.v[--work.n];
    for (LLVMUseRef u = LLVMGetFirstUse(p); ok && u; u = LLVMGetNextUse(u)) {
      LLVMValueRef us = LLVMGetUser(u);
      if (LLVMIsAGetElementPtrInst(us) || LLVMIsABitCastInst(us)) {
        if (!lt_map_get(&seen, us)) {
          lt_map_put(&seen, us, us);
          lt_vec_push(&work, us);
        }
      } else if (LLVMIsAICmpInst(us)) {
        continue; /* an address compared (a vectorised loop's overlap test) */
      } else if (LLVMIsAStoreInst(us) && LLVMGetOperand(us, 0) == p) {
        /* the pointer itself kept in what the step carries (two buffers
         * swapped): a read through it there is another pointer's
         * (lt_step_other_reads) */
        ok = LLVMIsAArgument(LLVMGetOperand(us, 1)) && LLVMGetOperand(us, 1) != p;
      } else if (LLVMIsAStoreInst(us)) {
        ok = LLVMGetOperand(us, 1) == p && LLVMGetOperand(us, 0) != p;
      } else if (LLVMIsALoadInst(us)) {
        ok = 0;
        for (size_t k = 0; !ok && k < ws->n; k += 2)
          ok = LLVMIsAStoreInst(ws->v[k]) && covers(f, ws->v[k], us);
      } else if (LLVMIsAIntrinsicInst(us)) {
        size_t len;
        const char *nm = lt_callee_name(us, &len);
        ok = len >= 11 && !strncmp(nm, "llvm.memset", 11) && LLVMGetOperand(us, 0) == p &&
             LLVMGetOperand(us, 1) != p;
      } else {
        ok = 0;
      }
    }
  }
  lt_vec_free(&work);
  lt_map_free(&seen);
  return ok;
}

/* The reads of the step that do not go through base (loads and copies
 * from memory that is not the step's own), as (inst, addr) pairs; 0 when
 * the step reads memory otherwise (a call given a pointer). */
int lt_step_other_reads(const LtFacts *f, LLVMValueRef base, LtVec *out) {
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(f->P); bb; bb = LLVMGetNextBasicBlock(bb))
    for (LLVMValueRef i = LLVMGetFirstInstruction(bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMValueRef a = NULL;
      if (LLVMIsALoadInst(i)) {
        a = LLVMGetOperand(i, 0);
      } else if (LLVMIsACallInst(i)) {
        size_t len;
        const char *nm = lt_callee_name(i, &len);
        int lifetime = len >= 13 && !strncmp(nm, "llvm.lifetime", 13);
        int memset = len >= 11 && !strncmp(nm, "llvm.memset", 11);
        for (unsigned k = 0, n = LLVMGetNumArgOperands(i); k < n; k++) {
          LLVMValueRef x = LLVMGetOperand(i, k), xb = lt_base_of(x);
          if (!lt_is_ptr_ty(LLVMTypeOf(x)) || lifetime || (memset && k == 0) ||
              LLVMIsAAllocaInst(xb) || (LLVMIsAGlobalVariable(xb) && LLVMIsGlobalConstant(xb)))
            continue;
          return 0; /* a copy's source, or what a call may read */
        }
        continue;
      } else {
        continue;
      }
      LLVMValueRef b = lt_base_of(a);
      if (b == base || LLVMIsAAllocaInst(b) ||
          (LLVMIsAGlobalVariable(b) && LLVMIsGlobalConstant(b)))
        continue;
      lt_vec_push(out, i);
      lt_vec_push(out, a);
    }
  return 1;
}

