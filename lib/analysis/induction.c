/* induction.c: loop counters, affine forms and trip counts.
 *
 * A counter of loop L is an integer header PHI whose outside incoming value
 * is invariant in L and whose inside incoming value is the PHI plus or minus
 * a constant: PHI = start + step * {L}, {L} being L's iteration number
 * (0, 1, ...). Affine forms off + sum c*{L} + sum c*v are built bottom-up
 * through add, sub, `or disjoint`, mul/shl by a constant, sext/zext and GEP
 * byte offsets; like SCEV with nsw, they assume integer arithmetic does not
 * wrap. The trip count (header executions) comes from the single exit test
 * `icmp counter-or-next, invariant` in the header or the latch.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>

/* Counters */

static int def_block(const LtCfg *g, LLVMValueRef v) {
  if (!LLVMIsAInstruction(v))
    return -1;
  return lt_cfg_id(g, LLVMGetInstructionParent(v));
}

/* Invariant in loop l: a constant, an argument, or defined outside l. */
static int invariant(const LtLoops *ls, unsigned l, LLVMValueRef v) {
  if (LLVMIsAConstant(v) || LLVMIsAArgument(v))
    return 1;
  int b = def_block(ls->g, v);
  return b >= 0 && !lt_loop_contains(ls, l, (unsigned)b);
}

static int const_int(LLVMValueRef v, long long *out) {
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
  if (op == LLVMAdd && a == phi && const_int(b, &c))
    *step = c;
  else if (op == LLVMAdd && b == phi && const_int(a, &c))
    *step = c;
  else if (op == LLVMSub && a == phi && const_int(b, &c))
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
  if (!s || LLVMIsAConstant(s) || !invariant(ls, l, s))
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
  if (!start || !next || !invariant(ls, l, start))
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
    if (!invariant(ls, l, y))
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
  return const_int(v, &c) && c == 0;
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

/* Affine forms */

void lt_affine_free(LtAffine *a) {
  free(a->loop);
  free(a->coef);
  free(a->inv);
  free(a->icoef);
  *a = (LtAffine){0};
}

static void add_term(LtAffine *a, unsigned l, long long c) {
  for (unsigned i = 0; i < a->nterm; i++)
    if (a->loop[i] == l) {
      a->coef[i] += c;
      return;
    }
  a->loop = realloc(a->loop, (a->nterm + 1) * sizeof *a->loop);
  a->coef = realloc(a->coef, (a->nterm + 1) * sizeof *a->coef);
  if (!a->loop || !a->coef) {
    fputs("leantape: out of memory\n", stderr);
    abort();
  }
  a->loop[a->nterm] = l;
  a->coef[a->nterm++] = c;
}

static void add_inv(LtAffine *a, LLVMValueRef v, long long c) {
  for (unsigned i = 0; i < a->ninv; i++)
    if (a->inv[i] == v) {
      a->icoef[i] += c;
      return;
    }
  a->inv = realloc(a->inv, (a->ninv + 1) * sizeof *a->inv);
  a->icoef = realloc(a->icoef, (a->ninv + 1) * sizeof *a->icoef);
  if (!a->inv || !a->icoef) {
    fputs("leantape: out of memory\n", stderr);
    abort();
  }
  a->inv[a->ninv] = v;
  a->icoef[a->ninv++] = c;
}

/* a += k * b */
void lt_affine_axpy(LtAffine *a, long long k, const LtAffine *b) {
  a->off += k * b->off;
  for (unsigned i = 0; i < b->nterm; i++)
    add_term(a, b->loop[i], k * b->coef[i]);
  for (unsigned i = 0; i < b->ninv; i++)
    add_inv(a, b->inv[i], k * b->icoef[i]);
}

typedef struct Walk {
  const LtInduction *ind;
  LLVMTargetDataRef td;
  int scope;
  int run; /* leaves may be computed inside scope, from values outside it */
} Walk;

static int invariant_value(const LtInduction *ind, unsigned l, LLVMValueRef v, unsigned depth);

static int affine(const Walk *w, LLVMValueRef v, long long k, LtAffine *a,
                  unsigned depth);

/* k * (x op y) for add/sub/mul/shl. */
static int binop(const Walk *w, LLVMValueRef v, long long k, LtAffine *a,
                 unsigned depth) {
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  LLVMValueRef x = LLVMGetOperand(v, 0), y = LLVMGetOperand(v, 1);
  long long c;
  switch (op) {
  case LLVMOr: /* `or disjoint` is an add without carries */
    if (!LLVMGetIsDisjoint(v))
      return 0;
    return affine(w, x, k, a, depth) && affine(w, y, k, a, depth);
  case LLVMAdd:
    return affine(w, x, k, a, depth) && affine(w, y, k, a, depth);
  case LLVMSub:
    return affine(w, x, k, a, depth) && affine(w, y, -k, a, depth);
  case LLVMMul:
    if (const_int(y, &c))
      return affine(w, x, k * c, a, depth);
    if (const_int(x, &c))
      return affine(w, y, k * c, a, depth);
    return 0;
  case LLVMShl:
    if (const_int(y, &c) && c >= 0 && c < 62)
      return affine(w, x, k * (1LL << c), a, depth);
    return 0;
  default:
    return 0;
  }
}

/* k * (byte offset of gep from its base) + k * base. */
static int gep(const Walk *w, LLVMValueRef v, long long k, LtAffine *a,
               unsigned depth) {
  LLVMTypeRef ty = LLVMGetGEPSourceElementType(v);
  unsigned n = (unsigned)LLVMGetNumOperands(v);
  if (!affine(w, LLVMGetOperand(v, 0), k, a, depth))
    return 0;
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(v, i);
    if (i > 1 && LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
      long long f;
      if (!const_int(idx, &f))
        return 0;
      a->off += k * (long long)LLVMOffsetOfElement(w->td, ty, (unsigned)f);
      ty = LLVMStructGetTypeAtIndex(ty, (unsigned)f);
      continue;
    }
    if (i > 1) {
      if (LLVMGetTypeKind(ty) != LLVMArrayTypeKind)
        return 0; /* vector GEPs */
      ty = LLVMGetElementType(ty);
    }
    if (!affine(w, idx, k * (long long)LLVMABISizeOfType(w->td, ty), a, depth))
      return 0;
  }
  return 1;
}

/* A value left whole: only if it does not vary inside the scope. */
static int leaf(const Walk *w, LLVMValueRef v, long long k, LtAffine *a) {
  const LtLoops *ls = w->ind->ls;
  if (w->scope >= 0 && !invariant(ls, (unsigned)w->scope, v) &&
      !(w->run && invariant_value(w->ind, (unsigned)w->scope, v, 0)))
    return 0;
  if (LLVMIsAInstruction(v) && def_block(ls->g, v) < 0)
    return 0;
  add_inv(a, v, k);
  return 1;
}

static int affine(const Walk *w, LLVMValueRef v, long long k, LtAffine *a,
                  unsigned depth) {
  long long c;
  if (const_int(v, &c)) {
    a->off += k * c;
    return 1;
  }
  if (depth > 64 || !LLVMIsAInstruction(v))
    return leaf(w, v, k, a);
  const LtLoops *ls = w->ind->ls;
  LLVMValueRef same = lt_loop_phi_same(ls, v);
  if (same)
    return affine(w, same, k, a, depth + 1); /* LCSSA */
  if (LLVMIsAPHINode(v)) {
    int b = def_block(ls->g, v), l = b >= 0 ? lt_loop_of(ls, (unsigned)b) : -1;
    /* A counter of a loop around the scope; any other PHI is a leaf. */
    if (l >= 0 && ls->loop[l].header == (unsigned)b &&
        lt_loop_encloses(ls, (unsigned)l, w->scope))
      for (unsigned i = 0; i < w->ind->nctr[l]; i++) {
        const LtCounter *ct = &w->ind->ctr[l][i];
        if (ct->phi != v || !ct->step)
          continue;
        add_term(a, (unsigned)l, k * ct->step);
        return affine(w, ct->start, k, a, depth + 1);
      }
    return leaf(w, v, k, a);
  }
  LtAffine tmp = {0};
  int ok;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMOr:
    ok = binop(w, v, 1, &tmp, depth + 1);
    break;
  case LLVMSExt: case LLVMZExt:
    ok = affine(w, LLVMGetOperand(v, 0), 1, &tmp, depth + 1);
    break;
  case LLVMGetElementPtr:
    ok = gep(w, v, 1, &tmp, depth + 1);
    break;
  case LLVMXor: /* xor x, -1 is -x - 1 (InstCombine's form of k - i - 1) */
    ok = const_int(LLVMGetOperand(v, 1), &c) && c == -1 &&
         affine(w, LLVMGetOperand(v, 0), -1, &tmp, depth + 1);
    tmp.off -= 1;
    break;
  default:
    ok = 0;
  }
  if (ok)
    lt_affine_axpy(a, k, &tmp);
  lt_affine_free(&tmp);
  return ok || leaf(w, v, k, a);
}

int lt_affine_of(const LtInduction *ind, LLVMTargetDataRef td, LLVMValueRef v,
                 int scope, LtAffine *out) {
  Walk w = {ind, td, scope, 0};
  *out = (LtAffine){0};
  if (affine(&w, v, 1, out, 0))
    return 0;
  lt_affine_free(out);
  return -1;
}

int lt_affine_same_terms(const LtAffine *a, const LtAffine *b) {
  if (a->nterm != b->nterm || a->ninv != b->ninv)
    return 0;
  for (unsigned i = 0; i < a->nterm; i++)
    if (lt_affine_coef(b, a->loop[i]) != a->coef[i])
      return 0;
  for (unsigned i = 0; i < a->ninv; i++) {
    unsigned j = 0;
    while (j < b->ninv && (b->inv[j] != a->inv[i] || b->icoef[j] != a->icoef[i]))
      j++;
    if (j == b->ninv)
      return 0;
  }
  return 1;
}

long long lt_affine_coef(const LtAffine *a, unsigned loop) {
  for (unsigned i = 0; i < a->nterm; i++)
    if (a->loop[i] == loop)
      return a->coef[i];
  return 0;
}

int lt_affine_of_run(const LtInduction *ind, LLVMTargetDataRef td, LLVMValueRef v,
                     unsigned scope, LtAffine *out) {
  Walk w = {ind, td, (int)scope, 1};
  *out = (LtAffine){0};
  if (affine(&w, v, 1, out, 0))
    return 0;
  lt_affine_free(out);
  return -1;
}

/* Values a run of a loop sees: invariant ones, and linear ones. */

int lt_run_op(LLVMOpcode op) {
  switch (op) {
  case LLVMGetElementPtr: case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl:
  case LLVMOr: case LLVMSExt: case LLVMZExt: case LLVMTrunc: case LLVMBitCast:
    return 1;
  default:
    return 0;
  }
}

static int invariant_value(const LtInduction *ind, unsigned l, LLVMValueRef v, unsigned depth) {
  if (invariant(ind->ls, l, v))
    return 1;
  if (depth > 32 || !LLVMIsAInstruction(v) || LLVMIsAPHINode(v) ||
      !lt_run_op(LLVMGetInstructionOpcode(v)))
    return 0;
  for (int k = 0, n = LLVMGetNumOperands(v); k < n; k++)
    if (!invariant_value(ind, l, LLVMGetOperand(v, k), depth + 1))
      return 0;
  return 1;
}

int lt_invariant_value(const LtInduction *ind, unsigned l, LLVMValueRef v) {
  return invariant_value(ind, l, v, 0);
}

static int linear(const LtInduction *ind, unsigned l, LLVMValueRef v, unsigned depth) {
  if (invariant_value(ind, l, v, depth))
    return 1;
  if (depth > 32 || !LLVMIsAInstruction(v))
    return 0;
  if (LLVMIsAPHINode(v)) {
    for (unsigned k = 0; k < ind->nctr[l]; k++)
      if (ind->ctr[l][k].phi == v && ind->ctr[l][k].step)
        return 1;
    return 0;
  }
  LLVMValueRef x = LLVMGetNumOperands(v) > 0 ? LLVMGetOperand(v, 0) : NULL;
  LLVMValueRef y = LLVMGetNumOperands(v) > 1 ? LLVMGetOperand(v, 1) : NULL;
  long long c;
  switch (LLVMGetInstructionOpcode(v)) {
  case LLVMOr:
    if (!LLVMGetIsDisjoint(v))
      return 0;
    /* fall through */
  case LLVMAdd: case LLVMSub:
    return linear(ind, l, x, depth + 1) && linear(ind, l, y, depth + 1);
  case LLVMMul:
    return (invariant_value(ind, l, x, depth + 1) && linear(ind, l, y, depth + 1)) ||
           (invariant_value(ind, l, y, depth + 1) && linear(ind, l, x, depth + 1));
  case LLVMShl:
    return const_int(y, &c) && linear(ind, l, x, depth + 1);
  case LLVMSExt: case LLVMZExt: case LLVMTrunc:
    return linear(ind, l, x, depth + 1);
  case LLVMGetElementPtr:
    for (int k = 0, n = LLVMGetNumOperands(v); k < n; k++)
      if (!linear(ind, l, LLVMGetOperand(v, k), depth + 1))
        return 0;
    return LLVMGetTypeKind(LLVMTypeOf(v)) != LLVMVectorTypeKind;
  default:
    return 0;
  }
}

int lt_linear_in(const LtInduction *ind, unsigned l, LLVMValueRef v) {
  return linear(ind, l, v, 0);
}

int lt_affine_step(const LtInduction *ind, LLVMTargetDataRef td, LLVMValueRef v, unsigned l,
                   long long *step) {
  LtAffine a;
  if (lt_affine_of(ind, td, v, (int)l, &a))
    return 0;
  long long c = 0;
  for (unsigned k = 0; k < a.nterm; k++)
    if (a.loop[k] == l)
      c += a.coef[k];
  lt_affine_free(&a);
  *step = c;
  return 1;
}
