/* blas.c: what the reverse of a BLAS call reads, and from where.
 *
 * A rule reads the primal operands its partials need (gemm's A for dB and
 * for an active alpha, C's old value only for an active beta; none for
 * copy and swap). An operand is read again in R when nothing after the
 * call can change its memory (overwrite.c's answer for the call's
 * arguments, as for a callee kept as a call) and the memory outlives A
 * (not the stack; in split mode only a parameter the caller keeps);
 * otherwise A copies it, whole, before the call. What the call itself
 * writes (scal's x, gemv's y, gemm's C) is always copied when needed;
 * trsv's and trsm's rules need the solution, re-read, or re-solved in R
 * from a copy of the right-hand side (always for trsm with an active
 * alpha, whose adjoint needs that right-hand side).
 */
#include "lt.h"

#include <string.h>

enum { RA = LT_BR_A, RB, RC, RX, RY, RP, NROLE = LT_BR_N };

int lt_plan_kept_base(const LtFacts *f, LLVMValueRef v) {
  LLVMValueRef b = lt_base_of(v);
  return f->split ? lt_plan_kept_param(f, v)
                  : !LLVMIsAAllocaInst(b) || lt_frame_alloca(f->P, b); /* prep/frame.c */
}

void lt_plan_blas(const LtFacts *f, LLVMValueRef call, LtBlasNeed *nd) {
  memset(nd, 0, sizeof *nd);
  LtBlasCall *d = &nd->d;
  LtActivity *act = f->act;
  if (lt_blas_is_lapack(lt_blas_call(call, d))) {
    lt_plan_lapack(f, call, nd);
    return;
  }
  int ops[NROLE] = {d->a, d->b, d->c, d->x, d->y, -1};
  for (int r = 0; r < NROLE; r++) {
    nd->op[r] = ops[r];
    nd->sh[r] = ops[r] >= 0 && lt_is_shadowed(act, LLVMGetOperand(call, (unsigned)ops[r]));
  }
  int sc[2] = {d->alpha, d->beta}, on[2] = {0, 0};
  for (int k = 0; k < 2; k++)
    if (sc[k] >= 0) {
      LLVMValueRef v = LLVMGetOperand(call, (unsigned)sc[k]);
      on[k] = d->fortran ? lt_is_shadowed(act, v) : lt_is_varied(act, v);
    }
  nd->al = on[0];
  nd->be = on[1];
  nd->res = lt_is_varied(act, call);
  int *rd = nd->read, *sh = nd->sh;
  switch (d->kind) {
  case LT_BLAS_GEMM:
    nd->any = sh[RC];
    rd[RA] = sh[RC] && (sh[RB] || nd->al);
    rd[RB] = sh[RC] && (sh[RA] || nd->al);
    rd[RC] = sh[RC] && nd->be;
    break;
  case LT_BLAS_GEMV:
    nd->any = sh[RY];
    rd[RA] = sh[RY] && (sh[RX] || nd->al);
    rd[RX] = sh[RY] && (sh[RA] || nd->al);
    rd[RY] = sh[RY] && nd->be;
    break;
  case LT_BLAS_SYMM:
    nd->any = sh[RC];
    rd[RA] = sh[RC] && (sh[RB] || nd->al);
    rd[RB] = sh[RC] && (sh[RA] || nd->al);
    rd[RC] = sh[RC] && nd->be;
    break;
  case LT_BLAS_SYRK:
    nd->any = sh[RC];
    rd[RA] = sh[RC] && (sh[RA] || nd->al);
    rd[RC] = sh[RC] && nd->be;
    break;
  case LT_BLAS_TRMM: /* dT and da need the old B, dB the triangle */
  case LT_BLAS_TRSM: /* dT needs the solution, da the old B */
    nd->any = sh[RB];
    rd[RA] = sh[RB];
    rd[RB] = sh[RB] && (sh[RA] || nd->al);
    break;
  case LT_BLAS_SYMV:
    nd->any = sh[RY];
    rd[RA] = sh[RY] && (sh[RX] || nd->al);
    rd[RX] = sh[RY] && (sh[RA] || nd->al);
    rd[RY] = sh[RY] && nd->be;
    break;
  case LT_BLAS_TRMV: /* dT needs the old x, dx the triangle */
  case LT_BLAS_TRSV: /* dT needs the new x (re-solved from the old) */
    nd->any = sh[RX];
    rd[RA] = sh[RX];
    rd[RX] = sh[RX] && sh[RA];
    break;
  case LT_BLAS_GER:
    nd->any = sh[RA];
    rd[RX] = sh[RA] && (sh[RY] || nd->al);
    rd[RY] = sh[RA] && (sh[RX] || nd->al);
    break;
  case LT_BLAS_DOT:
    nd->any = nd->res;
    rd[RX] = nd->res && sh[RY];
    rd[RY] = nd->res && sh[RX];
    break;
  case LT_BLAS_AXPY:
    nd->any = sh[RY];
    rd[RX] = sh[RY] && nd->al;
    break;
  case LT_BLAS_SCAL:
    nd->any = sh[RX];
    rd[RX] = sh[RX] && nd->al;
    break;
  case LT_BLAS_COPY:
    nd->any = sh[RY];
    break;
  case LT_BLAS_SWAP:
    nd->any = sh[RX] || sh[RY];
    break;
  case LT_BLAS_NRM2:
  case LT_BLAS_ASUM:
    nd->any = nd->res && sh[RX];
    rd[RX] = nd->any;
    break;
  default:
    break;
  }
  int cached = 0;
  for (int r = 0; r < NROLE; r++) {
    unsigned k = (unsigned)nd->op[r];
    /* trsv's rule reads x as the call leaves it */
    int after = (d->kind == LT_BLAS_TRSV && r == RX) || (d->kind == LT_BLAS_TRSM && r == RB && !nd->al);
    nd->cache[r] = !rd[r]                         ? 0
                   : !after && lt_blas_writes(d, (int)k) ? LT_BC_WRITES
                   : !lt_plan_kept_base(f, LLVMGetOperand(call, k)) ? (f->split ? LT_BC_SPLIT : LT_BC_STACK)
                   : !lt_overwrite_call_arg(f->ow, call, k) ? LT_BC_LATER
                                                            : 0;
    cached |= nd->cache[r];
  }
  nd->slot = nd->any && (cached || d->fortran);
}


const char *lt_plan_blas_why(int why) {
  switch (why) {
  case LT_BC_WRITES:
    return "the call overwrites it";
  case LT_BC_STACK:
    return "on the stack";
  case LT_BC_SPLIT:
    return "split mode";
  default:
    return "may be overwritten later";
  }
}
