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
 * LT_SLOT_CUSTOMTAPE, with Fortran's integers).
 */
#include "lt.h"

#include <string.h>

enum { RA = LT_BR_A, RB, RC, RX, RY, RP, NROLE = LT_BR_N };

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
    cached |= nd->cache[r];
  }
  nd->slot = nd->any && (cached || d->fortran);
}

const char *lt_plan_lapack_role(const LtBlasCall *d, int r) {
  (void)d;
  return r == RA ? "the factor" : r == RB ? "the solution" : "the pivots";
}
