/* lapackfwd.c: the tangents of LAPACK's factorisations and solves, as
 * BLAS and LAPACK calls after the primal call (which leaves the factor,
 * the pivots and the solution in memory; the input tangents are in the
 * shadows, which the call does not touch). In the call's layout, as in
 * gen/lapack.c:
 *  - potrf, S = L L^T: dL = L Phi(L^-1 dS L^-T) (dS symmetric from the
 *    stored triangle; U^T for the upper triangle);
 *  - potrs, X = S^-1 B, S = R^T R (R = U, or L^T): dX = S^-1 (dB - dS X),
 *    dS X = dR^T (R X) + R^T (dR X);
 *  - getrf, A = P L U: with W = L^-1 P^T dA U^-1, dL = L tril_s(W),
 *    dU = triu(W) U;
 *  - getrs: dX = op(A)^-1 (dB - op(dA) X), dA = P (dL U + L dU);
 *  - gesv: dX = A^-1 (dB - dA X), then getrf's tangent.
 * dL is strictly lower: a product with it is a unit-diagonal trmm of its
 * memory less the operand.
 */
#include "lt.h"

static LLVMValueRef one_of(LtBlasEm *e) { return LLVMConstReal(e->fty, 1); }

static void tan_potrf(LtBlasEm *e, int up, LtLapackVals *v) {
  LLVMValueRef one = one_of(e), zero = LLVMConstReal(e->fty, 0), n = v->n, ldw;
  LLVMValueRef W = lt_lapack_mat(e, n, n, &ldw, 1);
  lt_lapack_tri_add(e, up, 0, n, one, v->da, v->ldda, W, ldw);
  lt_lapack_tri_tadd(e, up, n, v->da, v->ldda, W, ldw);
  /* L^-1 dS L^-T (lower) or U^-T dS U^-1 (upper) */
  lt_blas_trxm(e, 1, 0, up, up, 0, n, n, one, v->a, v->lda, W, ldw);
  lt_blas_trxm(e, 1, 1, up, !up, 0, n, n, one, v->a, v->lda, W, ldw);
  lt_lapack_tri_scal(e, !up, 1, n, zero, W, ldw);
  lt_lapack_diag_scal(e, n, LLVMConstReal(e->fty, 0.5), W, ldw);
  /* L Phi (lower) or Phi U (upper) */
  lt_blas_trxm(e, 0, up, up, 0, 0, n, n, one, v->a, v->lda, W, ldw);
  lt_lapack_tri_scal(e, up, 0, n, zero, v->da, v->ldda);
  lt_lapack_tri_add(e, up, 0, n, one, W, ldw, v->da, v->ldda);
  lt_build_free(e->b, e->c->mod, W);
}

static void tan_potrs(LtBlasEm *e, int up, LtLapackVals *v) {
  LLVMValueRef one = one_of(e), mone = LLVMConstReal(e->fty, -1), n = v->n, r = v->nrhs, ldt;
  if (v->da) {
    LLVMValueRef T1 = lt_lapack_copy(e, n, r, v->b, v->ldb, &ldt);
    LLVMValueRef T2 = lt_lapack_copy(e, n, r, v->b, v->ldb, &ldt);
    lt_blas_trxm(e, 0, 0, up, !up, 0, n, r, one, v->a, v->lda, T1, ldt);   /* R X */
    lt_blas_trxm(e, 0, 0, up, up, 0, n, r, one, v->da, v->ldda, T1, ldt);  /* dR^T R X */
    lt_blas_trxm(e, 0, 0, up, !up, 0, n, r, one, v->da, v->ldda, T2, ldt); /* dR X */
    lt_blas_trxm(e, 0, 0, up, up, 0, n, r, one, v->a, v->lda, T2, ldt);    /* R^T dR X */
    lt_lapack_axpy(e, n, r, mone, T1, ldt, v->db, v->lddb);
    lt_lapack_axpy(e, n, r, mone, T2, ldt, v->db, v->lddb);
    lt_build_free(e->b, e->c->mod, T1);
    lt_build_free(e->b, e->c->mod, T2);
  }
  lt_lapack_potrs(e, up, n, r, v->a, v->lda, v->db, v->lddb);
}

static void tan_getrf(LtBlasEm *e, LtLapackVals *v) {
  LLVMValueRef one = one_of(e), zero = LLVMConstReal(e->fty, 0), n = v->n, ldw;
  LLVMValueRef W = lt_lapack_copy(e, n, n, v->da, v->ldda, &ldw);
  lt_lapack_laswp(e, n, W, ldw, n, v->p, 1);
  lt_blas_trxm(e, 1, 0, 0, 0, 1, n, n, one, v->a, v->lda, W, ldw); /* L^-1 */
  lt_blas_trxm(e, 1, 1, 1, 0, 0, n, n, one, v->a, v->lda, W, ldw); /* U^-1 */
  LLVMValueRef Wl = lt_lapack_mat(e, n, n, &ldw, 1);
  lt_lapack_tri_add(e, 0, 1, n, one, W, ldw, Wl, ldw);
  lt_blas_trxm(e, 0, 0, 0, 0, 1, n, n, one, v->a, v->lda, Wl, ldw); /* L tril_s(W) */
  lt_lapack_tri_scal(e, 0, 1, n, zero, W, ldw);
  lt_blas_trxm(e, 0, 1, 1, 0, 0, n, n, one, v->a, v->lda, W, ldw); /* triu(W) U */
  lt_blas_mscal(e, n, n, zero, v->da, v->ldda);
  lt_lapack_axpy(e, n, n, one, W, ldw, v->da, v->ldda);
  lt_lapack_axpy(e, n, n, one, Wl, ldw, v->da, v->ldda);
  lt_build_free(e->b, e->c->mod, W);
  lt_build_free(e->b, e->c->mod, Wl);
}

static void tan_getrs(LtBlasEm *e, int ta, LtLapackVals *v) {
  LLVMValueRef one = one_of(e), mone = LLVMConstReal(e->fty, -1), n = v->n, r = v->nrhs, ldt;
  if (v->da && !ta) {
    /* dA X = P (dL (U X) + L (dU X)) */
    LLVMValueRef V = lt_lapack_copy(e, n, r, v->b, v->ldb, &ldt);
    lt_blas_trxm(e, 0, 0, 1, 0, 0, n, r, one, v->a, v->lda, V, ldt);
    LLVMValueRef S = lt_lapack_copy(e, n, r, V, ldt, &ldt);
    lt_blas_trxm(e, 0, 0, 0, 0, 1, n, r, one, v->da, v->ldda, S, ldt);
    lt_lapack_axpy(e, n, r, mone, V, ldt, S, ldt);
    LLVMValueRef T = lt_lapack_copy(e, n, r, v->b, v->ldb, &ldt);
    lt_blas_trxm(e, 0, 0, 1, 0, 0, n, r, one, v->da, v->ldda, T, ldt);
    lt_blas_trxm(e, 0, 0, 0, 0, 1, n, r, one, v->a, v->lda, T, ldt);
    lt_lapack_axpy(e, n, r, one, T, ldt, S, ldt);
    lt_lapack_laswp(e, r, S, ldt, n, v->p, -1);
    lt_lapack_axpy(e, n, r, mone, S, ldt, v->db, v->lddb);
    lt_build_free(e->b, e->c->mod, V);
    lt_build_free(e->b, e->c->mod, S);
    lt_build_free(e->b, e->c->mod, T);
  } else if (v->da) {
    /* dA^T X = dU^T (L^T Y) + U^T (dL^T Y), Y = P^T X */
    LLVMValueRef Y = lt_lapack_copy(e, n, r, v->b, v->ldb, &ldt);
    lt_lapack_laswp(e, r, Y, ldt, n, v->p, 1);
    LLVMValueRef T1 = lt_lapack_copy(e, n, r, Y, ldt, &ldt);
    lt_blas_trxm(e, 0, 0, 0, 1, 1, n, r, one, v->a, v->lda, T1, ldt);
    lt_blas_trxm(e, 0, 0, 1, 1, 0, n, r, one, v->da, v->ldda, T1, ldt);
    LLVMValueRef T2 = lt_lapack_copy(e, n, r, Y, ldt, &ldt);
    lt_blas_trxm(e, 0, 0, 0, 1, 1, n, r, one, v->da, v->ldda, T2, ldt);
    lt_lapack_axpy(e, n, r, mone, Y, ldt, T2, ldt);
    lt_blas_trxm(e, 0, 0, 1, 1, 0, n, r, one, v->a, v->lda, T2, ldt);
    lt_lapack_axpy(e, n, r, mone, T1, ldt, v->db, v->lddb);
    lt_lapack_axpy(e, n, r, mone, T2, ldt, v->db, v->lddb);
    lt_build_free(e->b, e->c->mod, Y);
    lt_build_free(e->b, e->c->mod, T1);
    lt_build_free(e->b, e->c->mod, T2);
  }
  lt_lapack_getrs(e, ta, n, r, v->a, v->lda, v->p, v->db, v->lddb);
}

static void tan_gesv(LtBlasEm *e, LtLapackVals *v) {
  if (v->db) {
    if (v->da)
      lt_blas_gemm(e, 0, 0, v->n, v->nrhs, v->n, LLVMConstReal(e->fty, -1), v->da, v->ldda, v->b,
                   v->ldb, one_of(e), v->db, v->lddb);
    lt_lapack_getrs(e, 0, v->n, v->nrhs, v->a, v->lda, v->p, v->db, v->lddb);
  }
  if (v->da)
    tan_getrf(e, v);
}

static void tangent(LtBlasEm *e, const LtBlasCall *d, LtLapackVals *v) {
  switch (d->kind) {
  case LT_BLAS_POTRF:
    if (v->da)
      tan_potrf(e, d->up, v);
    break;
  case LT_BLAS_POTRS:
    if (v->db)
      tan_potrs(e, d->up, v);
    break;
  case LT_BLAS_GETRF:
    if (v->da)
      tan_getrf(e, v);
    break;
  case LT_BLAS_GETRS:
    if (v->db)
      tan_getrs(e, d->tra, v);
    break;
  default:
    tan_gesv(e, v);
    break;
  }
}

int lt_lapack_tangent(LtTg *t, LLVMValueRef call, const LtBlasCall *d) {
  LtCtx *c = t->c;
  LtActivity *act = &t->g->act_of;
  LLVMValueRef tc = lt_tg_val(t, call);
  LtBlasEm e;
  lt_blas_em_init(&e, c, t->b, t->T, d, call);
  LtLapackVals v = {0};
  int ints[5] = {d->n, d->k, d->lda, d->ldb, -1};
  LLVMValueRef *iv[4] = {&v.n, &v.nrhs, &v.lda, &v.ldb};
  for (int q = 0; q < 4; q++) {
    LLVMValueRef x =
        ints[q] >= 0 ? LLVMGetOperand(tc, (unsigned)ints[q]) : LLVMConstInt(e.ity, 0, 0);
    *iv[q] = ints[q] >= 0 && d->fortran ? LLVMBuildLoad2(t->b, e.ity, x, "") : x;
  }
  v.ldda = v.lda;
  v.lddb = v.ldb;
  v.a = LLVMGetOperand(tc, (unsigned)d->a);
  v.b = d->b >= 0 ? LLVMGetOperand(tc, (unsigned)d->b) : NULL;
  v.p = d->ipiv >= 0 ? LLVMGetOperand(tc, (unsigned)d->ipiv) : NULL;
  LLVMValueRef pa = LLVMGetOperand(call, (unsigned)d->a);
  LLVMValueRef pb = d->b >= 0 ? LLVMGetOperand(call, (unsigned)d->b) : NULL;
  LLVMValueRef sa = lt_is_shadowed(act, pa) ? lt_tg_shadow(t, pa) : NULL;
  LLVMValueRef sb = pb && lt_is_shadowed(act, pb) ? lt_tg_shadow(t, pb) : NULL;
  for (unsigned l = 0; l < t->W; l++) {
    v.da = sa ? lt_tg_lane(t, sa, c->ptr, l) : NULL;
    v.db = sb ? lt_tg_lane(t, sb, c->ptr, l) : NULL;
    tangent(&e, d, &v);
  }
  return 0;
}
