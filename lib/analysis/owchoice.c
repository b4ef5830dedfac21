/* owchoice.c: which loads the undo log re-reads (overwrite.c's
 * candidates: loads that a later write may overwrite, which the reverse
 * pass would otherwise tape). A candidate is taken when its log is cheap
 * against the tape it saves: writes in a shallower nest than the load,
 * writes whose ranges a run-time test can show apart, or a log of about
 * one entry per run of a loop; otherwise the load is taped.
 */
#include "lt.h"
#include "overwrite.h"

#include <stdlib.h>
#include <string.h>

static int class_range(Ctx *x, unsigned wc) {
  Class *cl = &x->w.c[wc];
  if (!cl->range) {
    cl->range = 1;
    for (size_t k = 0; k < cl->members.n && cl->range == 1; k += 2)
      if (!lt_range_ok(x->g, cl->members.v[k], cl->members.v[k + 1]))
        cl->range = 2;
  }
  return cl->range == 1;
}

static int cand_range(Ctx *x, const Cand *cd) {
  if (!lt_range_ok(x->g, cd->load, LLVMGetOperand(cd->load, 0)))
    return 0;
  for (unsigned wc = 0; wc < x->w.n; wc++)
    if (bit_has(cd->wcs, wc) && !class_range(x, wc))
      return 0;
  return 1;
}

/* Does a store of class wc write exactly where the load reads? Then the
 * log cannot help (and a run-time test would always be on). */
static int same_address(Ctx *x, unsigned wc, LLVMValueRef load) {
  const LtVec *m = &x->w.c[wc].members;
  for (size_t k = 1; k < m->n; k += 2)
    if (m->v[k] == LLVMGetOperand(load, 0))
      return 1;
  return 0;
}

/* Class wc's member list, moved to o (the candidates point to it). */
static LtVec *kept_members(LtOverwrite *o, Ctx *x, unsigned wc) {
  Class *cl = &x->w.c[wc];
  if (cl->kept)
    return cl->kept;
  cl->kept = lt_xcalloc(1, sizeof *cl->kept);
  *cl->kept = cl->members;
  memset(&cl->members, 0, sizeof cl->members);
  lt_vec_push(&o->owned, cl->kept);
  for (size_t k = 0; k < cl->kept->n; k += 2)
    lt_map_put(&o->store_class, cl->kept->v[k], cl->kept);
  return cl->kept;
}

/* Does the load's address move by at most its own size per iteration of
 * l (a row, not a column)? The reverse pass re-reads it in l's reverse
 * beside the shadow it updates: a column (stride n) re-read there adds a
 * strided stream that the tape, read back contiguously, does not (LU's
 * A[k][j] under A[i][j]: 6.0 times the primal re-read, 4.1 taped, n =
 * 128). A stride that is not a constant counts as a column. */
static int unit_stride(const LtFacts *g, unsigned l, LLVMValueRef load) {
  long long c, size = (long long)LLVMStoreSizeOfType(g->c->td, LLVMTypeOf(load));
  return lt_affine_step(g->ind, g->c->td, LLVMGetOperand(load, 0), l, &c) && c >= -size &&
         c <= size;
}

/* The load's innermost loop when its address is linear there and moves
 * by at most its own size per iteration (a row), else -1. */
static int row_loop(const LtFacts *g, LLVMValueRef load) {
  int lb = lt_cfg_id(g->g, LLVMGetInstructionParent(load));
  int l = lb >= 0 ? lt_loop_of(g->loops, (unsigned)lb) : -1;
  if (l < 0 || !lt_linear_in(g->ind, (unsigned)l, LLVMGetOperand(load, 0)) ||
      !unit_stride(g, (unsigned)l, load))
    return -1;
  return l;
}

/* Would the log cost about one entry per run of a loop (undoblock.c's run
 * entries), not one per store? The load's address is linear in its loop,
 * and every write of its classes in a loop as deep as it stores at an
 * address that stays put in its own loop, the same one for all of them
 * there: a triangular solve's accumulator x[i] under its loads x[j], a
 * factorisation's A[i][j] under A[i][k] and A[j][k]. A guess: the
 * generator checks it again, and A checks at run time that the loads stay
 * clear of that address (else it logs each store). */
static int runs_cheap(Ctx *x, const Cand *cd) {
  const LtFacts *g = x->g;
  if (row_loop(g, cd->load) < 0)
    return 0;
  LtMap at; /* loop id + 1 -> the address its stores write */
  lt_map_init(&at, 8);
  int ok = 1;
  for (unsigned wc = 0; ok && wc < x->w.n; wc++) {
    if (!bit_has(cd->wcs, wc))
      continue;
    const Class *cl = &x->w.c[wc];
    const LtVec *m = cl->kept ? cl->kept : &cl->members; /* kept: moved */
    for (size_t k = 0; ok && k < m->n; k += 2) {
      int sb = lt_cfg_id(g->g, LLVMGetInstructionParent(m->v[k]));
      int sl = sb >= 0 ? lt_loop_of(g->loops, (unsigned)sb) : -1;
      if (sb < 0 || depth_of(g, (unsigned)sb) < cd->ld)
        continue;
      LLVMValueRef was = sl >= 0 ? lt_map_get(&at, (void *)(size_t)(sl + 1)) : NULL;
      ok = sl >= 0 && lt_invariant_value(g->ind, (unsigned)sl, m->v[k + 1]) &&
           (!was || was == m->v[k + 1]);
      if (ok)
        lt_map_put(&at, (void *)(size_t)(sl + 1), m->v[k + 1]);
    }
  }
  lt_map_free(&at);
  return ok;
}

/* Does loop l load from the object at base? With a store, not counting
 * loads in l itself that read only what the store wrote in earlier
 * iterations of the run (lt_load_behind). */
static int loop_reads(const LtFacts *g, unsigned l, LLVMValueRef base, LLVMValueRef store) {
  const LtLoop *lp = &g->loops->loop[l];
  for (unsigned bi = 0; bi < lp->nblocks; bi++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g->block[lp->blocks[bi]]); i;
         i = LLVMGetNextInstruction(i))
      if (LLVMIsALoadInst(i) && lt_base_of(LLVMGetOperand(i, 0)) == base &&
          !(store && lt_loop_of(g->loops, lp->blocks[bi]) == (int)l &&
            lt_load_behind(g->ind, g->c->td, l, store, i)))
        return 1;
  return 0;
}

int lt_load_behind(const LtInduction *ind, LLVMTargetDataRef td, unsigned l,
                   LLVMValueRef store, LLVMValueRef load) {
  if (!LLVMIsAStoreInst(store) || !LLVMIsALoadInst(load) || LLVMGetVolatile(load))
    return 0;
  long long size = (long long)LLVMStoreSizeOfType(td, LLVMTypeOf(LLVMGetOperand(store, 0)));
  if (size <= 0 || (long long)LLVMStoreSizeOfType(td, LLVMTypeOf(load)) != size)
    return 0;
  LtAffine s, a;
  if (lt_affine_of_run(ind, td, LLVMGetOperand(store, 1), l, &s))
    return 0;
  if (lt_affine_of_run(ind, td, LLVMGetOperand(load, 0), l, &a)) {
    lt_affine_free(&s);
    return 0;
  }
  /* the store writes S + step t at iteration t (distinct addresses), the
   * load reads S + step (t - k): written at iteration t - k only */
  long long step = lt_affine_coef(&s, l), d = a.off - s.off;
  int ok = (step == size || step == -size) && lt_affine_same_terms(&s, &a) &&
           d % step == 0 && d / step <= -1;
  lt_affine_free(&s);
  lt_affine_free(&a);
  return ok;
}

/* Would the log of the candidate's writes into the load's own object, in
 * loops as deep as the load, be cheap? Each such write stores at an
 * address that stays put in its loop (an entry per run of the loop: LU's
 * A[i][j] under its column loads A[k][j]), or one that moves by its own
 * size in a loop reading nothing of that object (a block per run,
 * undoblock.c: a time step's copy back u[i] = tmp[i]). Otherwise a
 * run-time test between the load and those writes always finds them
 * overlapping, and the log costs an entry per store (24 bytes) where the
 * tape costs 8 per load: Gram-Schmidt's A[i][j], read in one i loop and
 * written, a column, in the next; ADI's sweeps. */
static int same_object_cheap(Ctx *x, const Cand *cd) {
  const LtFacts *g = x->g;
  LLVMValueRef base = lt_base_of(LLVMGetOperand(cd->load, 0));
  for (unsigned wc = 0; wc < x->w.n; wc++) {
    if (!bit_has(cd->wcs, wc) || x->w.c[wc].base != base)
      continue;
    const Class *cl = &x->w.c[wc];
    const LtVec *m = cl->kept ? cl->kept : &cl->members;
    for (size_t k = 0; k < m->n; k += 2) {
      int sb = lt_cfg_id(g->g, LLVMGetInstructionParent(m->v[k]));
      int sl = sb >= 0 ? lt_loop_of(g->loops, (unsigned)sb) : -1;
      if (sb >= 0 && depth_of(g, (unsigned)sb) < cd->ld)
        continue;
      if (sl < 0)
        return 0;
      if (lt_invariant_value(g->ind, (unsigned)sl, m->v[k + 1]))
        continue;
      long long step, size = (long long)LLVMStoreSizeOfType(
                          g->c->td, LLVMTypeOf(LLVMGetOperand(m->v[k], 0)));
      if (!LLVMIsAStoreInst(m->v[k]) ||
          !lt_affine_step(g->ind, g->c->td, m->v[k + 1], (unsigned)sl, &step) ||
          (step != size && step != -size) || loop_reads(g, (unsigned)sl, base, NULL))
        return 0;
    }
  }
  return 1;
}

/* Would the log cost a block per run of a loop, checked at run time
 * (undoblock.c)? Every write of the candidate's classes in a loop as deep
 * as the load is a plain store whose address moves by its own size in
 * its loop, a loop that reads nothing through the store's own base but
 * what the store wrote in earlier iterations (lt_load_behind: ADI's
 * p[i][j] = f(p[i][j - 1]), re-read by the back substitution): a
 * double-buffered step's b[i][j] = f(a[i-1..i+1][j-1..j+1]) with a and b
 * swapped through pointers, whose loads a later step overwrites. The
 * block keeps the state (8 bytes a point) where the tape keeps what the
 * adjoint needs of every point (16 and more). A guess: the generator
 * checks the shape again, and A tests per run that the loads R re-reads
 * in the loop stay clear of the block, else logs each store (u == v). */
static int blocks_cheap(Ctx *x, const Cand *cd) {
  const LtFacts *g = x->g;
  if (row_loop(g, cd->load) < 0)
    return 0;
  int any = 0;
  for (unsigned wc = 0; wc < x->w.n; wc++) {
    if (!bit_has(cd->wcs, wc))
      continue;
    const Class *cl = &x->w.c[wc];
    const LtVec *m = cl->kept ? cl->kept : &cl->members;
    if (cl->unloggable || !cl->store)
      return 0;
    for (size_t k = 0; k < m->n; k += 2) {
      int sb = lt_cfg_id(g->g, LLVMGetInstructionParent(m->v[k]));
      int sl = sb >= 0 ? lt_loop_of(g->loops, (unsigned)sb) : -1;
      if (sb >= 0 && depth_of(g, (unsigned)sb) < cd->ld)
        continue;
      long long step, size;
      if (sl < 0 || !LLVMIsAStoreInst(m->v[k]))
        return 0;
      size = (long long)LLVMStoreSizeOfType(g->c->td, LLVMTypeOf(LLVMGetOperand(m->v[k], 0)));
      if (!lt_affine_step(g->ind, g->c->td, m->v[k + 1], (unsigned)sl, &step) ||
          (step != size && step != -size) ||
          loop_reads(g, (unsigned)sl, lt_base_of(m->v[k + 1]), m->v[k]))
        return 0;
      any = 1;
    }
  }
  return any;
}

/* Which candidates the undo log may re-read. One whose writes run in a
 * shallower nest than it (normalize's out[j] under its n^2 loads of x)
 * always: the log is smaller than the tape it saves. One at the same
 * depth (x[i] *= y[i] with plain pointers) only when a run-time test can
 * show that the writes cannot touch what the loads read, which then logs
 * nothing; it needs every candidate's ranges computable at entry (else
 * the log is always on), or when the log would hold about one entry per
 * run of a loop (runs_cheap), or a block per run (blocks_cheap). Whether
 * a candidate is re-read at all is known once the reverse pass is built
 * (undo.c logs only what it needs). */
void lt_ow_decide(LtOverwrite *o, Ctx *x) {
  int runtime = 1;
  for (size_t k = 0; k < x->cands.n; k++) {
    Cand *cd = x->cands.v[k];
    for (unsigned wc = 0; wc < x->w.n; wc++)
      if (bit_has(cd->wcs, wc) && same_address(x, wc, cd->load))
        cd->hopeless = 1;
    if (!cd->hopeless && cd->ld > cd->sd && !cand_range(x, cd))
      runtime = 0;
  }
  for (size_t k = 0; k < x->cands.n; k++) {
    Cand *cd = x->cands.v[k];
    int take = !cd->hopeless &&
               (cd->ld > cd->sd || (runtime && same_object_cheap(x, cd) && cand_range(x, cd)) ||
                runs_cheap(x, cd) || blocks_cheap(x, cd));
    if (take) {
      lt_map_put(&o->ok, cd->load, (void *)3);
      for (size_t u = 0; u < cd->closure.n; u++)
        lt_map_put(&o->late, cd->closure.v[u], (void *)1);
      LtVec *lists = lt_xcalloc(1, sizeof *lists);
      for (unsigned wc = 0; wc < x->w.n; wc++)
        if (bit_has(cd->wcs, wc))
          lt_vec_push(lists, kept_members(o, x, wc));
      lt_map_put(&o->cand, cd->load, lists);
      lt_vec_push(&o->owned, lists);
    }
    lt_vec_free(&cd->closure);
    free(cd->wcs);
    free(cd);
  }
  lt_vec_free(&x->cands);
  o->runtime = runtime;
}
