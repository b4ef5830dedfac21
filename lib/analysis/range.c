/* range.c: the bytes an access may touch over a whole run of the function,
 * as an interval computable when the function starts.
 *
 * Interval arithmetic over the address: arguments and constants are
 * points; a loop counter start + step * k spans k from 0 to its last
 * iteration (its trip count less 1, or less 2 in the body of a loop that
 * exits from its header), with the trip count bounded from the extremes
 * of its start and bound (triangular nests); sums, differences, products
 * (A[i * n + k]), shifts, extensions and GEPs combine intervals. An access
 * at p of s bytes covers [min p, max p + s). Used to decide at run time
 * that logged stores cannot touch what re-read loads read (undo.c then
 * logs nothing): a run-time disjointness test, as LLVM's loop versioning
 * does for vectorised loops. The same walk checks computability (b ==
 * NULL) and emits the bounds in A's entry (signed i64 arithmetic; indices
 * are assumed not to wrap, as C's signed indices do not). Where a loop's
 * range moves with an outer counter (a triangular nest), rangetri.c
 * bounds the address over the triangle instead.
 */
#include "lt.h"

#include <string.h>

#include "range.h"

#define DRY ((LLVMValueRef)1)

static int param_index(const LtFacts *g, LLVMValueRef arg) {
  for (unsigned p = 0; p < g->nparams; p++)
    if (LLVMGetParam(g->P, p) == arg)
      return (int)p;
  return -1;
}

LLVMValueRef lt_rng_k64(Em *e, long long v) {
  return e->b ? LLVMConstInt(e->g->c->i64, (unsigned long long)v, 1) : DRY;
}

LLVMValueRef lt_rng_add(Em *e, LLVMValueRef x, LLVMValueRef y) {
  return e->b ? LLVMBuildAdd(e->b, x, y, "") : DRY;
}

LLVMValueRef lt_rng_sub(Em *e, LLVMValueRef x, LLVMValueRef y) {
  return e->b ? LLVMBuildSub(e->b, x, y, "") : DRY;
}

LLVMValueRef lt_rng_mul(Em *e, LLVMValueRef x, LLVMValueRef y) {
  return e->b ? LLVMBuildMul(e->b, x, y, "") : DRY;
}

static LLVMValueRef pick(Em *e, LLVMIntPredicate p, LLVMValueRef x, LLVMValueRef y) {
  return e->b ? LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, p, x, y, ""), x, y, "") : DRY;
}

static Iv point(LLVMValueRef v) { return (Iv){v, v}; }

static Iv iv_add(Em *e, Iv x, Iv y) { return (Iv){add(e, x.lo, y.lo), add(e, x.hi, y.hi)}; }
static Iv iv_sub(Em *e, Iv x, Iv y) { return (Iv){sub(e, x.lo, y.hi), sub(e, x.hi, y.lo)}; }

static Iv iv_scale(Em *e, Iv x, long long c) {
  LLVMValueRef a = mul(e, x.lo, k64(e, c)), b = mul(e, x.hi, k64(e, c));
  return c >= 0 ? (Iv){a, b} : (Iv){b, a};
}

static Iv iv_mul(Em *e, Iv x, Iv y) {
  LLVMValueRef p[4] = {mul(e, x.lo, y.lo), mul(e, x.lo, y.hi), mul(e, x.hi, y.lo),
                       mul(e, x.hi, y.hi)};
  LLVMValueRef lo = p[0], hi = p[0];
  for (int k = 1; k < 4; k++) {
    lo = pick(e, LLVMIntSLT, p[k], lo);
    hi = pick(e, LLVMIntSGT, p[k], hi);
  }
  return (Iv){lo, hi};
}

static int as_const(LLVMValueRef v, long long *c) {
  if (!LLVMIsAConstantInt(v) || LLVMGetIntTypeWidth(LLVMTypeOf(v)) > 64)
    return 0;
  *c = LLVMConstIntGetSExtValue(v);
  return 1;
}


/* The number of header executions of loop l, at most, at A's entry. */
LLVMValueRef lt_rng_trip_max(Em *e, unsigned l, unsigned depth) {
  const LtTrip *t = &e->g->ind->trip[l];
  if (!t->known || depth > 32)
    return NULL;
  int up = t->step > 0;
  LtTrip m = *t;
  if (m.pred == LLVMIntNE)
    m.pred = up ? LLVMIntSLT : LLVMIntSGT;
  Iv s, bd, st;
  if (!iv_of(e, t->start, depth + 1, &s) || !iv_of(e, t->bound, depth + 1, &bd) ||
      (t->vstep && !iv_of(e, t->vstep, depth + 1, &st)))
    return NULL;
  if (!e->b)
    return DRY;
  m.start = up ? s.lo : s.hi;
  m.bound = up ? bd.hi : bd.lo;
  if (t->vstep) /* the smallest step makes the most trips */
    m.vstep = up ? st.lo : st.hi;
  return LLVMBuildSExtOrBitCast(e->b, lt_trip_emit(e->b, &m), e->g->c->i64, "");
}

/* A worksharing loop's counter (step 1, from the thread's first
 * iteration): inside the loop, an iteration of the space the team
 * divides, [lb, ub]; one more where the access may see the exit value (in
 * the header of a loop that exits from there, or after the loop). The
 * thread's own bounds are known only after the runtime call, but the
 * space is known where the region starts. */
static int ws_counter(Em *e, int l, LLVMValueRef start, unsigned depth, Iv *out) {
  LLVMValueRef lb, ub;
  Iv a, z;
  if (!lt_omp_worksharing_bounds(start, &lb, &ub) || !iv_of(e, lb, depth + 1, &a) ||
      !iv_of(e, ub, depth + 1, &z))
    return 0;
  const LtLoop *lp = &e->g->loops->loop[l];
  int in = 0;
  for (int m = e->at >= 0 ? lt_loop_of(e->g->loops, (unsigned)e->at) : -1; m >= 0 && !in;
       m = e->g->loops->loop[m].parent)
    in = m == l;
  int from_header = 0;
  for (unsigned k = 0; k < lp->nexiting; k++)
    from_header |= lp->exiting[k] == lp->header;
  int past = !in || (from_header && e->at == (int)lp->header);
  *out = (Iv){a.lo, past ? add(e, z.hi, k64(e, 1)) : z.hi};
  return 1;
}

/* A counter of loop l: start + step * k for k up to the last iteration
 * the access sees. */
static int counter(Em *e, LLVMValueRef v, unsigned depth, Iv *out) {
  const LtFacts *g = e->g;
  int b = lt_cfg_id(g->g, LLVMGetInstructionParent(v));
  int l = b >= 0 ? lt_loop_of(g->loops, (unsigned)b) : -1;
  if (l < 0 || g->loops->loop[l].header != (unsigned)b)
    return 0;
  for (unsigned i = 0; i < g->ind->nctr[l]; i++) {
    const LtCounter *ct = &g->ind->ctr[l][i];
    if (ct->phi != v)
      continue;
    Iv s;
    if (e->team && ct->step == 1 && !ct->vstep && ws_counter(e, l, ct->start, depth, out))
      return 1;
    LLVMValueRef n = trip_max(e, (unsigned)l, depth);
    if (!n || !iv_of(e, ct->start, depth + 1, &s))
      return 0;
    const LtLoop *lp = &g->loops->loop[l];
    long long back = lp->nexiting == 1 && lp->exiting[0] == lp->header &&
                             e->at != (int)lp->header
                         ? 2
                         : 1;
    Iv k = {k64(e, 0), sub(e, n, k64(e, back))}, vs;
    if (ct->vstep) {
      if (!iv_of(e, ct->vstep, depth + 1, &vs))
        return 0;
      *out = iv_add(e, s, iv_mul(e, k, vs));
    } else {
      *out = iv_add(e, s, iv_scale(e, k, ct->step));
    }
    return 1;
  }
  return 0;
}

/* With entry_loads: v, a load of noalias parameter p (what a step's
 * iterations carry, prep/outline.c), comes before every write through p
 * (its block dominates theirs; before them in its own): its value is the
 * one p holds where P starts. p's index, or -1. */
static int entry_load(Em *e, LLVMValueRef v) {
  const LtFacts *g = e->g;
  LLVMValueRef a = LLVMGetOperand(v, 0);
  int p = LLVMIsAArgument(a) ? param_index(g, a) : -1;
  if (p < 0 || !LLVMGetEnumAttributeAtIndex(g->P, (unsigned)p + 1,
                                            LLVMGetEnumAttributeKindForName("noalias", 7)))
    return -1;
  LLVMBasicBlockRef vb = LLVMGetInstructionParent(v);
  int vid = lt_cfg_id(g->g, vb);
  if (vid < 0)
    return -1;
  for (unsigned b = 0; b < g->g->nblocks; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(g->g->block[b]); i;
         i = LLVMGetNextInstruction(i)) {
      LLVMValueRef out[6];
      unsigned n = lt_writes_of(g->c, i, out);
      for (unsigned k = 0; k < n; k++) {
        if (out[k] != LT_CLOBBER && lt_base_of(out[k]) != a)
          continue;
        if (out[k] == LT_CLOBBER || !lt_cfg_dominates(g->g, (unsigned)vid, b))
          return -1;
        if (g->g->block[b] == vb) { /* in v's block: after v? */
          LLVMValueRef j = v;
          while (j && j != i)
            j = LLVMGetNextInstruction(j);
          if (!j)
            return -1;
        }
      }
    }
  return p;
}

/* An overlap test's fact: r, truncated to w bits, is r (a counter made
 * narrow, trunc i64 %i to i32, whose value then extends back): r lies in
 * [0, 2^(w-1)), where the truncation is the same under either extension. */
static void fits(Em *e, Iv r, unsigned w) {
  if (!e->b || w >= 64)
    return;
  LLVMValueRef lo = LLVMBuildICmp(e->b, LLVMIntSGE, r.lo, k64(e, 0), ""),
               hi = LLVMBuildICmp(e->b, LLVMIntSLT, r.hi, k64(e, 1LL << (w - 1)), ""),
               h = LLVMBuildAnd(e->b, lo, hi, "");
  e->holds = e->holds ? LLVMBuildAnd(e->b, e->holds, h, "") : h;
}

/* An overlap test's fact: r's bounds lie in [0, 2^63) */
static void nonneg(Em *e, Iv r) {
  if (!e->b)
    return;
  LLVMValueRef h = LLVMBuildAnd(e->b, LLVMBuildICmp(e->b, LLVMIntSGE, r.lo, k64(e, 0), ""),
                                LLVMBuildICmp(e->b, LLVMIntSGE, r.hi, k64(e, 0), ""), "");
  e->holds = e->holds ? LLVMBuildAnd(e->b, e->holds, h, "") : h;
}

int lt_rng_iv_of(Em *e, LLVMValueRef v, unsigned depth, Iv *out) {
  LtCtx *c = e->g->c;
  LLVMTypeKind k = LLVMGetTypeKind(LLVMTypeOf(v));
  if ((k != LLVMIntegerTypeKind && k != LLVMPointerTypeKind) || depth > 48)
    return 0;
  long long cv;
  if (as_const(v, &cv)) {
    *out = point(k64(e, cv));
    return 1;
  }
  LLVMValueRef mlo = lt_map_get(&e->lo, v);
  if (mlo) {
    *out = (Iv){mlo, lt_map_get(&e->hi, v)};
    return 1;
  }
  Iv r;
  int ok = 1;
  if (LLVMIsAArgument(v) && e->g->span_param && param_index(e->g, v) == e->g->span_param - 1) {
    LLVMValueRef hi = DRY;
    if (e->b) {
      LLVMValueRef n = LLVMGetParam(e->fn, LLVMCountParams(e->fn) - 1);
      hi = LLVMBuildSub(e->b, n, LLVMConstInt(c->i64, 1, 0), "");
    }
    r = (Iv){k64(e, 0), hi};
  } else if (LLVMIsAArgument(v)) {
    int p = param_index(e->g, v);
    if (p < 0)
      return 0;
    LLVMValueRef a = e->b ? LLVMGetParam(e->fn, (unsigned)p) : DRY;
    if (e->b)
      a = k == LLVMPointerTypeKind ? LLVMBuildPtrToInt(e->b, a, c->i64, "")
                                   : LLVMBuildSExtOrBitCast(e->b, a, c->i64, "");
    r = point(a);
  } else if (e->g->entry_loads && k == LLVMPointerTypeKind && LLVMIsALoadInst(v) &&
             entry_load(e, v) >= 0) {
    LLVMValueRef a = DRY;
    if (e->b) {
      LLVMValueRef p = LLVMGetParam(e->fn, (unsigned)entry_load(e, v));
      a = LLVMBuildLoad2(e->b, LLVMTypeOf(v), p, "");
      a = k == LLVMPointerTypeKind ? LLVMBuildPtrToInt(e->b, a, c->i64, "")
                                   : LLVMBuildSExtOrBitCast(e->b, a, c->i64, "");
    }
    r = point(a);
  } else if (LLVMIsAGlobalValue(v) || LLVMIsAConstantPointerNull(v)) {
    r = point(e->b ? LLVMBuildPtrToInt(e->b, v, c->i64, "") : DRY);
  } else if (LLVMIsAPHINode(v) && lt_phi_same(v)) {
    ok = iv_of(e, lt_phi_same(v), depth + 1, &r); /* LCSSA */
  } else if (LLVMIsAPHINode(v)) {
    ok = counter(e, v, depth, &r);
  } else if (LLVMIsAInstruction(v) || LLVMIsAConstantExpr(v)) {
    LLVMOpcode op = LLVMIsAInstruction(v) ? LLVMGetInstructionOpcode(v) : LLVMGetConstOpcode(v);
    Iv x, y;
    switch (op) {
    case LLVMAdd:
    case LLVMSub:
    case LLVMMul:
      ok = iv_of(e, LLVMGetOperand(v, 0), depth + 1, &x) &&
           iv_of(e, LLVMGetOperand(v, 1), depth + 1, &y);
      if (ok)
        r = op == LLVMAdd ? iv_add(e, x, y) : op == LLVMSub ? iv_sub(e, x, y) : iv_mul(e, x, y);
      break;
    case LLVMOr: /* `or disjoint` adds */
      ok = LLVMIsAInstruction(v) && LLVMGetIsDisjoint(v) &&
           iv_of(e, LLVMGetOperand(v, 0), depth + 1, &x) &&
           iv_of(e, LLVMGetOperand(v, 1), depth + 1, &y);
      if (ok)
        r = iv_add(e, x, y);
      break;
    case LLVMXor: /* xor x, -1: -x - 1 */
      ok = as_const(LLVMGetOperand(v, 1), &cv) && cv == -1 &&
           iv_of(e, LLVMGetOperand(v, 0), depth + 1, &x);
      if (ok)
        r = iv_sub(e, point(k64(e, -1)), x);
      break;
    case LLVMShl:
      ok = as_const(LLVMGetOperand(v, 1), &cv) && cv >= 0 && cv < 62 &&
           iv_of(e, LLVMGetOperand(v, 0), depth + 1, &x);
      if (ok)
        r = iv_scale(e, x, 1LL << cv);
      break;
    case LLVMTrunc: /* a step's counter, made from its i64 step number
                       (prep/outline.c), which fits the counter's type */
      ok = (e->g->span_param || e->checked) && iv_of(e, LLVMGetOperand(v, 0), depth + 1, &r);
      if (ok && !e->g->span_param)
        fits(e, r, LLVMGetIntTypeWidth(LLVMTypeOf(v)));
      break;
    case LLVMSExt:
    case LLVMZExt: /* indices do not wrap: the value is the same */
    case LLVMBitCast:
    case LLVMAddrSpaceCast:
      ok = iv_of(e, LLVMGetOperand(v, 0), depth + 1, &r);
      break;
    case LLVMGetElementPtr: {
      ok = iv_of(e, LLVMGetOperand(v, 0), depth + 1, &r);
      LLVMTypeRef ty = LLVMGetGEPSourceElementType(v);
      for (unsigned i = 1, n = (unsigned)LLVMGetNumOperands(v); ok && i < n; i++) {
        LLVMValueRef idx = LLVMGetOperand(v, i);
        if (i > 1 && LLVMGetTypeKind(ty) == LLVMStructTypeKind) {
          ok = as_const(idx, &cv);
          if (ok) {
            r = iv_add(e, r, point(k64(e, (long long)LLVMOffsetOfElement(c->td, ty, (unsigned)cv))));
            ty = LLVMStructGetTypeAtIndex(ty, (unsigned)cv);
          }
          continue;
        }
        if (i > 1) {
          if (LLVMGetTypeKind(ty) != LLVMArrayTypeKind) {
            ok = 0;
            break;
          }
          ty = LLVMGetElementType(ty);
        }
        ok = iv_of(e, idx, depth + 1, &x);
        if (ok)
          r = iv_add(e, r, iv_scale(e, x, (long long)LLVMABISizeOfType(c->td, ty)));
      }
      break;
    }
    case LLVMCall: { /* llvm.[su]{min,max}: a trip count max(n * n, 1) */
      size_t len;
      const char *nm = lt_callee_name(v, &len);
      int un = len > 10 && (!strncmp(nm, "llvm.umax.", 10) || !strncmp(nm, "llvm.umin.", 10));
      int mx = len > 10 && (!strncmp(nm, "llvm.smax.", 10) || !strncmp(nm, "llvm.umax.", 10));
      int mn = len > 10 && (!strncmp(nm, "llvm.smin.", 10) || !strncmp(nm, "llvm.umin.", 10));
      /* Unsigned ones only in an overlap test, which checks that both
       * bounds are in [0, 2^63), where unsigned order is the intervals'
       * (umin(n, cap) with cap = SIZE_MAX for "no cap" is n, not -1). */
      ok = (mx || mn) && (!un || e->checked) && LLVMGetNumArgOperands(v) == 2 &&
           iv_of(e, LLVMGetOperand(v, 0), depth + 1, &x) &&
           iv_of(e, LLVMGetOperand(v, 1), depth + 1, &y);
      if (ok) {
        LLVMIntPredicate p = un ? (mx ? LLVMIntUGT : LLVMIntULT) : (mx ? LLVMIntSGT : LLVMIntSLT);
        r = (Iv){pick(e, p, x.lo, y.lo), pick(e, p, x.hi, y.hi)};
        if (un)
          nonneg(e, r);
      }
      break;
    }
    default:
      ok = 0;
    }
  } else {
    ok = 0;
  }
  if (!ok)
    return 0;
  lt_map_put(&e->lo, v, r.lo);
  lt_map_put(&e->hi, v, r.hi);
  *out = r;
  return 1;
}

/* [lo, hi) of the bytes inst (a load or store at addr) may touch. */
static int range(Em *e, LLVMValueRef inst, LLVMValueRef addr, LLVMValueRef *lo,
                 LLVMValueRef *hi) {
  const LtFacts *g = e->g;
  LLVMTypeRef vt = LLVMIsAStoreInst(inst) ? LLVMTypeOf(LLVMGetOperand(inst, 0))
                                          : LLVMTypeOf(inst);
  e->at = lt_cfg_id(g->g, LLVMGetInstructionParent(inst));
  /* bounds depend on where the access is (last iterations): no memo
   * across accesses */
  lt_map_free(&e->lo);
  lt_map_free(&e->hi);
  lt_map_init(&e->lo, 16);
  lt_map_init(&e->hi, 16);
  Iv r;
  if (e->at < 0 || !iv_of(e, addr, 0, &r))
    return 0;
  lt_rng_tighten(e, addr, &r);
  *lo = r.lo;
  if (LLVMIsACallInst(inst)) { /* memcpy, memmove, memset: their length */
    Iv n;
    size_t len;
    const char *nm = lt_callee_name(inst, &len);
    if (LLVMGetNumArgOperands(inst) < 3 ||
        (strncmp(nm, "llvm.memcpy", 11) && strncmp(nm, "llvm.memmove", 12) &&
         strncmp(nm, "llvm.memset", 11)) ||
        !iv_of(e, LLVMGetOperand(inst, 2), 0, &n))
      return 0;
    *hi = add(e, r.hi, n.hi);
    return 1;
  }
  *hi = add(e, r.hi, k64(e, (long long)LLVMStoreSizeOfType(g->c->td, vt)));
  return 1;
}

static void em_init(Em *e, const LtFacts *g, LLVMValueRef fn, LLVMBuilderRef b) {
  memset(e, 0, sizeof *e);
  e->g = g;
  e->fn = fn;
  e->b = b;
  lt_map_init(&e->lo, 16);
  lt_map_init(&e->hi, 16);
}

static void em_free(Em *e) {
  lt_map_free(&e->lo);
  lt_map_free(&e->hi);
}

int lt_range_ok(const LtFacts *g, LLVMValueRef inst, LLVMValueRef addr) {
  Em e;
  em_init(&e, g, NULL, NULL);
  LLVMValueRef lo, hi;
  int ok = range(&e, inst, addr, &lo, &hi);
  em_free(&e);
  return ok;
}

/* The union of the ranges of accesses v[0..n) (pairs inst, addr). */
static int hull(Em *e, LLVMValueRef *v, size_t n, LLVMValueRef *lo, LLVMValueRef *hi) {
  for (size_t k = 0; k < n; k += 2) {
    LLVMValueRef l, h;
    if (!range(e, v[k], v[k + 1], &l, &h))
      return 0;
    *lo = k ? pick(e, LLVMIntULT, l, *lo) : l;
    *hi = k ? pick(e, LLVMIntUGT, h, *hi) : h;
  }
  return n > 0;
}

LLVMValueRef lt_range_count(const LtFacts *g, LLVMValueRef fn, LLVMBuilderRef b,
                            LLVMValueRef inst) {
  Em e;
  em_init(&e, g, fn, b);
  e.at = lt_cfg_id(g->g, LLVMGetInstructionParent(inst));
  LLVMValueRef n = e.at >= 0 ? k64(&e, 1) : NULL;
  for (int l = e.at >= 0 ? lt_loop_of(g->loops, (unsigned)e.at) : -1; n && l >= 0;
       l = g->loops->loop[l].parent) {
    LLVMValueRef t = trip_max(&e, (unsigned)l, 0);
    n = t ? mul(&e, n, t) : NULL;
  }
  em_free(&e);
  return n;
}

LLVMValueRef lt_range_point(const LtFacts *g, LLVMValueRef fn, LLVMBuilderRef b,
                            LLVMValueRef v) {
  Em e;
  em_init(&e, g, fn, b);
  e.at = 0;
  Iv r;
  LLVMValueRef out = iv_of(&e, v, 0, &r) && r.lo == r.hi ? r.lo : NULL;
  em_free(&e);
  return out;
}

LLVMValueRef lt_range_max(const LtFacts *g, LLVMValueRef fn, LLVMBuilderRef b,
                          LLVMValueRef inst, LLVMValueRef v) {
  Em e;
  em_init(&e, g, fn, b);
  e.at = lt_cfg_id(g->g, LLVMGetInstructionParent(inst));
  Iv r;
  LLVMValueRef out = e.at >= 0 && iv_of(&e, v, 0, &r) ? r.hi : NULL;
  em_free(&e);
  return out;
}

int lt_range_hull(const LtFacts *g, LLVMValueRef fn, LLVMBuilderRef b, LLVMValueRef *v,
                  size_t n, LLVMValueRef *lo, LLVMValueRef *hi) {
  Em e;
  em_init(&e, g, fn, b);
  int ok = hull(&e, v, n, lo, hi);
  em_free(&e);
  return ok;
}

LLVMValueRef lt_range_overlap(const LtFacts *g, LLVMValueRef fn, LLVMBuilderRef b,
                              LLVMValueRef *w, size_t nw, LLVMValueRef *r, size_t nr) {
  return lt_range_overlap_team(g, fn, b, w, nw, r, nr, 0);
}

LLVMValueRef lt_range_overlap_team(const LtFacts *g, LLVMValueRef fn, LLVMBuilderRef b,
                                   LLVMValueRef *w, size_t nw, LLVMValueRef *r, size_t nr,
                                   int team) {
  Em e;
  em_init(&e, g, fn, b);
  e.team = team;
  e.checked = 1;
  LLVMValueRef wl, wh, rl, rh, o = NULL;
  if (hull(&e, w, nw, &wl, &wh) && hull(&e, r, nr, &rl, &rh)) {
    o = !b ? DRY
           : LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntULT, wl, rh, ""),
                          LLVMBuildICmp(b, LLVMIntULT, rl, wh, ""), "lt.overlap");
    if (b && e.holds) /* where a fact fails, the ranges say nothing */
      o = LLVMBuildOr(b, o, LLVMBuildNot(b, e.holds, ""), "lt.overlap");
  }
  em_free(&e);
  return o;
}

LLVMValueRef lt_range_overlap_cells(const LtFacts *g, LLVMValueRef fn, LLVMBuilderRef b,
                                    LLVMValueRef *w, size_t nw, int wc, LLVMValueRef *r,
                                    size_t nr, int rc, LLVMValueRef *cv, size_t ncells) {
  Em e;
  em_init(&e, g, fn, b);
  e.checked = 1;
  LLVMValueRef wl, wh, rl, rh, o = NULL;
  if (hull(&e, w, nw, &wl, &wh) && hull(&e, r, nr, &rl, &rh)) {
    o = LLVMConstInt(LLVMInt1TypeInContext(g->c->llctx), 0, 0);
    for (size_t m = 0; m < ncells; m++)
      for (size_t m2 = 0; m2 < ncells; m2++) {
        if (rc < 0 ? m2 != 0 : (wc == rc) != (m == m2))
          continue; /* the read's cell holds another value than the write's */
        LLVMValueRef d = LLVMBuildSub(b, cv[m], cv[wc], "");
        LLVMValueRef lo = LLVMBuildAdd(b, wl, d, ""), hi = LLVMBuildAdd(b, wh, d, "");
        LLVMValueRef lo2 = rl, hi2 = rh;
        if (rc >= 0) {
          LLVMValueRef d2 = LLVMBuildSub(b, cv[m2], cv[rc], "");
          lo2 = LLVMBuildAdd(b, rl, d2, ""), hi2 = LLVMBuildAdd(b, rh, d2, "");
        }
        o = LLVMBuildOr(b, o,
                        LLVMBuildAnd(b, LLVMBuildICmp(b, LLVMIntULT, lo, hi2, ""),
                                     LLVMBuildICmp(b, LLVMIntULT, lo2, hi, ""), ""),
                        "lt.overlap");
      }
    if (e.holds)
      o = LLVMBuildOr(b, o, LLVMBuildNot(b, e.holds, ""), "lt.overlap");
  }
  em_free(&e);
  return o;
}
