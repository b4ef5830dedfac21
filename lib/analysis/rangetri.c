/* rangetri.c: address bounds over triangular nests, tighter than
 * range.c's sums of intervals.
 *
 * The hull of y[k - i - 1] for 0 <= i < k < n is not the sum of the
 * counters' intervals, [-(n - 2), n - 1], but [0, n - 2] (PolyBench's
 * durbin: the loose hull of y met r's, and its gradient ran the version
 * for pointers that may overlap, taping r). bound() takes the address's
 * affine form in the iteration numbers of the loops around the access and
 * removes them innermost first, each at the end of its range that gives
 * the extreme (dir < 0: the least value): t = 0, or t = its last
 * iteration, an affine form in the loops around it (from the trip's start
 * and bound, steps of 1) that the next removals bound in turn. That last
 * iteration, 1 + dist - back, is the loop's only where dist >= 0 (else the
 * guard before a loop skips it, but a do-while runs once): *cond gathers
 * "dist's least value >= 0", and the caller keeps the intervals' bound
 * where it fails.
 */
#include "range.h"

static int bound(Em *e, const LtAffine *a0, int dir, unsigned depth, LLVMValueRef *out,
                 LLVMValueRef *cond);

/* The last iteration number of loop l the access sees, affine in the
 * loops around l, and the distance whose sign says the form holds. */
static int last_iter(Em *e, unsigned l, LtAffine *last, LtAffine *dist) {
  const LtFacts *g = e->g;
  const LtTrip *t = &g->ind->trip[l];
  LLVMIntPredicate p = t->pred;
  int up = t->step == 1, strict = p == LLVMIntSLT || p == LLVMIntULT || p == LLVMIntSGT ||
                                  p == LLVMIntUGT || p == LLVMIntNE;
  if (!t->known || t->vstep || (t->step != 1 && t->step != -1) ||
      (up ? p != LLVMIntSLT && p != LLVMIntULT && p != LLVMIntSLE && p != LLVMIntULE &&
                p != LLVMIntNE
          : p != LLVMIntSGT && p != LLVMIntUGT && p != LLVMIntSGE && p != LLVMIntUGE &&
                p != LLVMIntNE))
    return 0;
  int par = g->loops->loop[l].parent;
  LtAffine s, bd;
  if (lt_affine_of(g->ind, g->c->td, t->start, par, &s))
    return 0;
  if (lt_affine_of(g->ind, g->c->td, t->bound, par, &bd)) {
    lt_affine_free(&s);
    return 0;
  }
  /* first = start + step * on_next; dist = +-(bound - first), one more
   * where the bound is inclusive; header executions 1 + dist */
  *dist = (LtAffine){0};
  lt_affine_axpy(dist, up ? 1 : -1, &bd);
  lt_affine_axpy(dist, up ? -1 : 1, &s);
  dist->off += !strict - t->on_next;
  const LtLoop *lp = &g->loops->loop[l];
  long long back =
      lp->nexiting == 1 && lp->exiting[0] == lp->header && e->at != (int)lp->header ? 2 : 1;
  *last = (LtAffine){0};
  lt_affine_axpy(last, 1, dist);
  last->off += 1 - back;
  lt_affine_free(&s);
  lt_affine_free(&bd);
  return 1;
}

static int bound(Em *e, const LtAffine *a0, int dir, unsigned depth, LLVMValueRef *out,
                 LLVMValueRef *cond) {
  const LtLoops *ls = e->g->loops;
  LtAffine a = {0};
  lt_affine_axpy(&a, 1, a0);
  LLVMValueRef acc = k64(e, 0);
  int ok = depth < 16;
  while (ok) {
    int at = -1;
    for (unsigned i = 0; i < a.nterm; i++)
      if (a.coef[i] && (at < 0 || ls->loop[a.loop[i]].depth > ls->loop[a.loop[at]].depth))
        at = (int)i;
    if (at < 0)
      break;
    unsigned l = a.loop[at];
    long long c = a.coef[at];
    a.coef[at] = 0;
    if ((c > 0) == (dir < 0))
      continue; /* t = 0 */
    LtAffine last, dist;
    if (last_iter(e, l, &last, &dist)) {
      LLVMValueRef d;
      ok = bound(e, &dist, -1, depth + 1, &d, cond);
      if (ok && !(LLVMIsAConstantInt(d) && LLVMConstIntGetSExtValue(d) >= 0)) {
        LLVMValueRef h = LLVMBuildICmp(e->b, LLVMIntSGE, d, k64(e, 0), "");
        *cond = *cond ? LLVMBuildAnd(e->b, *cond, h, "") : h;
      }
      lt_affine_axpy(&a, c, &last);
      lt_affine_free(&last);
      lt_affine_free(&dist);
    } else { /* the interval of its iteration numbers */
      const LtLoop *lp = &ls->loop[l];
      LLVMValueRef n = trip_max(e, l, depth);
      long long back =
          lp->nexiting == 1 && lp->exiting[0] == lp->header && e->at != (int)lp->header ? 2 : 1;
      ok = n != NULL;
      if (ok)
        acc = add(e, acc, mul(e, sub(e, n, k64(e, back)), k64(e, c)));
    }
  }
  for (unsigned i = 0; ok && i < a.ninv; i++) {
    Iv v;
    long long c = a.icoef[i];
    ok = iv_of(e, a.inv[i], depth + 1, &v);
    if (ok && c)
      acc = add(e, acc, mul(e, (c > 0) == (dir < 0) ? v.lo : v.hi, k64(e, c)));
  }
  *out = add(e, acc, k64(e, a.off));
  lt_affine_free(&a);
  return ok;
}

/* r, the intervals' hull of addr, made tighter where addr is affine in
 * the counters of the loops around the access (emitting only). */
void lt_rng_tighten(Em *e, LLVMValueRef addr, Iv *r) {
  const LtFacts *g = e->g;
  int scope = lt_loop_of(g->loops, (unsigned)e->at);
  LtAffine a;
  if (!e->b || scope < 0 || lt_affine_of(g->ind, g->c->td, addr, scope, &a))
    return;
  LLVMValueRef lo, hi, cond = NULL;
  int tri = 0;
  for (unsigned i = 0; i < a.nterm && tri >= 0; i++) { /* a loop whose range moves */
    LtAffine last, dist;
    LLVMValueRef lb, ub;
    const LtTrip *t = &g->ind->trip[a.loop[i]];
    if (e->team && t->known && lt_omp_worksharing_bounds(t->start, &lb, &ub))
      tri = -1; /* a thread's share: range.c's ws_counter spans the team's */
    else if (a.coef[i] && last_iter(e, a.loop[i], &last, &dist)) {
      for (unsigned k = 0; k < dist.nterm; k++)
        tri |= dist.coef[k] != 0;
      lt_affine_free(&last);
      lt_affine_free(&dist);
    }
  }
  if (tri > 0 && bound(e, &a, -1, 0, &lo, &cond) && bound(e, &a, 1, 0, &hi, &cond)) {
    r->lo = cond ? LLVMBuildSelect(e->b, cond, lo, r->lo, "") : lo;
    r->hi = cond ? LLVMBuildSelect(e->b, cond, hi, r->hi, "") : hi;
  }
  lt_affine_free(&a);
}

