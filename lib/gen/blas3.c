/* blas3.c: the reverse of symmetric and triangular level 3 BLAS (symm,
 * syrk, trmm, trsm), as BLAS calls (the others: blas.c).
 *
 * A symmetric or triangular matrix is one stored triangle, so its adjoint
 * goes to that triangle only: the full-matrix adjoint G of S = sym(A)
 * gives the triangle G + G^T off the diagonal and G on it (syr2k, then
 * the diagonal once more taken off); that of a triangular T is G on the
 * triangle (a scratch gemm, added on the triangle only; without the
 * diagonal when it is a unit one). Column-major, as analysis/blas.c
 * decodes the call; right: the matrix multiplies from the right.
 */
#include "lt.h"

enum { RA = LT_BR_A, RB, RC };

static LLVMValueRef count(LtBlasEm *e, LLVMValueRef r, LLVMValueRef c) {
  LLVMValueRef a = LLVMBuildSExt(e->b, r, e->c->i64, ""), b = LLVMBuildSExt(e->b, c, e->c->i64, "");
  LLVMValueRef z = LLVMConstInt(e->c->i64, 0, 0);
  a = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, a, z, ""), a, z, "");
  b = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, b, z, ""), b, z, "");
  return LLVMBuildMul(e->b, a, b, "");
}

static int tri(const LtBlasCall *d) { return d->up ? 1 : 2; }

/* C = a S B + b C (S = sym(A), m x m) or a B S + b C (n x n). */
static void rev_symm(LtGen *g, LtBlasEm *e, const LtBlasNeed *nd, LLVMValueRef call,
                     LtBlasVals *v, LtBlasVals *s) {
  const LtBlasCall *d = &nd->d;
  LLVMValueRef one = LLVMConstReal(e->fty, 1), zero = LLVMConstReal(e->fty, 0);
  if (s->b)
    lt_blas_symm(e, d->right, d->up, v->m, v->n, v->alpha, v->a, v->lda, s->c, s->ldc, one, s->b,
                 s->ldb);
  if (s->a) {
    /* G = a dC B^T (left) or a B^T dC (right) */
    LLVMValueRef na = LLVMBuildFNeg(e->b, v->alpha, "");
    if (!d->right) {
      lt_blas_syrk(e, d->up, 0, v->m, v->n, v->alpha, s->c, s->ldc, v->b, v->ldb, one, s->a,
                   s->lda);
      lt_blas_line(e, L_DIAGDOT, 1, 0, 0, v->n, v->m, na, s->c, s->ldc, v->b, v->ldb, s->a,
                   s->lda);
    } else {
      lt_blas_syrk(e, d->up, 1, v->n, v->m, v->alpha, v->b, v->ldb, s->c, s->ldc, one, s->a,
                   s->lda);
      lt_blas_line(e, L_DIAGDOT, 0, 0, 0, v->m, v->n, na, v->b, v->ldb, s->c, s->ldc, s->a,
                   s->lda);
    }
  }
  if (nd->al) {
    LLVMValueRef t = lt_blas_scratch(e, count(e, v->m, v->n)), ldt = lt_blas_max1(e, v->m);
    lt_blas_symm(e, d->right, d->up, v->m, v->n, one, v->a, v->lda, v->b, v->ldb, zero, t, ldt);
    lt_blas_scalar_adj(g, nd, call, 0, lt_blas_mdot(e, v->m, v->n, s->c, s->ldc, t, ldt));
    lt_build_free(e->b, e->c->mod, t);
  }
  if (nd->be)
    lt_blas_scalar_adj(g, nd, call, 1, lt_blas_mdot(e, v->m, v->n, s->c, s->ldc, v->c, v->ldc));
  if (!lt_blas_is_one(v->beta))
    lt_blas_mscal(e, v->m, v->n, v->beta, s->c, s->ldc);
}

/* C = a op(A) op(A)^T + b C on C's triangle (n x n, op(A) n x k): dA gets
 * a (dC + dC^T) op(A) with dC's triangle, i.e. symm with it and its
 * diagonal once more. */
static void rev_syrk(LtGen *g, LtBlasEm *e, const LtBlasNeed *nd, LLVMValueRef call,
                     LtBlasVals *v, LtBlasVals *s) {
  const LtBlasCall *d = &nd->d;
  LLVMValueRef one = LLVMConstReal(e->fty, 1), zero = LLVMConstReal(e->fty, 0);
  if (s->a && !d->tra) {
    lt_blas_symm(e, 0, d->up, v->n, v->k, v->alpha, s->c, s->ldc, v->a, v->lda, one, s->a, s->lda);
    lt_blas_line(e, L_DSCALE, 1, 0, 0, v->k, v->n, v->alpha, v->a, v->lda, s->a, s->lda, s->c,
                 s->ldc);
  } else if (s->a) {
    lt_blas_symm(e, 1, d->up, v->k, v->n, v->alpha, s->c, s->ldc, v->a, v->lda, one, s->a, s->lda);
    lt_blas_line(e, L_DSCALE, 0, 0, 0, v->k, v->n, v->alpha, v->a, v->lda, s->a, s->lda, s->c,
                 s->ldc);
  }
  if (nd->al) {
    LLVMValueRef t = lt_blas_scratch(e, count(e, v->n, v->n)), ldt = lt_blas_max1(e, v->n);
    lt_blas_syrk(e, d->up, d->tra, v->n, v->k, one, v->a, v->lda, NULL, NULL, zero, t, ldt);
    lt_blas_scalar_adj(g, nd, call, 0,
                       lt_blas_line(e, L_DOT, 0, tri(d), 0, v->n, v->n, NULL, s->c, s->ldc, t,
                                    ldt, NULL, NULL));
    lt_build_free(e->b, e->c->mod, t);
  }
  if (nd->be)
    lt_blas_scalar_adj(g, nd, call, 1,
                       lt_blas_line(e, L_DOT, 0, tri(d), 0, v->n, v->n, NULL, s->c, s->ldc, v->c,
                                    v->ldc, NULL, NULL));
  if (!lt_blas_is_one(v->beta))
    lt_blas_line(e, L_SCAL, 0, tri(d), 0, v->n, v->n, v->beta, s->c, s->ldc, NULL, NULL, NULL,
                 NULL);
}

/* The adjoint of T (size x size) from that of op(T), sc G X^T (left) or
 * sc X^T G (right), transposed when op(T) = T^T: W = sc P Q^T (left) or
 * sc P^T Q (right), added to dT's triangle. */
static void tri_adjoint(LtBlasEm *e, const LtBlasCall *d, LtBlasVals *v, LtBlasVals *s,
                        LLVMValueRef sc, LLVMValueRef G, LLVMValueRef ldg, LLVMValueRef X,
                        LLVMValueRef ldx) {
  LLVMValueRef size = d->right ? v->n : v->m, inner = d->right ? v->m : v->n;
  LLVMValueRef W = lt_blas_scratch(e, count(e, size, size)), ldw = lt_blas_max1(e, size);
  int xg = d->tra != d->right;
  LLVMValueRef P = xg ? X : G, ldp = xg ? ldx : ldg;
  LLVMValueRef Q = xg ? G : X, ldq = xg ? ldg : ldx;
  lt_blas_gemm(e, d->right, !d->right, size, size, inner, sc, P, ldp, Q, ldq,
               LLVMConstReal(e->fty, 0), W, ldw);
  lt_blas_line(e, L_AXPY, 0, tri(d), d->unit, size, size, LLVMConstReal(e->fty, 1), W, ldw, s->a,
               s->lda, NULL, NULL);
  lt_build_free(e->b, e->c->mod, W);
}

/* B = a op(T) B (trmm) or a op(T)^-1 B (trsm), or from the right. */
static void rev_trxm(LtGen *g, LtBlasEm *e, const LtBlasNeed *nd, LLVMValueRef call,
                     LtBlasVals *v, LtBlasVals *s) {
  const LtBlasCall *d = &nd->d;
  int solve = d->kind == LT_BLAS_TRSM;
  LLVMValueRef one = LLVMConstReal(e->fty, 1);
  if (!solve) {
    /* dop(T) = a dB B_old^T (left) or a B_old^T dB (right) */
    if (s->a)
      tri_adjoint(e, d, v, s, v->alpha, s->b, s->ldb, v->b, v->ldb);
    if (nd->al) {
      LLVMValueRef t = lt_blas_scratch(e, count(e, v->m, v->n)), ldt = lt_blas_max1(e, v->m);
      lt_blas_mcopy(e, v->m, v->n, v->b, v->ldb, t);
      lt_blas_trxm(e, 0, d->right, d->up, d->tra, d->unit, v->m, v->n, one, v->a, v->lda, t, ldt);
      lt_blas_scalar_adj(g, nd, call, 0, lt_blas_mdot(e, v->m, v->n, s->b, s->ldb, t, ldt));
      lt_build_free(e->b, e->c->mod, t);
    }
    lt_blas_trxm(e, 0, d->right, d->up, !d->tra, d->unit, v->m, v->n, v->alpha, v->a, v->lda,
                 s->b, s->ldb);
    return;
  }
  /* G = op(T)^-T dX (left) or dX op(T)^-T (right), in dX's place */
  lt_blas_trxm(e, 1, d->right, d->up, !d->tra, d->unit, v->m, v->n, one, v->a, v->lda, s->b,
               s->ldb);
  if (s->a) {
    /* the solution X: in memory, or solved again from the copy of B */
    LLVMValueRef X = v->b, ldx = v->ldb, t = NULL;
    if (nd->cache[RB]) {
      ldx = lt_blas_max1(e, v->m);
      X = t = lt_blas_scratch(e, count(e, v->m, v->n));
      lt_blas_mcopy(e, v->m, v->n, v->b, v->ldb, t);
      lt_blas_trxm(e, 1, d->right, d->up, d->tra, d->unit, v->m, v->n, v->alpha, v->a, v->lda, t,
                   ldx);
    }
    tri_adjoint(e, d, v, s, LLVMConstReal(e->fty, -1), s->b, s->ldb, X, ldx);
    if (t)
      lt_build_free(e->b, e->c->mod, t);
  }
  if (nd->al) /* the plan copied the old B */
    lt_blas_scalar_adj(g, nd, call, 0, lt_blas_mdot(e, v->m, v->n, s->b, s->ldb, v->b, v->ldb));
  if (!lt_blas_is_one(v->alpha))
    lt_blas_mscal(e, v->m, v->n, v->alpha, s->b, s->ldb);
}

void lt_blas_rev3(LtGen *g, LtBlasEm *e, const LtBlasNeed *nd, LLVMValueRef call,
                  LtBlasVals *v, LtBlasVals *s) {
  switch (nd->d.kind) {
  case LT_BLAS_SYMM:
    rev_symm(g, e, nd, call, v, s);
    break;
  case LT_BLAS_SYRK:
    rev_syrk(g, e, nd, call, v, s);
    break;
  default:
    rev_trxm(g, e, nd, call, v, s);
    break;
  }
}
