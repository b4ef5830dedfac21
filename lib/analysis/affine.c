/* affine.c: affine forms of integers and addresses over loop counters
 * (induction.c's), and the values a run of a loop sees.
 *
 * Affine forms off + sum c*{L} + sum c*v are built bottom-up through add,
 * sub, `or disjoint`, mul/shl by a constant, sext/zext and GEP byte
 * offsets; like SCEV with nsw, they assume integer arithmetic does not
 * wrap. A run's values are those invariant in the loop (defined outside
 * it, or computed inside from such values) and those linear in its
 * counters.
 */
#include "lt.h"

#include <stdio.h>
#include <stdlib.h>

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
    if (lt_induction_const_int(y, &c))
      return affine(w, x, k * c, a, depth);
    if (lt_induction_const_int(x, &c))
      return affine(w, y, k * c, a, depth);
    return 0;
  case LLVMShl:
    if (lt_induction_const_int(y, &c) && c >= 0 && c < 62)
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
      if (!lt_induction_const_int(idx, &f))
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
  if (w->scope >= 0 && !lt_induction_invariant(ls, (unsigned)w->scope, v) &&
      !(w->run && invariant_value(w->ind, (unsigned)w->scope, v, 0)))
    return 0;
  if (LLVMIsAInstruction(v) && lt_induction_def_block(ls->g, v) < 0)
    return 0;
  add_inv(a, v, k);
  return 1;
}

static int affine(const Walk *w, LLVMValueRef v, long long k, LtAffine *a,
                  unsigned depth) {
  long long c;
  if (lt_induction_const_int(v, &c)) {
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
    int b = lt_induction_def_block(ls->g, v), l = b >= 0 ? lt_loop_of(ls, (unsigned)b) : -1;
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
    ok = lt_induction_const_int(LLVMGetOperand(v, 1), &c) && c == -1 &&
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
  if (lt_induction_invariant(ind->ls, l, v))
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
    return lt_induction_const_int(y, &c) && linear(ind, l, x, depth + 1);
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
