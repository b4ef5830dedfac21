/* blasfwd.c: the tangents of BLAS calls, as BLAS calls (forward mode).
 *
 * The product rule of each routine, lane by lane for enzyme_width > 1:
 * for C = a op(A) op(B) + b C, dC = a op(dA) op(B) + a op(A) op(dB)
 * + da op(A) op(B) + b dC + db C, the first term's gemm doing the b dC;
 * for the other routines the same identities as in gen/blas.c. The
 * tangent of a routine that overwrites its input (scal's x, gemv's y,
 * gemm's C) is computed before the primal call, which then overwrites the
 * old value; that of a result (dot, nrm2, asum) and of trsv (which needs
 * the solution) after it. Nothing is
 * taped: forward mode has no reverse pass.
 */
#include "lt.h"

#include <string.h>

enum { RA, RB, RC, RX, RY, NROLE };

typedef struct Lane {
  LtBlasVals v;        /* primal values */
  LtBlasVals s;        /* shadows (NULL: none), original strides */
  LLVMValueRef dal, dbe; /* tangents of alpha and beta, or NULL */
} Lane;


static void tan_gemm(LtBlasEm *e, const LtBlasCall *d, Lane *L) {
  LtBlasVals *v = &L->v, *s = &L->s;
  LLVMValueRef one = LLVMConstReal(e->fty, 1);
  int used = 0;
  struct { LLVMValueRef coef, A, B; } t[3] = {{v->alpha, s->a, v->b},
                                              {v->alpha, v->a, s->b},
                                              {L->dal, v->a, v->b}};
  for (int k = 0; k < 3; k++)
    if (t[k].coef && t[k].A && t[k].B) {
      lt_blas_gemm(e, d->tra, d->trb, v->m, v->n, v->k, t[k].coef, t[k].A, v->lda, t[k].B, v->ldb,
                   used ? one : v->beta, s->c, v->ldc);
      used = 1;
    }
  if (!used && !lt_blas_is_one(v->beta))
    lt_blas_mscal(e, v->m, v->n, v->beta, s->c, v->ldc);
  if (L->dbe)
    lt_blas_maxpy(e, v->m, v->n, L->dbe, v->c, v->ldc, s->c, v->ldc);
}

static void tan_gemv(LtBlasEm *e, const LtBlasCall *d, Lane *L) {
  LtBlasVals *v = &L->v, *s = &L->s;
  LLVMValueRef one = LLVMConstReal(e->fty, 1), leny = d->tra ? v->n : v->m;
  int used = 0;
  struct { LLVMValueRef coef, A, x; } t[3] = {{v->alpha, s->a, v->x},
                                              {v->alpha, v->a, s->x},
                                              {L->dal, v->a, v->x}};
  for (int k = 0; k < 3; k++)
    if (t[k].coef && t[k].A && t[k].x) {
      lt_blas_gemv(e, d->tra, v->m, v->n, t[k].coef, t[k].A, v->lda, t[k].x, v->incx,
                   used ? one : v->beta, s->y, v->incy);
      used = 1;
    }
  if (!used && !lt_blas_is_one(v->beta))
    lt_blas_scal(e, leny, v->beta, s->y, v->incy);
  if (L->dbe)
    lt_blas_axpy(e, leny, L->dbe, v->y, v->incy, s->y, v->incy);
}

static void tan_symv(LtBlasEm *e, const LtBlasCall *d, Lane *L) {
  LtBlasVals *v = &L->v, *s = &L->s;
  LLVMValueRef one = LLVMConstReal(e->fty, 1);
  int used = 0;
  struct { LLVMValueRef coef, A, x; } t[3] = {{v->alpha, s->a, v->x},
                                              {v->alpha, v->a, s->x},
                                              {L->dal, v->a, v->x}};
  for (int k = 0; k < 3; k++)
    if (t[k].coef && t[k].A && t[k].x) {
      lt_blas_symv(e, d->up, v->n, t[k].coef, t[k].A, v->lda, t[k].x, v->incx,
                   used ? one : v->beta, s->y, v->incy);
      used = 1;
    }
  if (!used && !lt_blas_is_one(v->beta))
    lt_blas_scal(e, v->n, v->beta, s->y, v->incy);
  if (L->dbe)
    lt_blas_axpy(e, v->n, L->dbe, v->y, v->incy, s->y, v->incy);
}

/* trmv, before the call: dx = op(T) dx + op(dT) x_old; trsv, after it:
 * dx = op(T)^-1 (dx - op(dT) x_new). op(dT) x as trmv on dT, whose unit
 * diagonal (not part of dT) adds x, taken off again. */
static void tan_trxv(LtBlasEm *e, const LtBlasCall *d, Lane *L) {
  LtBlasVals *v = &L->v, *s = &L->s;
  int solve = d->kind == LT_BLAS_TRSV;
  LLVMValueRef i1 = LLVMConstInt(e->ity, 1, 0), t = NULL;
  if (s->a) {
    t = lt_blas_pack(e, v->n, v->x, v->incx);
    lt_blas_trxv(e, 0, d->up, d->tra, d->unit, v->n, s->a, v->lda, t, i1);
    if (d->unit)
      lt_blas_axpy(e, v->n, LLVMConstReal(e->fty, -1), v->x, v->incx, t, i1);
  }
  if (!solve)
    lt_blas_trxv(e, 0, d->up, d->tra, d->unit, v->n, v->a, v->lda, s->x, v->incx);
  if (t) {
    lt_blas_axpy(e, v->n, LLVMConstReal(e->fty, solve ? -1 : 1), t, i1, s->x, v->incx);
    lt_build_free(e->b, e->c->mod, t);
  }
  if (solve)
    lt_blas_trxv(e, 1, d->up, d->tra, d->unit, v->n, v->a, v->lda, s->x, v->incx);
}

/* symm: as gemm; syrk: dC = a (op(dA) op(A)^T + op(A) op(dA)^T) + da
 * op(A) op(A)^T + b dC + db C on C's triangle. */
static void tan_symm_syrk(LtBlasEm *e, const LtBlasCall *d, Lane *L) {
  LtBlasVals *v = &L->v, *s = &L->s;
  LLVMValueRef one = LLVMConstReal(e->fty, 1);
  int used = 0, syrk = d->kind == LT_BLAS_SYRK, tri = d->up ? 1 : 2;
  if (syrk) {
    if (s->a)
      lt_blas_syrk(e, d->up, d->tra, v->n, v->k, v->alpha, s->a, v->lda, v->a, v->lda, v->beta,
                   s->c, v->ldc);
    if (L->dal)
      lt_blas_syrk(e, d->up, d->tra, v->n, v->k, L->dal, v->a, v->lda, NULL, NULL,
                   s->a ? one : v->beta, s->c, v->ldc);
    if (!s->a && !L->dal && !lt_blas_is_one(v->beta))
      lt_blas_line(e, L_SCAL, 0, tri, 0, v->n, v->n, v->beta, s->c, v->ldc, NULL, NULL, NULL, NULL);
    if (L->dbe)
      lt_blas_line(e, L_AXPY, 0, tri, 0, v->n, v->n, L->dbe, v->c, v->ldc, s->c, v->ldc, NULL, NULL);
    return;
  }
  struct { LLVMValueRef coef, A, B; } t[3] = {{v->alpha, s->a, v->b},
                                              {v->alpha, v->a, s->b},
                                              {L->dal, v->a, v->b}};
  for (int k = 0; k < 3; k++)
    if (t[k].coef && t[k].A && t[k].B) {
      lt_blas_symm(e, d->right, d->up, v->m, v->n, t[k].coef, t[k].A, v->lda, t[k].B, v->ldb,
                   used ? one : v->beta, s->c, v->ldc);
      used = 1;
    }
  if (!used && !lt_blas_is_one(v->beta))
    lt_blas_mscal(e, v->m, v->n, v->beta, s->c, v->ldc);
  if (L->dbe)
    lt_blas_maxpy(e, v->m, v->n, L->dbe, v->c, v->ldc, s->c, v->ldc);
}

/* A packed copy of the m x n matrix X with op(T) (coef a, T = dT without
 * a unit diagonal: its a X taken off) applied, in scratch (ld max(m, 1)). */
static LLVMValueRef tri_times(LtBlasEm *e, const LtBlasCall *d, LtBlasVals *v, LLVMValueRef a,
                              LLVMValueRef T, int strict, LLVMValueRef X, LLVMValueRef ldx,
                              LLVMValueRef *ldw) {
  LtCtx *c = e->c;
  LLVMValueRef m = LLVMBuildSExt(e->b, v->m, c->i64, ""), n = LLVMBuildSExt(e->b, v->n, c->i64, "");
  LLVMValueRef W = lt_blas_scratch(e, LLVMBuildMul(e->b, m, n, ""));
  *ldw = lt_blas_max1(e, v->m);
  lt_blas_mcopy(e, v->m, v->n, X, ldx, W);
  lt_blas_trxm(e, 0, d->right, d->up, d->tra, d->unit, v->m, v->n, a, T, v->lda, W, *ldw);
  if (strict && d->unit)
    lt_blas_maxpy(e, v->m, v->n, LLVMBuildFNeg(e->b, a, ""), X, ldx, W, *ldw);
  return W;
}

/* trmm, before the call: dB = a op(T) dB + a op(dT) B + da op(T) B. */
static void tan_trmm(LtBlasEm *e, const LtBlasCall *d, Lane *L) {
  LtBlasVals *v = &L->v, *s = &L->s;
  LLVMValueRef one = LLVMConstReal(e->fty, 1), W = NULL, W2 = NULL, ldw, ldw2;
  if (s->a)
    W = tri_times(e, d, v, v->alpha, s->a, 1, v->b, v->ldb, &ldw);
  if (L->dal)
    W2 = tri_times(e, d, v, L->dal, v->a, 0, v->b, v->ldb, &ldw2);
  lt_blas_trxm(e, 0, d->right, d->up, d->tra, d->unit, v->m, v->n, v->alpha, v->a, v->lda, s->b,
               v->ldb);
  LLVMValueRef Ws[2] = {W, W2}, lds[2] = {W ? ldw : NULL, W2 ? ldw2 : NULL};
  for (int k = 0; k < 2; k++)
    if (Ws[k]) {
      lt_blas_maxpy(e, v->m, v->n, one, Ws[k], lds[k], s->b, v->ldb);
      lt_build_free(e->b, e->c->mod, Ws[k]);
    }
}

/* trsm: op(T) X = a B, so op(T) dX = a dB + da B - op(dT) X: before the
 * call dB = a dB + da B (B still the old one), after it the rest. */
static void tan_trsm(LtBlasEm *e, const LtBlasCall *d, Lane *L, int after) {
  LtBlasVals *v = &L->v, *s = &L->s;
  if (!after) {
    if (!lt_blas_is_one(v->alpha))
      lt_blas_mscal(e, v->m, v->n, v->alpha, s->b, v->ldb);
    if (L->dal)
      lt_blas_maxpy(e, v->m, v->n, L->dal, v->b, v->ldb, s->b, v->ldb);
    return;
  }
  if (s->a) {
    LLVMValueRef ldw, W = tri_times(e, d, v, LLVMConstReal(e->fty, 1), s->a, 1, v->b, v->ldb, &ldw);
    lt_blas_maxpy(e, v->m, v->n, LLVMConstReal(e->fty, -1), W, ldw, s->b, v->ldb);
    lt_build_free(e->b, e->c->mod, W);
  }
  lt_blas_trxm(e, 1, d->right, d->up, d->tra, d->unit, v->m, v->n, LLVMConstReal(e->fty, 1), v->a,
               v->lda, s->b, v->ldb);
}

static void tan_ger(LtBlasEm *e, Lane *L) {
  LtBlasVals *v = &L->v, *s = &L->s;
  if (s->x)
    lt_blas_ger(e, v->m, v->n, v->alpha, s->x, v->incx, v->y, v->incy, s->a, v->lda);
  if (s->y)
    lt_blas_ger(e, v->m, v->n, v->alpha, v->x, v->incx, s->y, v->incy, s->a, v->lda);
  if (L->dal)
    lt_blas_ger(e, v->m, v->n, L->dal, v->x, v->incx, v->y, v->incy, s->a, v->lda);
}

/* Routines that write memory: their tangent, before the primal call
 * (trsv's after it). */
static void tan_inplace(LtBlasEm *e, const LtBlasCall *d, Lane *L) {
  LtBlasVals *v = &L->v, *s = &L->s;
  LLVMValueRef zero = LLVMConstReal(e->fty, 0);
  switch (d->kind) {
  case LT_BLAS_GEMM:
    if (s->c)
      tan_gemm(e, d, L);
    break;
  case LT_BLAS_GEMV:
    if (s->y)
      tan_gemv(e, d, L);
    break;
  case LT_BLAS_GER:
    if (s->a)
      tan_ger(e, L);
    break;
  case LT_BLAS_SYMV:
    if (s->y)
      tan_symv(e, d, L);
    break;
  case LT_BLAS_SYMM:
  case LT_BLAS_SYRK:
    if (s->c)
      tan_symm_syrk(e, d, L);
    break;
  case LT_BLAS_TRMM:
    if (s->b)
      tan_trmm(e, d, L);
    break;
  case LT_BLAS_TRMV:
  case LT_BLAS_TRSV: /* trsv: called after the primal call */
    if (s->x)
      tan_trxv(e, d, L);
    break;
  case LT_BLAS_AXPY:
    if (s->y && s->x)
      lt_blas_axpy(e, v->n, v->alpha, s->x, v->incx, s->y, v->incy);
    if (s->y && L->dal)
      lt_blas_axpy(e, v->n, L->dal, v->x, v->incx, s->y, v->incy);
    break;
  case LT_BLAS_SCAL:
    if (s->x)
      lt_blas_scal(e, v->n, v->alpha, s->x, v->incx);
    if (s->x && L->dal)
      lt_blas_axpy(e, v->n, L->dal, v->x, v->incx, s->x, v->incx);
    break;
  case LT_BLAS_COPY:
    if (s->y && s->x)
      lt_blas_copy(e, v->n, s->x, v->incx, s->y, v->incy);
    else if (s->y)
      lt_blas_scal(e, v->n, zero, s->y, v->incy);
    break;
  case LT_BLAS_SWAP:
    /* a side without a shadow holds inactive data: the other gets zero */
    if (s->x && s->y)
      lt_blas_swap(e, v->n, s->x, v->incx, s->y, v->incy);
    else if (s->x || s->y)
      lt_blas_scal(e, v->n, zero, s->x ? s->x : s->y, s->x ? v->incx : v->incy);
    break;
  default:
    break;
  }
}

/* Routines with a result: its tangent, after the primal call r. */
static LLVMValueRef tan_result(LtBlasEm *e, const LtBlasCall *d, Lane *L, LLVMValueRef r) {
  LtBlasVals *v = &L->v, *s = &L->s;
  LLVMValueRef zero = LLVMConstReal(e->fty, 0), acc = zero;
  switch (d->kind) {
  case LT_BLAS_DOT:
    if (s->x)
      acc = LLVMBuildFAdd(e->b, acc, lt_blas_dot(e, v->n, s->x, v->incx, v->y, v->incy), "");
    if (s->y)
      acc = LLVMBuildFAdd(e->b, acc, lt_blas_dot(e, v->n, v->x, v->incx, s->y, v->incy), "");
    return acc;
  case LT_BLAS_NRM2: {
    if (!s->x)
      return zero;
    LLVMValueRef q = LLVMBuildFDiv(e->b, lt_blas_dot(e, v->n, v->x, v->incx, s->x, v->incx), r, "");
    return LLVMBuildSelect(e->b, LLVMBuildFCmp(e->b, LLVMRealOEQ, r, zero, ""), zero, q, "");
  }
  default: /* asum */
    return s->x ? lt_blas_asum_tan(e, v->n, v->x, v->incx, s->x) : zero;
  }
}

int lt_blas_tangent(LtTg *t, LLVMValueRef call) {
  LtCtx *c = t->c;
  LtBlasCall d;
  LtBlasKind k = lt_blas_call(call, &d);
  LtActivity *act = &t->g->act_of;
  if (k == LT_BLAS_UNSUPPORTED || k == LT_BLAS_NONE)
    return 0; /* inactive (activity.c reports active ones) */
  if (lt_blas_is_lapack(k))
    return lt_lapack_tangent(t, call, &d);
  int result = d.kind == LT_BLAS_DOT || d.kind == LT_BLAS_NRM2 || d.kind == LT_BLAS_ASUM;
  if (result && !lt_is_varied(act, call))
    return 0;
  LLVMValueRef tc = lt_tg_val(t, call);
  LLVMBuilderRef pre = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(pre, tc);
  /* shadows, tangents and lanes are read before the primal call too */
  LLVMBuilderRef post = t->b;
  t->b = pre;
  LtBlasEm e;
  lt_blas_em_init(&e, c, pre, t->T, &d, call);
  Lane L;
  memset(&L, 0, sizeof L);
  int *ir[8] = {&d.m, &d.n, &d.k, &d.lda, &d.ldb, &d.ldc, &d.incx, &d.incy};
  LLVMValueRef *iv[8] = {&L.v.m, &L.v.n, &L.v.k, &L.v.lda, &L.v.ldb, &L.v.ldc, &L.v.incx, &L.v.incy};
  for (int q = 0; q < 8; q++) {
    LLVMValueRef x = *ir[q] >= 0 ? LLVMGetOperand(tc, (unsigned)*ir[q]) : LLVMConstInt(e.ity, 0, 0);
    *iv[q] = *ir[q] >= 0 && d.fortran ? LLVMBuildLoad2(pre, e.ity, x, "") : x;
  }
  int sc[2] = {d.alpha, d.beta};
  LLVMValueRef *sv[2] = {&L.v.alpha, &L.v.beta}, dsc[2] = {NULL, NULL};
  for (int q = 0; q < 2; q++) {
    if (sc[q] < 0)
      continue;
    LLVMValueRef p = LLVMGetOperand(call, (unsigned)sc[q]), x = LLVMGetOperand(tc, (unsigned)sc[q]);
    *sv[q] = d.fortran ? LLVMBuildLoad2(pre, e.fty, x, "") : x;
    if (d.fortran ? lt_is_shadowed(act, p) : lt_is_varied(act, p))
      dsc[q] = d.fortran ? lt_tg_shadow(t, p) : lt_tg_tan(t, p);
  }
  int ops[NROLE] = {d.a, d.b, d.c, d.x, d.y};
  LLVMValueRef sh[NROLE];
  for (int r = 0; r < NROLE; r++) {
    LLVMValueRef p = ops[r] >= 0 ? LLVMGetOperand(call, (unsigned)ops[r]) : NULL;
    sh[r] = p && lt_is_shadowed(act, p) ? lt_tg_shadow(t, p) : NULL;
    LLVMValueRef *vp[NROLE] = {&L.v.a, &L.v.b, &L.v.c, &L.v.x, &L.v.y};
    *vp[r] = p ? LLVMGetOperand(tc, (unsigned)ops[r]) : NULL;
  }
  LLVMValueRef lanes[64];
  for (unsigned l = 0; l < t->W && l < 64; l++) {
    LLVMValueRef *sp[NROLE] = {&L.s.a, &L.s.b, &L.s.c, &L.s.x, &L.s.y};
    for (int r = 0; r < NROLE; r++)
      *sp[r] = sh[r] ? lt_tg_lane(t, sh[r], c->ptr, l) : NULL;
    LLVMValueRef *dp[2] = {&L.dal, &L.dbe};
    for (int q = 0; q < 2; q++) {
      *dp[q] = NULL;
      if (dsc[q] && d.fortran)
        *dp[q] = LLVMBuildLoad2(pre, e.fty, lt_tg_lane(t, dsc[q], c->ptr, l), "");
      else if (dsc[q])
        *dp[q] = lt_tg_lane(t, dsc[q], e.fty, l);
    }
    if (d.kind == LT_BLAS_TRSM && L.s.b) {
      tan_trsm(&e, &d, &L, 0);
      e.b = post;
      tan_trsm(&e, &d, &L, 1);
      e.b = pre;
      continue;
    }
    if (!result) {
      e.b = d.kind == LT_BLAS_TRSV ? post : pre;
      tan_inplace(&e, &d, &L);
      e.b = pre;
      continue;
    }
    e.b = post;
    lanes[l] = tan_result(&e, &d, &L, tc);
    e.b = pre;
  }
  t->b = post;
  if (result)
    lt_map_put(&t->tan, call, lt_tg_join(t, lanes, LLVMTypeOf(call)));
  LLVMDisposeBuilder(pre);
  return 0;
}
