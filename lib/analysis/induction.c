/* induction.c: loop counters and trip counts.
 *
 * A counter of loop L is an integer header PHI whose outside incoming value
 * is invariant in L and whose inside incoming value is the PHI plus or minus
 * a constant: PHI = start + step * {L}, {L} being L's iteration number
 * (0, 1, ...). The trip count (header executions) comes from the single
 * exit test `icmp counter-or-next, invariant` in the header or the latch.
 * Affine forms over the counters are affine.c's.
 */
#include "lt.h"

#include <stdlib.h>

/* Counters */

int lt_induction_def_block(const LtCfg *g, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return -1;
  return lt_cfg_id(g, LLVMGetInstructionParent(v));
}

/* Invariant in loop l: a constant, an argument, or defined outside l. */
int lt_induction_invariant(const LtLoops *ls, unsigned l, LLVMValueRef v) {
  if (LLVMIsAConstant(v) || LLVMIsAArgument(v))
    return 1;
  int b = lt_induction_def_block(ls->g, v);
  return b >= 0 && !lt_loop_contains(ls, l, (unsigned)b);
}

int lt_induction_const_int(LLVMValueRef v, long long *out) {
  if (!LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
    return 0;
  *out = LLVMConstIntGetSExtValue(v);
  return 1;
}

/* next = phi + c, c + phi, or phi - c: the step, else 0. */
static int step_of(LLVMValueRef phi, LLVMValueRef next, long long *step) {
  if (!LLVMIsABinaryOperator(next))
    return 0;
  LLVMOpcode op = LLVMGetInstructionOpcode(next);
  LLVMValueRef a = LLVMGetOperand(next, 0), b = LLVMGetOperand(next, 1);
  long long c;
  if (op == LLVMAdd && a == phi && lt_induction_const_int(b, &c))
    *step = c;
  else if (op == LLVMAdd && b == phi && lt_induction_const_int(a, &c))
    *step = c;
  else if (op == LLVMSub && a == phi && lt_induction_const_int(b, &c))
    *step = -c;
  else
    return 0;
  return *step != 0;
}

/* The step of next = phi + step: a constant (*step), an invariant value
 * (*vstep, *step 0: counts trips, is not affine), or a PHI merging the
 * same increment made on two paths (-O2 sinks t += b into both arms). */
static int step_any(const LtLoops *ls, unsigned l, LLVMValueRef phi,
                    LLVMValueRef next, long long *step, LLVMValueRef *vstep) {
  *vstep = NULL;
  if (step_of(phi, next, step))
    return 1;
  if (LLVMIsAPHINode(next)) {
    long long st0 = 0;
    LLVMValueRef vs0 = NULL;
    unsigned n = LLVMCountIncoming(next);
    for (unsigned i = 0; i < n; i++) {
      long long st;
      LLVMValueRef vs, v = LLVMGetIncomingValue(next, i);
      if (LLVMIsAPHINode(v) || !step_any(ls, l, phi, v, &st, &vs) ||
          (i && (st != st0 || vs != vs0)))
        return 0;
      st0 = st;
      vs0 = vs;
    }
    *step = st0;
    *vstep = vs0;
    return n > 0;
  }
  if (!LLVMIsABinaryOperator(next) || LLVMGetInstructionOpcode(next) != LLVMAdd)
    return 0;
  LLVMValueRef a = LLVMGetOperand(next, 0), b = LLVMGetOperand(next, 1);
  LLVMValueRef s = a == phi ? b : b == phi ? a : NULL;
  if (!s || LLVMIsAConstant(s) || !lt_induction_invariant(ls, l, s))
    return 0;
  *step = 0;
  *vstep = s;
  return 1;
}

static int counter_of(const LtLoops *ls, unsigned l, LLVMValueRef phi,
                      LtCounter *ct) {
  if (LLVMGetTypeKind(LLVMTypeOf(phi)) != LLVMIntegerTypeKind)
    return 0;
  LLVMValueRef start = NULL, next = NULL;
  for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
    LLVMValueRef v = LLVMGetIncomingValue(phi, i);
    int b = lt_cfg_id(ls->g, LLVMGetIncomingBlock(phi, i));
    if (b < 0)
      continue;
    LLVMValueRef *slot = lt_loop_contains(ls, l, (unsigned)b) ? &next : &start;
    if (*slot && *slot != v)
      return 0;
    *slot = v;
  }
  if (!start || !next || !lt_induction_invariant(ls, l, start))
    return 0;
  if (!step_any(ls, l, phi, next, &ct->step, &ct->vstep))
    return 0;
  ct->phi = phi;
  ct->next = next;
  ct->start = start;
  return 1;
}

/* Trip counts */

static LLVMIntPredicate swapped(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntSLT: return LLVMIntSGT;
  case LLVMIntSGT: return LLVMIntSLT;
  case LLVMIntSLE: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLE;
  case LLVMIntULT: return LLVMIntUGT;
  case LLVMIntUGT: return LLVMIntULT;
  case LLVMIntULE: return LLVMIntUGE;
  case LLVMIntUGE: return LLVMIntULE;
  default: return p; /* eq, ne */
  }
}

static LLVMIntPredicate inverse(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntEQ: return LLVMIntNE;
  case LLVMIntNE: return LLVMIntEQ;
  case LLVMIntSLT: return LLVMIntSGE;
  case LLVMIntSGE: return LLVMIntSLT;
  case LLVMIntSGT: return LLVMIntSLE;
  case LLVMIntSLE: return LLVMIntSGT;
  case LLVMIntULT: return LLVMIntUGE;
  case LLVMIntUGE: return LLVMIntULT;
  case LLVMIntUGT: return LLVMIntULE;
  default: return LLVMIntUGT; /* ule */
  }
}

/* Does the continue-while predicate move towards termination? */
static int terminates(LLVMIntPredicate p, long long step) {
  switch (p) {
  case LLVMIntNE: return 1;
  case LLVMIntSLT: case LLVMIntSLE: case LLVMIntULT: case LLVMIntULE:
    return step > 0;
  case LLVMIntSGT: case LLVMIntSGE: case LLVMIntUGT: case LLVMIntUGE:
    return step < 0;
  default: return 0;
  }
}

/* The single exiting block must be the header or the latch and end in
 * `br (icmp X, Y)` where one side is a counter or its next value and the
 * other is invariant. */
static void trip_of(LtInduction *ind, unsigned l) {
  const LtLoops *ls = ind->ls;
  const LtLoop *L = &ls->loop[l];
  LtTrip *t = &ind->trip[l];
  if (L->nexiting != 1 || (L->exiting[0] != L->header &&
                           (int)L->exiting[0] != L->latch))
    return;
  LLVMValueRef br = LLVMGetBasicBlockTerminator(ls->g->block[L->exiting[0]]);
  if (!LLVMIsABranchInst(br) || !LLVMIsConditional(br))
    return;
  LLVMValueRef cmp = LLVMGetCondition(br);
  if (!LLVMIsAICmpInst(cmp))
    return;
  int t_in = lt_loop_contains(ls, l, (unsigned)lt_cfg_id(
                 ls->g, LLVMGetSuccessor(br, 0)));
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cmp);
  for (int side = 0; side < 2; side++) {
    LLVMValueRef x = LLVMGetOperand(cmp, (unsigned)side);
    LLVMValueRef y = LLVMGetOperand(cmp, (unsigned)!side);
    if (!lt_induction_invariant(ls, l, y))
      continue;
    /* -O2's widened counters test trunc(next) == n (LFTR): the counter
     * does not wrap (it was widened from a counter that did not), so the
     * test is next == n in the wide type (lt_trip_emit extends n) */
    if (LLVMIsATruncInst(x) && (pred == LLVMIntEQ || pred == LLVMIntNE))
      x = LLVMGetOperand(x, 0);
    for (unsigned k = 0; k < ind->nctr[l]; k++) {
      const LtCounter *ct = &ind->ctr[l][k];
      if (x != ct->phi && x != ct->next)
        continue;
      LLVMIntPredicate p = side ? swapped(pred) : pred;
      p = t_in ? p : inverse(p);
      long long step = ct->step;
      if (ct->vstep) /* the loop only ends if the step goes its way */
        step = p == LLVMIntSLT || p == LLVMIntSLE || p == LLVMIntULT || p == LLVMIntULE ? 1
               : p == LLVMIntSGT || p == LLVMIntSGE || p == LLVMIntUGT || p == LLVMIntUGE ? -1
                                                                                        : 0;
      if (!step || !terminates(p, step))
        return;
      *t = (LtTrip){1, cmp, k, x == ct->next, p, ct->start, y, step, ct->vstep};
      return;
    }
  }
}

void lt_induction_build(LtInduction *ind, const LtLoops *ls) {
  ind->ls = ls;
  ind->ctr = lt_xcalloc(ls->nloops, sizeof *ind->ctr);
  ind->nctr = lt_xcalloc(ls->nloops, sizeof *ind->nctr);
  ind->trip = lt_xcalloc(ls->nloops, sizeof *ind->trip);
  for (unsigned l = 0; l < ls->nloops; l++) {
    LLVMBasicBlockRef h = ls->g->block[ls->loop[l].header];
    unsigned nphi = 0;
    for (LLVMValueRef i = LLVMGetFirstInstruction(h); i && LLVMIsAPHINode(i);
         i = LLVMGetNextInstruction(i))
      nphi++;
    ind->ctr[l] = lt_xcalloc(nphi, sizeof **ind->ctr);
    for (LLVMValueRef i = LLVMGetFirstInstruction(h); i && LLVMIsAPHINode(i);
         i = LLVMGetNextInstruction(i))
      if (counter_of(ls, l, i, &ind->ctr[l][ind->nctr[l]]))
        ind->nctr[l]++;
    /* constant steps first: ctr[l][0] is an affine counter when there is one */
    for (unsigned a = 0, z = 0; a < ind->nctr[l]; a++)
      if (ind->ctr[l][a].step) {
        LtCounter t = ind->ctr[l][a];
        for (unsigned q = a; q > z; q--)
          ind->ctr[l][q] = ind->ctr[l][q - 1];
        ind->ctr[l][z++] = t;
      }
    trip_of(ind, l);
  }
}

void lt_induction_free(LtInduction *ind) {
  for (unsigned l = 0; l < ind->ls->nloops; l++)
    free(ind->ctr[l]);
  free(ind->ctr);
  free(ind->nctr);
  free(ind->trip);
}

static int is_zero(LLVMValueRef v) {
  long long c;
  return lt_induction_const_int(v, &c) && c == 0;
}

/* i64 number of header executions: 1 + N, where N counts the k >= 0 with
 * start + step*(k + on_next) <pred> bound, for a monotone counter:
 *   N = ceil(max(dist, 0) / |step|), dist = bound - first (+1 if inclusive),
 * reversed for a decreasing counter; for ne, N = dist / step. */
LLVMValueRef lt_trip_emit(LLVMBuilderRef b, const LtTrip *t) {
  LLVMContextRef cx = LLVMGetTypeContext(LLVMTypeOf(t->bound));
  LLVMTypeRef i64 = LLVMInt64TypeInContext(cx);
  int is_unsigned = t->pred == LLVMIntULT || t->pred == LLVMIntULE ||
                    t->pred == LLVMIntUGT || t->pred == LLVMIntUGE;
  int inclusive = t->pred == LLVMIntSLE || t->pred == LLVMIntULE ||
                  t->pred == LLVMIntSGE || t->pred == LLVMIntUGE;
  LLVMValueRef (*ext)(LLVMBuilderRef, LLVMValueRef, LLVMTypeRef, const char *) =
      is_unsigned ? LLVMBuildZExt : LLVMBuildSExt;
  LLVMValueRef s = LLVMTypeOf(t->start) == i64 ? t->start
                                               : ext(b, t->start, i64, "lt.start");
  LLVMValueRef n = LLVMTypeOf(t->bound) == i64 ? t->bound
                                               : ext(b, t->bound, i64, "lt.bound");
  long long step = t->step, mag = step < 0 ? -step : step;
  /* an invariant step: its magnitude, with the sign the predicate needs */
  LLVMValueRef vs = t->vstep ? (LLVMTypeOf(t->vstep) == i64
                                    ? t->vstep
                                    : LLVMBuildSExt(b, t->vstep, i64, "lt.step"))
                             : NULL;
  LLVMValueRef vmag = vs && step < 0 ? LLVMBuildNeg(b, vs, "lt.mag") : vs;
  LLVMValueRef first =
      t->on_next ? LLVMBuildAdd(b, s, vs ? vs : LLVMConstInt(i64, (unsigned long long)step, 1),
                                "lt.first")
                 : s;
  LLVMValueRef dist;
  if (step > 0)
    dist = is_zero(first) ? n : LLVMBuildSub(b, n, first, "lt.dist");
  else
    dist = is_zero(n) ? first : LLVMBuildSub(b, first, n, "lt.dist");
  if (inclusive)
    dist = LLVMBuildAdd(b, dist, LLVMConstInt(i64, 1, 0), "lt.dist.incl");
  LLVMValueRef zero = LLVMConstInt(i64, 0, 0), cnt;
  if (t->pred == LLVMIntNE) {
    cnt = mag == 1 ? dist
                   : LLVMBuildSDiv(b, dist, LLVMConstInt(i64, (unsigned long long)mag, 0),
                                   "lt.div");
  } else if (vmag) {
    cnt = LLVMBuildAdd(b, dist, LLVMBuildSub(b, vmag, LLVMConstInt(i64, 1, 0), ""), "lt.round");
    cnt = LLVMBuildSDiv(b, cnt, vmag, "lt.div");
  } else {
    cnt = dist;
    if (mag != 1) {
      cnt = LLVMBuildAdd(b, cnt, LLVMConstInt(i64, (unsigned long long)(mag - 1), 0),
                         "lt.round");
      cnt = LLVMBuildSDiv(b, cnt, LLVMConstInt(i64, (unsigned long long)mag, 0),
                          "lt.div");
    }
  }
  LLVMValueRef pos = LLVMBuildICmp(b, LLVMIntSGT, cnt, zero, "lt.pos");
  cnt = LLVMBuildSelect(b, pos, cnt, zero, "lt.iters");
  return LLVMBuildAdd(b, cnt, LLVMConstInt(i64, 1, 0), "lt.trip");
}
