/* lapack.c: the reverse of LAPACK's factorisations and solves, as BLAS
 * and LAPACK calls on the factor the call made (analysis/lapack.c says
 * what a call is; blasrt.c emits the calls, lapackhelp.c the triangles).
 *
 * The matrix-calculus identities, for the matrices as the call's layout
 * has them (the emitted CBLAS and LAPACKE calls take that layout):
 *  - potrf, S = L L^T (Murray 2016, "Differentiation of the Cholesky
 *    decomposition"): dS = Phi(W + W^T) on the stored triangle, W =
 *    L^-T Phi(L^T dL) L^-1, Phi the lower triangle with half its
 *    diagonal; with U = L^T for the upper triangle; by blocks of columns
 *    (his section 3.3), the formula on each diagonal block;
 *  - potrs, X = S^-1 B: dB = S^-1 dX (potrs), dS = -dB X^T, taken to the
 *    factor as dL += tril((dS + dS^T) L) (triu(U (dS + dS^T)));
 *  - getrf, A = P L U: dA = P L^-T (tril_s(L^T dL) + triu(dU U^T)) U^-T;
 *  - getrs, X = op(A)^-1 B: dB = op(A)^-T dX (getrs), dA = -dB X^T (or
 *    -X dB^T), taken to the factor: dL += tril_s(P^T dA U^T),
 *    dU += triu(L^T P^T dA), as products of n x nrhs matrices;
 *  - gesv: getrs's dB, then getrf's reverse, plus -dB X^T.
 * A's memory becomes the factor and B's the solution: their adjoints are
 * replaced, not added to. What R reads comes from memory or from the
 * copies A made after the call (plan/lapack.c).
 */
#include "lt.h"

#include <stdio.h>
#include <string.h>

enum { RA = LT_BR_A, RB, RC, RX, RY, RP, NROLE };
enum { I_M, I_N, I_NRHS, I_LDA, I_LDB, NINT };

static LLVMTypeRef record_ty(LtCtx *c, const LtBlasCall *d) {
  if (!d->fortran)
    return c->ptr;
  LLVMTypeRef f[2] = {c->ptr, LLVMArrayType2(c->i64, NINT)};
  return LLVMStructTypeInContext(c->llctx, f, 2, 0);
}

static int int_op(const LtBlasCall *d, int k) {
  int r[NINT] = {d->m, d->n, d->k, d->lda, d->ldb};
  return r[k];
}

static LLVMValueRef nonneg64(LtBlasEm *e, LLVMValueRef x) {
  LLVMValueRef z = LLVMConstInt(e->c->i64, 0, 0);
  x = LLVMBuildSExt(e->b, x, e->c->i64, "");
  return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, x, z, ""), x, z, "");
}

/* The copies in the block: role r's place, bytes and packed leading
 * dimension; the block's size. The solution is n x nrhs in the call's
 * layout, the factor n x n, the pivots n integers, in that order. */
static LLVMValueRef places(LtBlasEm *e, const LtBlasNeed *nd, LLVMValueRef n, LLVMValueRef nrhs,
                           LLVMValueRef block, LLVMValueRef at[NROLE], LLVMValueRef ld[NROLE]) {
  LtCtx *c = e->c;
  LLVMValueRef off = LLVMConstInt(c->i64, 0, 0);
  unsigned es = e->single ? 4 : 8, is = LLVMGetIntTypeWidth(e->ity) / 8;
  int order[3] = {RA, RB, RP};
  for (int q = 0; q < 3; q++) {
    int r = order[q];
    if (!nd->cache[r])
      continue;
    LLVMValueRef cols = r == RA ? n : nrhs;
    LLVMValueRef cnt =
        r == RP ? nonneg64(e, n) : LLVMBuildMul(e->b, nonneg64(e, n), nonneg64(e, cols), "");
    at[r] = block ? LLVMBuildGEP2(e->b, c->i8, block, &off, 1, "lt.lapack.copy") : NULL;
    ld[r] = lt_blas_max1(e, LLVMBuildIntCast2(e->b, e->row ? cols : n, e->ity, 1, ""));
    LLVMValueRef bytes = LLVMBuildMul(e->b, cnt, LLVMConstInt(c->i64, r == RP ? is : es, 0), "");
    off = LLVMBuildAdd(e->b, off, bytes, "");
  }
  return off;
}

int lt_lapack_forward(LtGen *g, LLVMValueRef call, LLVMValueRef acall) {
  LtCtx *c = g->c;
  LtBlasNeed nd;
  lt_plan_blas(&g->fx, call, &nd);
  if (!nd.slot)
    return 0;
  LtBlasCall *d = &nd.d;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, acall);
  LtBlasEm e;
  lt_blas_em_init(&e, c, b, g->A, d, call);
  LLVMValueRef ints[NINT], rec = LLVMGetUndef(record_ty(c, d));
  for (int k = 0; k < NINT; k++) {
    int op = int_op(d, k);
    LLVMValueRef x = op >= 0 ? LLVMGetOperand(acall, (unsigned)op) : LLVMConstInt(e.ity, 0, 0);
    if (op >= 0 && d->fortran)
      x = LLVMBuildLoad2(b, e.ity, x, "");
    ints[k] = x;
    if (d->fortran)
      rec = LLVMBuildInsertValue(
          b, rec,
          LLVMBuildInsertValue(b, LLVMBuildExtractValue(b, rec, 1, ""),
                               LLVMBuildSExt(b, x, c->i64, ""), (unsigned)k, ""),
          1, "");
  }
  LLVMValueRef block = LLVMConstNull(c->ptr), at[NROLE] = {0}, ld[NROLE] = {0};
  LLVMValueRef bytes = places(&e, &nd, ints[I_N], ints[I_NRHS], NULL, at, ld);
  if (nd.cache[RA] || nd.cache[RB] || nd.cache[RP]) {
    block = lt_build_malloc(b, c->mod, LLVMBuildAdd(b, bytes, LLVMConstInt(c->i64, 1, 0), ""));
    /* the copies after the call: the factor, the solution, the pivots */
    LLVMPositionBuilderBefore(b, LLVMGetNextInstruction(acall));
    places(&e, &nd, ints[I_N], ints[I_NRHS], block, at, ld);
    if (nd.cache[RA])
      lt_blas_mcopy(&e, ints[I_N], ints[I_N], LLVMGetOperand(acall, (unsigned)d->a), ints[I_LDA],
                    at[RA]);
    if (nd.cache[RB]) {
      LLVMValueRef n = ints[I_N], r = ints[I_NRHS];
      lt_blas_mcopy(&e, e.row ? r : n, e.row ? n : r, LLVMGetOperand(acall, (unsigned)d->b),
                    ints[I_LDB], at[RB]);
    }
    if (nd.cache[RP]) {
      LLVMValueRef sz = LLVMBuildMul(b, nonneg64(&e, ints[I_N]),
                                     LLVMConstInt(c->i64, LLVMGetIntTypeWidth(e.ity) / 8, 0), "");
      LLVMBuildMemCpy(b, at[RP], 4, LLVMGetOperand(acall, (unsigned)d->ipiv), 4, sz);
    }
  }
  LLVMValueRef val = d->fortran ? LLVMBuildInsertValue(b, rec, block, 0, "lt.lapack.rec") : block;
  lt_map_put(&g->custom_tape, call, val);
  LLVMDisposeBuilder(b);
  return 0;
}

/* potrf: the factor's adjoint on the stored triangle becomes S's (one
 * block: the symbolic formula). */
static void rev_potrf(LtBlasEm *e, int up, LtLapackVals *v) {
  LLVMValueRef one = LLVMConstReal(e->fty, 1), zero = LLVMConstReal(e->fty, 0), ldw, n = v->n;
  LLVMValueRef W = lt_lapack_mat(e, n, n, &ldw, 1);
  lt_lapack_tri_add(e, up, 0, n, one, v->da, v->ldda, W, ldw);
  /* L^T dL (lower) or dU U^T (upper), then Phi */
  lt_blas_trxm(e, 0, up, up, 1, 0, n, n, one, v->a, v->lda, W, ldw);
  lt_lapack_tri_scal(e, !up, 1, n, zero, W, ldw);
  lt_lapack_diag_scal(e, n, LLVMConstReal(e->fty, 0.5), W, ldw);
  /* L^-T W L^-1 (lower) or U^-1 W U^-T (upper) */
  lt_blas_trxm(e, 1, 0, up, !up, 0, n, n, one, v->a, v->lda, W, ldw);
  lt_blas_trxm(e, 1, 1, up, up, 0, n, n, one, v->a, v->lda, W, ldw);
  /* Phi(W + W^T) on the triangle */
  lt_lapack_tri_scal(e, up, 0, n, zero, v->da, v->ldda);
  lt_lapack_tri_add(e, up, 0, n, one, W, ldw, v->da, v->ldda);
  lt_lapack_tri_tadd(e, !up, n, W, ldw, v->da, v->ldda);
  lt_build_free(e->b, e->c->mod, W);
}

/* The blocked reverse of potrf (Murray 2016, section 3.3), on blocks of
 * CHOL_NB columns from the last: with the block's rows and columns
 * L = [L11 0 0; R D 0; B C L33] (lower; the transposes for upper), the
 * adjoints in the same places in dL,
 *   dC = dC D^-1, dB -= dC R, dD -= tril(dC^T C), dD = the block's
 *   symbolic reverse, dR -= dC^T B + (dD + dD^T) R,
 * which costs about twice the factorisation, nearly all of it in gemm
 * (the symbolic formula alone costs about nine times). A helper function
 * lt.lapack.cholrev.* (n, L, ld, dL, ldd), column-major. */
#define CHOL_NB 64

static LLVMValueRef at(LtBlasEm *e, LLVMValueRef p, LLVMValueRef i, LLVMValueRef j,
                       LLVMValueRef ld) {
  LtCtx *c = e->c;
  LLVMValueRef o = LLVMBuildAdd(e->b, LLVMBuildSExt(e->b, i, c->i64, ""),
                                LLVMBuildMul(e->b, LLVMBuildSExt(e->b, j, c->i64, ""),
                                             LLVMBuildSExt(e->b, ld, c->i64, ""), ""), "");
  return LLVMBuildGEP2(e->b, e->fty, p, &o, 1, "");
}

static void cholrev_body(LtBlasEm *e0, int up, LLVMValueRef f, LLVMBasicBlockRef entry) {
  LtCtx *c = e0->c;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->llctx, f, "block");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LtBlasEm e = *e0;
  e.b = b, e.fn = f, e.row = 0;
  LLVMValueRef n = LLVMGetParam(f, 0), L = LLVMGetParam(f, 1), ld = LLVMGetParam(f, 2);
  LLVMValueRef dL = LLVMGetParam(f, 3), ldd = LLVMGetParam(f, 4);
  LLVMValueRef zero = LLVMConstInt(e.ity, 0, 0);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, n, zero, ""), loop, done);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef k = LLVMBuildPhi(b, e.ity, "k");
  LLVMValueRef km = LLVMBuildSub(b, k, LLVMConstInt(e.ity, CHOL_NB, 0), "");
  LLVMValueRef j = LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, km, zero, ""), km, zero, "j");
  LLVMValueRef nb = LLVMBuildSub(b, k, j, ""), m = LLVMBuildSub(b, n, k, "");
  LLVMValueRef one = LLVMConstReal(e.fty, 1), mone = LLVMConstReal(e.fty, -1);
  LLVMValueRef fz = LLVMConstReal(e.fty, 0);
  /* R, D, B, C and their adjoints (upper: the transposed blocks) */
  LLVMValueRef R = up ? at(&e, L, zero, j, ld) : at(&e, L, j, zero, ld);
  LLVMValueRef D = at(&e, L, j, j, ld);
  LLVMValueRef B = up ? at(&e, L, zero, k, ld) : at(&e, L, k, zero, ld);
  LLVMValueRef C = up ? at(&e, L, j, k, ld) : at(&e, L, k, j, ld);
  LLVMValueRef dR = up ? at(&e, dL, zero, j, ldd) : at(&e, dL, j, zero, ldd);
  LLVMValueRef dD = at(&e, dL, j, j, ldd);
  LLVMValueRef dB = up ? at(&e, dL, zero, k, ldd) : at(&e, dL, k, zero, ldd);
  LLVMValueRef dC = up ? at(&e, dL, j, k, ldd) : at(&e, dL, k, j, ldd);
  LLVMValueRef ldt, T = lt_lapack_mat(&e, nb, nb, &ldt, 0);
  if (!up) {
    lt_blas_trxm(&e, 1, 1, 0, 0, 0, m, nb, one, D, ld, dC, ldd);
    lt_blas_gemm(&e, 0, 0, m, j, nb, mone, dC, ldd, R, ld, one, dB, ldd);
    lt_blas_gemm(&e, 1, 0, nb, nb, m, mone, dC, ldd, C, ld, fz, T, ldt);
  } else {
    lt_blas_trxm(&e, 1, 0, 1, 0, 0, nb, m, one, D, ld, dC, ldd);
    lt_blas_gemm(&e, 0, 0, j, m, nb, mone, R, ld, dC, ldd, one, dB, ldd);
    lt_blas_gemm(&e, 0, 1, nb, nb, m, mone, C, ld, dC, ldd, fz, T, ldt);
  }
  lt_lapack_tri_add(&e, up, 0, nb, one, T, ldt, dD, ldd);
  lt_build_free(b, c->mod, T);
  LtLapackVals v = {.n = nb, .a = D, .lda = ld, .da = dD, .ldda = ldd};
  rev_potrf(&e, up, &v);
  if (!up) {
    lt_blas_gemm(&e, 1, 0, nb, j, m, mone, dC, ldd, B, ld, one, dR, ldd);
    lt_blas_symm(&e, 0, 0, nb, j, mone, dD, ldd, R, ld, one, dR, ldd);
  } else {
    lt_blas_gemm(&e, 0, 1, j, nb, m, mone, B, ld, dC, ldd, one, dR, ldd);
    lt_blas_symm(&e, 1, 1, j, nb, mone, dD, ldd, R, ld, one, dR, ldd);
  }
  /* (dD + dD^T) counts dD's diagonal twice; symm once */
  lt_blas_line(&e, L_DSCALE, !up, 0, 0, j, nb, mone, R, ld, dR, ldd, dD, ldd);
  LLVMBasicBlockRef last = LLVMGetInsertBlock(b);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, j, zero, ""), loop, done);
  LLVMAddIncoming(k, (LLVMValueRef[]){n, j}, (LLVMBasicBlockRef[]){entry, last}, 2);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
}

/* potrf's reverse: blocked, column-major (a row-major triangle is the
 * other triangle of the same memory, S being symmetric). */
static void rev_potrf_blocked(LtBlasEm *e, int up, LtLapackVals *v) {
  LtCtx *c = e->c;
  if (e->row)
    up = !up;
  char name[64];
  snprintf(name, sizeof name, "lt.lapack.cholrev%c.%c%s.i%u", up ? 'u' : 'l',
           e->single ? 's' : 'd', e->fortran ? "f" : "c", LLVMGetIntTypeWidth(e->ity));
  LLVMTypeRef pt[5] = {e->ity, c->ptr, e->ity, c->ptr, e->ity};
  LLVMTypeRef ft = LLVMFunctionType(c->vd, pt, 5, 0);
  LLVMBasicBlockRef entry;
  LLVMValueRef f = lt_helper_fn(c, name, ft, &entry);
  if (entry)
    cholrev_body(e, up, f, entry);
  LLVMValueRef a[5] = {v->n, v->a, v->lda, v->da, v->ldda};
  for (unsigned k = 0; k < 5; k++)
    if (LLVMGetTypeKind(pt[k]) == LLVMIntegerTypeKind)
      a[k] = LLVMBuildIntCast2(e->b, a[k], e->ity, 1, "");
  LLVMBuildCall2(e->b, ft, f, a, 5, "");
}

/* potrs: dB = S^-1 dX; the factor gets tri((dS + dS^T) L) (lower) or
 * tri(U (dS + dS^T)) (upper), dS = -dB X^T: -(dB (L^T X)^T + X (L^T dB)^T)
 * or -((U dB) X^T + (U X) dB^T). */
static void rev_potrs(LtBlasEm *e, int up, LtLapackVals *v) {
  LLVMValueRef one = LLVMConstReal(e->fty, 1), mone = LLVMConstReal(e->fty, -1);
  LLVMValueRef n = v->n, r = v->nrhs, ldy, ldg;
  lt_lapack_potrs(e, up, n, r, v->a, v->lda, v->db, v->lddb);
  if (!v->da)
    return;
  LLVMValueRef Y1 = lt_lapack_copy(e, n, r, v->b, v->ldb, &ldy);
  LLVMValueRef Y2 = lt_lapack_copy(e, n, r, v->db, v->lddb, &ldy);
  lt_blas_trxm(e, 0, 0, up, !up, 0, n, r, one, v->a, v->lda, Y1, ldy);
  lt_blas_trxm(e, 0, 0, up, !up, 0, n, r, one, v->a, v->lda, Y2, ldy);
  LLVMValueRef G = lt_lapack_mat(e, n, n, &ldg, 0);
  if (!up) {
    lt_blas_gemm(e, 0, 1, n, n, r, mone, v->db, v->lddb, Y1, ldy, LLVMConstReal(e->fty, 0), G, ldg);
    lt_blas_gemm(e, 0, 1, n, n, r, mone, v->b, v->ldb, Y2, ldy, one, G, ldg);
  } else {
    lt_blas_gemm(e, 0, 1, n, n, r, mone, Y2, ldy, v->b, v->ldb, LLVMConstReal(e->fty, 0), G, ldg);
    lt_blas_gemm(e, 0, 1, n, n, r, mone, Y1, ldy, v->db, v->lddb, one, G, ldg);
  }
  lt_lapack_tri_add(e, up, 0, n, one, G, ldg, v->da, v->ldda);
  lt_build_free(e->b, e->c->mod, Y1);
  lt_build_free(e->b, e->c->mod, Y2);
  lt_build_free(e->b, e->c->mod, G);
}

void lt_lapack_getrf_rev(LtBlasEm *e, LtLapackVals *v) {
  LLVMValueRef one = LLVMConstReal(e->fty, 1), n = v->n, ldw;
  LLVMValueRef Wl = lt_lapack_mat(e, n, n, &ldw, 1), Wu = lt_lapack_mat(e, n, n, &ldw, 1);
  lt_lapack_tri_add(e, 0, 1, n, one, v->da, v->ldda, Wl, ldw);
  lt_blas_trxm(e, 0, 0, 0, 1, 1, n, n, one, v->a, v->lda, Wl, ldw); /* L^T dL */
  lt_lapack_tri_add(e, 1, 0, n, one, v->da, v->ldda, Wu, ldw);
  lt_blas_trxm(e, 0, 1, 1, 1, 0, n, n, one, v->a, v->lda, Wu, ldw); /* dU U^T */
  lt_blas_mscal(e, n, n, LLVMConstReal(e->fty, 0), v->da, v->ldda);
  lt_lapack_tri_add(e, 1, 0, n, one, Wu, ldw, v->da, v->ldda);
  lt_lapack_tri_add(e, 0, 1, n, one, Wl, ldw, v->da, v->ldda);
  lt_blas_trxm(e, 1, 0, 0, 1, 1, n, n, one, v->a, v->lda, v->da, v->ldda); /* L^-T */
  lt_blas_trxm(e, 1, 1, 1, 1, 0, n, n, one, v->a, v->lda, v->da, v->ldda); /* U^-T */
  lt_lapack_laswp(e, n, v->da, v->ldda, n, v->p, -1);
  lt_build_free(e->b, e->c->mod, Wl);
  lt_build_free(e->b, e->c->mod, Wu);
}

/* getrs: dB = op(A)^-T dX; dA = -u w^T with (u, w) = (dB, X), or (X, dB)
 * for op(A) = A^T: dL += tril_s((P^T u) (U w)^T), dU += triu((L^T P^T u)
 * w^T). */
static void rev_getrs(LtBlasEm *e, int ta, LtLapackVals *v) {
  LLVMValueRef one = LLVMConstReal(e->fty, 1), mone = LLVMConstReal(e->fty, -1);
  LLVMValueRef zero = LLVMConstReal(e->fty, 0), n = v->n, r = v->nrhs, ldy, ldg;
  lt_lapack_getrs(e, !ta, n, r, v->a, v->lda, v->p, v->db, v->lddb);
  if (!v->da)
    return;
  LLVMValueRef u = ta ? v->b : v->db, ldu = ta ? v->ldb : v->lddb;
  LLVMValueRef w = ta ? v->db : v->b, ldw = ta ? v->lddb : v->ldb;
  LLVMValueRef Y = lt_lapack_copy(e, n, r, u, ldu, &ldy);
  LLVMValueRef Z = lt_lapack_copy(e, n, r, w, ldw, &ldy);
  lt_lapack_laswp(e, r, Y, ldy, n, v->p, 1);
  lt_blas_trxm(e, 0, 0, 1, 0, 0, n, r, one, v->a, v->lda, Z, ldy);
  LLVMValueRef G = lt_lapack_mat(e, n, n, &ldg, 0);
  lt_blas_gemm(e, 0, 1, n, n, r, mone, Y, ldy, Z, ldy, zero, G, ldg);
  lt_lapack_tri_add(e, 0, 1, n, one, G, ldg, v->da, v->ldda);
  lt_blas_trxm(e, 0, 0, 0, 1, 1, n, r, one, v->a, v->lda, Y, ldy);
  lt_blas_gemm(e, 0, 1, n, n, r, mone, Y, ldy, w, ldw, zero, G, ldg);
  lt_lapack_tri_add(e, 1, 0, n, one, G, ldg, v->da, v->ldda);
  lt_build_free(e->b, e->c->mod, Y);
  lt_build_free(e->b, e->c->mod, Z);
  lt_build_free(e->b, e->c->mod, G);
}

/* gesv: dB = A^-T dX; dA = getrf's reverse of the factor's adjoint, and
 * -dB X^T. */
static void rev_gesv(LtBlasEm *e, LtLapackVals *v) {
  if (v->db)
    lt_lapack_getrs(e, 1, v->n, v->nrhs, v->a, v->lda, v->p, v->db, v->lddb);
  if (!v->da)
    return;
  lt_lapack_getrf_rev(e, v);
  if (v->db)
    lt_blas_gemm(e, 0, 1, v->n, v->n, v->nrhs, LLVMConstReal(e->fty, -1), v->db, v->lddb, v->b,
                 v->ldb, LLVMConstReal(e->fty, 1), v->da, v->ldda);
}

int lt_lapack_reverse(LtGen *g, LLVMValueRef call) {
  LtCtx *c = g->c;
  LtBlasNeed nd;
  lt_plan_blas(&g->fx, call, &nd);
  if (!nd.any)
    return 0;
  if (g->parallel) {
    lt_error(c, call, "'%s' on active data inside an OpenMP parallel region is not "
                      "supported yet; call it outside the region",
             lt_callee_name(call, &(size_t){0}));
    return -1;
  }
  LtBlasCall *d = &nd.d;
  LtBlasEm e;
  lt_blas_em_init(&e, c, g->b, g->R, d, call);
  LLVMValueRef rec = nd.slot ? lt_tape_load_at(g, LT_SLOT_CUSTOMTAPE, call, record_ty(c, d), g->b)
                             : NULL;
  LLVMValueRef ints[NINT];
  for (int k = 0; k < NINT; k++) {
    int op = int_op(d, k);
    if (op < 0)
      ints[k] = LLVMConstInt(e.ity, 0, 0);
    else if (d->fortran)
      ints[k] = LLVMBuildTrunc(
          g->b,
          LLVMBuildExtractValue(g->b, LLVMBuildExtractValue(g->b, rec, 1, ""), (unsigned)k, ""),
          e.ity, "");
    else
      ints[k] = lt_rv(g, LLVMGetOperand(call, (unsigned)op));
  }
  LtLapackVals v;
  memset(&v, 0, sizeof v);
  v.n = ints[I_N];
  v.nrhs = ints[I_NRHS];
  v.lda = v.ldda = ints[I_LDA];
  v.ldb = v.lddb = ints[I_LDB];
  LLVMValueRef *pv[NROLE] = {&v.a, &v.b, NULL, NULL, NULL, &v.p};
  LLVMValueRef *ps[NROLE] = {&v.da, &v.db};
  LLVMValueRef block = rec && d->fortran ? LLVMBuildExtractValue(g->b, rec, 0, "") : rec;
  LLVMValueRef at[NROLE] = {0}, ld[NROLE] = {0};
  int cached = nd.cache[RA] || nd.cache[RB] || nd.cache[RP];
  if (cached)
    places(&e, &nd, v.n, v.nrhs, block, at, ld);
  for (int r = 0; r < NROLE; r++) {
    if (nd.op[r] < 0)
      continue;
    LLVMValueRef p = LLVMGetOperand(call, (unsigned)nd.op[r]);
    if (pv[r] && nd.read[r] && !nd.from[r])
      *pv[r] = nd.cache[r] ? at[r] : lt_rv(g, p);
    if (r < RC && nd.sh[r])
      *ps[r] = lt_rs(g, p);
  }
  if (nd.cache[RA])
    v.lda = ld[RA];
  if (nd.cache[RB])
    v.ldb = ld[RB];
  LLVMValueRef from = nd.from[RA] ? nd.from[RA] : nd.from[RP];
  if (from) {
    /* the factorisation's copies (of the same n x n matrix) */
    LtBlasNeed pn;
    lt_plan_blas(&g->fx, from, &pn);
    LLVMValueRef prec =
        lt_tape_load_at(g, LT_SLOT_CUSTOMTAPE, from, record_ty(c, &pn.d), g->b);
    LLVMValueRef pat[NROLE] = {0}, pld[NROLE] = {0};
    places(&e, &pn, v.n, v.nrhs, pn.d.fortran ? LLVMBuildExtractValue(g->b, prec, 0, "") : prec,
           pat, pld);
    if (nd.from[RA])
      v.a = pat[RA], v.lda = pld[RA];
    if (nd.from[RP])
      v.p = pat[RP];
  }
  switch (d->kind) {
  case LT_BLAS_POTRF:
    rev_potrf_blocked(&e, d->up, &v);
    break;
  case LT_BLAS_POTRS:
    rev_potrs(&e, d->up, &v);
    break;
  case LT_BLAS_GETRF:
    lt_lapack_getrf_rev(&e, &v);
    break;
  case LT_BLAS_GETRS:
    rev_getrs(&e, d->tra, &v);
    break;
  default:
    rev_gesv(&e, &v);
    break;
  }
  if (cached)
    lt_build_free(g->b, c->mod, block);
  return 0;
}
