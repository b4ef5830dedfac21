/* lapack.c: what the reverse of a LAPACK call reads, and from where.
 *
 * Every rule (gen/lapack.c) reads the memory as the call leaves it: the
 * factor (potrf, getrf and gesv write it over A; potrs and getrs take
 * it), the pivots, and for an active matrix the solution (potrs, getrs
 * and gesv write it over B). Never the original A: the reverse needs the
 * factor only. Each is read again in R where nothing after the call
 * changes its memory (overwrite.c, as for a BLAS call's arguments) and the
 * memory outlives A; otherwise A copies it, whole, right after the call,
 * into the call's record (one block per execution; plan/blas.c's
 * LT_SLOT_CUSTOMTAPE, with Fortran's integers). A solve right after its
 * factorisation reads the factorisation's copy of the factor and pivots
 * (R reverses the solve first, and frees that copy with the
 * factorisation's record).
 */
#include "lt.h"

#include <string.h>

enum { RA = LT_BR_A, RB, RC, RX, RY, RP, NROLE = LT_BR_N };

/* The factorisation whose output a solve reads: in the same block before
 * it, on the same matrix (and pivots) of the same size, with nothing in
 * between but stores to stack slots the solve does not take. Its copy
 * serves both. */
static LLVMValueRef producer(const LtFacts *f, LLVMValueRef call, const LtBlasCall *d) {
  if (d->kind != LT_BLAS_POTRS && d->kind != LT_BLAS_GETRS)
    return NULL;
  LtBlasKind want = d->kind == LT_BLAS_POTRS ? LT_BLAS_POTRF : LT_BLAS_GETRF;
  LLVMValueRef a = LLVMGetOperand(call, (unsigned)d->a);
  LLVMValueRef p = d->ipiv >= 0 ? LLVMGetOperand(call, (unsigned)d->ipiv) : NULL;
  for (LLVMValueRef i = LLVMGetPreviousInstruction(call); i; i = LLVMGetPreviousInstruction(i)) {
    const LtRule *rule;
    LtBlasCall q;
    if (LLVMIsACallInst(i) && lt_call_kind(i, &rule) == LT_CALL_BLAS &&
        lt_blas_is_lapack(lt_blas_call(i, &q))) {
      int same = q.kind == want && q.fortran == d->fortran && q.row == d->row &&
                 q.single == d->single && (want != LT_BLAS_POTRF || q.up == d->up) &&
                 LLVMGetOperand(i, (unsigned)q.a) == a &&
                 LLVMGetOperand(i, (unsigned)q.n) == LLVMGetOperand(call, (unsigned)d->n) &&
                 LLVMGetOperand(i, (unsigned)q.lda) == LLVMGetOperand(call, (unsigned)d->lda) &&
                 (!p || LLVMGetOperand(i, (unsigned)q.ipiv) == p);
      return same ? i : NULL;
    }
    LLVMValueRef w[5];
    for (unsigned k = 0, n = lt_writes_of(f->c, i, w); k < n; k++) {
      LLVMValueRef b = w[k] == LT_CLOBBER ? NULL : lt_base_of(w[k]);
      if (!b || !LLVMIsAAllocaInst(b))
        return NULL;
      /* nor the solve's operands (Fortran's n and lda too) */
      for (unsigned o = 0, no = LLVMGetNumArgOperands(call); o < no; o++)
        if (lt_is_ptr_ty(LLVMTypeOf(LLVMGetOperand(call, o))) &&
            lt_base_of(LLVMGetOperand(call, o)) == b)
          return NULL;
    }
  }
  return NULL;
}

/* A solve's copies of the factor and pivots are the factorisation's. */
static void share(const LtFacts *f, LLVMValueRef call, LtBlasNeed *nd) {
  if (!nd->cache[RA] && !nd->cache[RP])
    return;
  LLVMValueRef p = producer(f, call, &nd->d);
  if (!p)
    return;
  LtBlasNeed pn;
  lt_plan_blas(f, p, &pn);
  for (int r = RA; r <= RP; r += RP - RA)
    if (nd->cache[r] && pn.cache[r]) {
      nd->cache[r] = 0;
      nd->from[r] = p;
    }
}

void lt_plan_lapack(const LtFacts *f, LLVMValueRef call, LtBlasNeed *nd) {
  LtBlasCall *d = &nd->d;
  int ops[NROLE] = {d->a, d->b, -1, -1, -1, d->ipiv};
  for (int r = 0; r < NROLE; r++) {
    nd->op[r] = ops[r];
    /* the pivots are integers: never a shadow */
    nd->sh[r] = r != RP && ops[r] >= 0 &&
                lt_is_shadowed(f->act, LLVMGetOperand(call, (unsigned)ops[r]));
  }
  int *rd = nd->read, *sh = nd->sh;
  switch (d->kind) {
  case LT_BLAS_POTRF:
  case LT_BLAS_GETRF:
    nd->any = sh[RA];
    break;
  case LT_BLAS_POTRS:
  case LT_BLAS_GETRS:
    nd->any = sh[RB];
    break;
  default: /* gesv */
    nd->any = sh[RA] || sh[RB];
    break;
  }
  rd[RA] = nd->any;
  rd[RP] = nd->any && d->ipiv >= 0;
  rd[RB] = nd->any && d->b >= 0 && sh[RA];
  int cached = 0;
  for (int r = 0; r < NROLE; r++) {
    LLVMValueRef p = rd[r] ? LLVMGetOperand(call, (unsigned)ops[r]) : NULL;
    nd->cache[r] = !p                                ? 0
                   : !lt_plan_kept_base(f, p)        ? (f->split ? LT_BC_SPLIT : LT_BC_STACK)
                   : !lt_overwrite_call_arg(f->ow, call, (unsigned)ops[r]) ? LT_BC_LATER
                                                                           : 0;
  }
  share(f, call, nd);
  for (int r = 0; r < NROLE; r++)
    cached |= nd->cache[r];
  nd->slot = nd->any && (cached || d->fortran);
}

const char *lt_plan_lapack_role(const LtBlasCall *d, int r) {
  (void)d;
  return r == RA ? "the factor" : r == RB ? "the solution" : "the pivots";
}
