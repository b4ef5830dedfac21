/* blas.c: the reverse of BLAS calls, as BLAS calls (analysis/blas.c says
 * what a call is, in column-major form; blasrt.c emits the calls).
 *
 * Each rule is the matrix-calculus identity of its routine, e.g. for
 * C = a op(A) op(B) + b C: dA += a dC op(B)^T (transposed as op(A) is),
 * dB += a op(A)^T dC, da += <dC, op(A) op(B)>, db += <dC, C_old>,
 * dC *= b. Which operands R reads again and which A copies is the plan's
 * (plan/blas.c); the copies go, whole and packed, into one block per call
 * execution whose address the tape keeps (with Fortran's scalars, which
 * live behind pointers), and R frees it.
 */
#include "lt.h"

#include <string.h>

enum { RA = LT_BR_A, RB, RC, RX, RY, NROLE };
typedef LtBlasNeed Need;

static void need_of(LtGen *g, LLVMValueRef call, Need *nd) { lt_plan_blas(&g->fx, call, nd); }

static int cached(const Need *nd) {
  for (int r = 0; r < NROLE; r++)
    if (nd->cache[r])
      return 1;
  return 0;
}

/* The record's type: the copies' block, and for Fortran the integers
 * (m, n, k, lda, ldb, ldc, incx, incy) and scalars (alpha, beta). */
static LLVMTypeRef record_ty(LtCtx *c, const LtBlasCall *d) {
  if (!d->fortran)
    return c->ptr;
  LLVMTypeRef f[3] = {c->ptr, LLVMArrayType2(c->i64, 8),
                      LLVMArrayType2(d->single ? LLVMFloatTypeInContext(c->llctx) : c->f64, 2)};
  return LLVMStructTypeInContext(c->llctx, f, 3, 0);
}

static int *int_role(LtBlasCall *d, int k) {
  int *r[8] = {&d->m, &d->n, &d->k, &d->lda, &d->ldb, &d->ldc, &d->incx, &d->incy};
  return r[k];
}

/* The rows and columns of role r (vectors: length and 1), and where its
 * leading dimension or stride is. */
static void extent(const Need *nd, LtBlasVals *v, int r, LLVMValueRef *rows, LLVMValueRef *cols,
                   LLVMValueRef **ld) {
  const LtBlasCall *d = &nd->d;
  LLVMValueRef one = LLVMConstInt(LLVMTypeOf(v->n), 1, 0);
  *cols = one;
  switch (r) {
  case RA:
    *ld = &v->lda;
    if (d->kind == LT_BLAS_SYMV || d->kind == LT_BLAS_TRMV || d->kind == LT_BLAS_TRSV) {
      *rows = *cols = v->n;
      return;
    }
    if (d->kind == LT_BLAS_SYMM || d->kind == LT_BLAS_TRMM || d->kind == LT_BLAS_TRSM) {
      *rows = *cols = d->right ? v->n : v->m;
      return;
    }
    if (d->kind == LT_BLAS_SYRK) {
      *rows = d->tra ? v->k : v->n;
      *cols = d->tra ? v->n : v->k;
      return;
    }
    *rows = d->kind == LT_BLAS_GEMM && d->tra ? v->k : v->m;
    *cols = d->kind != LT_BLAS_GEMM ? v->n : d->tra ? v->m : v->k;
    *ld = &v->lda;
    return;
  case RB:
    *rows = d->kind != LT_BLAS_GEMM ? v->m : d->trb ? v->n : v->k;
    *cols = d->kind != LT_BLAS_GEMM ? v->n : d->trb ? v->k : v->n;
    *ld = &v->ldb;
    return;
  case RC:
    *rows = d->kind == LT_BLAS_SYRK ? v->n : v->m;
    *cols = v->n;
    *ld = &v->ldc;
    return;
  case RX:
    *rows = d->kind == LT_BLAS_GEMV ? (d->tra ? v->m : v->n) : d->kind == LT_BLAS_GER ? v->m : v->n;
    *ld = &v->incx;
    return;
  default:
    *rows = d->kind == LT_BLAS_GEMV ? (d->tra ? v->n : v->m) : v->n;
    *ld = &v->incy;
    return;
  }
}

static LLVMValueRef *ptr_role(LtBlasVals *v, int r) {
  LLVMValueRef *p[NROLE] = {&v->a, &v->b, &v->c, &v->x, &v->y};
  return p[r];
}

static LLVMValueRef nonneg(LLVMBuilderRef b, LtCtx *c, LLVMValueRef x) {
  x = LLVMBuildSExt(b, x, c->i64, "");
  return LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntSGT, x, LLVMConstInt(c->i64, 0, 0), ""), x,
                         LLVMConstInt(c->i64, 0, 0), "");
}

/* The copies' places in the block (A makes them, R reads them): role
 * pointers and leading dimensions redirected there; the block's bytes. */
static LLVMValueRef layout(LtBlasEm *e, const Need *nd, LtBlasVals *v, LLVMValueRef block,
                           int copy) {
  LtCtx *c = e->c;
  LLVMBuilderRef b = e->b;
  LLVMValueRef off = LLVMConstInt(c->i64, 0, 0);
  unsigned es = nd->d.single ? 4 : 8;
  for (int r = 0; r < NROLE; r++) {
    if (!nd->cache[r])
      continue;
    LLVMValueRef rows, cols, *ld;
    extent(nd, v, r, &rows, &cols, &ld);
    LLVMValueRef nr = nonneg(b, c, rows);
    LLVMValueRef cnt = LLVMBuildMul(b, nr, nonneg(b, c, cols), "");
    LLVMValueRef at = block ? LLVMBuildGEP2(b, c->i8, block, &off, 1, "lt.blas.copy") : NULL;
    if (copy && (r == RX || r == RY))
      lt_blas_copy(e, rows, *ptr_role(v, r), *ld, at, LLVMConstInt(c->i32, 1, 0));
    else if (copy)
      lt_blas_mcopy(e, rows, cols, *ptr_role(v, r), *ld, at);
    *ptr_role(v, r) = at;
    /* a packed leading dimension is at least 1 (BLAS checks it) */
    *ld = r == RX || r == RY
              ? LLVMConstInt(LLVMTypeOf(v->n), 1, 0)
              : LLVMBuildTrunc(b, LLVMBuildSelect(b, LLVMBuildICmp(b, LLVMIntUGT, nr,
                                                                   LLVMConstInt(c->i64, 1, 0), ""),
                                                  nr, LLVMConstInt(c->i64, 1, 0), ""),
                               LLVMTypeOf(v->n), "");
    off = LLVMBuildAdd(b, off, LLVMBuildMul(b, cnt, LLVMConstInt(c->i64, es, 0), ""), "");
  }
  return off;
}

/* A's side: the record, before acall. */
int lt_blas_forward(LtGen *g, LLVMValueRef call, LLVMValueRef acall) {
  LtCtx *c = g->c;
  if (lt_blas_is_lapack(lt_blas_call(call, NULL)))
    return lt_lapack_forward(g, call, acall);
  Need nd;
  need_of(g, call, &nd);
  if (!nd.slot)
    return 0;
  LtBlasCall *d = &nd.d;
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderBefore(b, acall);
  LtBlasEm e;
  lt_blas_em_init(&e, c, b, g->A, d, call);
  LtBlasVals v;
  memset(&v, 0, sizeof v);
  LLVMValueRef ints[8], rec = LLVMGetUndef(record_ty(c, d));
  for (int k = 0; k < 8; k++) {
    int op = *int_role(d, k);
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
  v.m = ints[0], v.n = ints[1], v.k = ints[2], v.lda = ints[3], v.ldb = ints[4];
  v.ldc = ints[5], v.incx = ints[6], v.incy = ints[7];
  int sc[2] = {d->alpha, d->beta};
  for (int k = 0; k < 2 && d->fortran; k++)
    if (sc[k] >= 0) {
      LLVMValueRef x = LLVMBuildLoad2(b, e.fty, LLVMGetOperand(acall, (unsigned)sc[k]), "");
      rec = LLVMBuildInsertValue(
          b, rec, LLVMBuildInsertValue(b, LLVMBuildExtractValue(b, rec, 2, ""), x, (unsigned)k, ""),
          2, "");
    }
  for (int r = 0; r < NROLE; r++)
    if (nd.op[r] >= 0)
      *ptr_role(&v, r) = LLVMGetOperand(acall, (unsigned)nd.op[r]);
  /* the size first, then the block and the copies */
  LtBlasVals sz = v;
  LLVMValueRef block = LLVMConstNull(c->ptr);
  if (cached(&nd)) {
    LLVMValueRef bytes = layout(&e, &nd, &sz, NULL, 0);
    block = lt_build_malloc(b, c->mod, LLVMBuildAdd(b, bytes, LLVMConstInt(c->i64, 1, 0), ""));
    layout(&e, &nd, &v, block, 1);
  }
  LLVMValueRef val = d->fortran ? LLVMBuildInsertValue(b, rec, block, 0, "lt.blas.rec") : block;
  lt_map_put(&g->custom_tape, call, val);
  LLVMDisposeBuilder(b);
  return 0;
}

/* R: the adjoint of alpha (k 0) or beta (k 1) gets d. */
void lt_blas_scalar_adj(LtGen *g, const LtBlasNeed *nd, LLVMValueRef call, int k, LLVMValueRef d) {
  LLVMValueRef p = LLVMGetOperand(call, (unsigned)(k ? nd->d.beta : nd->d.alpha));
  if (!nd->d.fortran) {
    lt_adj_add(g, p, d);
    return;
  }
  LLVMValueRef sp = lt_rs(g, p);
  LLVMValueRef old = LLVMBuildLoad2(g->b, LLVMTypeOf(d), sp, "");
  LLVMBuildStore(g->b, lt_build_accum(g->b, old, d), sp);
}

int lt_blas_is_one(LLVMValueRef v) {
  LLVMBool loses;
  return v && LLVMIsAConstantFP(v) && LLVMConstRealGetDouble(v, &loses) == 1.0;
}

#define scratch lt_blas_scratch

LLVMValueRef lt_blas_max1(LtBlasEm *e, LLVMValueRef x) {
  return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, x, LLVMConstInt(LLVMTypeOf(x), 1, 0), ""),
                         x, LLVMConstInt(LLVMTypeOf(x), 1, 0), "");
}

/* C = a op(A) op(B) + b C (column-major, C m x n, op(A) m x k). */
static void rev_gemm(LtGen *g, LtBlasEm *e, const Need *nd, LLVMValueRef call, LtBlasVals *v,
                     LtBlasVals *s) {
  int ta = nd->d.tra, tb = nd->d.trb;
  LLVMValueRef one = LLVMConstReal(e->fty, 1), zero = LLVMConstReal(e->fty, 0);
  if (s->a && !ta)
    lt_blas_gemm(e, 0, !tb, v->m, v->k, v->n, v->alpha, s->c, s->ldc, v->b, v->ldb, one, s->a, s->lda);
  else if (s->a)
    lt_blas_gemm(e, tb, 1, v->k, v->m, v->n, v->alpha, v->b, v->ldb, s->c, s->ldc, one, s->a, s->lda);
  if (s->b && !tb)
    lt_blas_gemm(e, !ta, 0, v->k, v->n, v->m, v->alpha, v->a, v->lda, s->c, s->ldc, one, s->b, s->ldb);
  else if (s->b)
    lt_blas_gemm(e, 1, ta, v->n, v->k, v->m, v->alpha, s->c, s->ldc, v->a, v->lda, one, s->b, s->ldb);
  if (nd->al) {
    LLVMValueRef mn = LLVMBuildMul(e->b, nonneg(e->b, e->c, v->m), nonneg(e->b, e->c, v->n), "");
    LLVMValueRef t = scratch(e, mn), ldt = lt_blas_max1(e, v->m);
    lt_blas_gemm(e, ta, tb, v->m, v->n, v->k, one, v->a, v->lda, v->b, v->ldb, zero, t, ldt);
    lt_blas_scalar_adj(g, nd, call, 0, lt_blas_mdot(e, v->m, v->n, s->c, s->ldc, t, ldt));
    lt_build_free(e->b, e->c->mod, t);
  }
  if (nd->be)
    lt_blas_scalar_adj(g, nd, call, 1, lt_blas_mdot(e, v->m, v->n, s->c, s->ldc, v->c, v->ldc));
  if (!lt_blas_is_one(v->beta))
    lt_blas_mscal(e, v->m, v->n, v->beta, s->c, s->ldc);
}

/* y = a op(A) x + b y (A m x n). */
static void rev_gemv(LtGen *g, LtBlasEm *e, const Need *nd, LLVMValueRef call, LtBlasVals *v,
                     LtBlasVals *s) {
  int ta = nd->d.tra;
  LLVMValueRef one = LLVMConstReal(e->fty, 1), zero = LLVMConstReal(e->fty, 0);
  LLVMValueRef leny = ta ? v->n : v->m, i1 = LLVMConstInt(e->ity, 1, 0);
  if (s->a && ta)
    lt_blas_ger(e, v->m, v->n, v->alpha, v->x, v->incx, s->y, s->incy, s->a, s->lda);
  else if (s->a)
    lt_blas_ger(e, v->m, v->n, v->alpha, s->y, s->incy, v->x, v->incx, s->a, s->lda);
  if (s->x)
    lt_blas_gemv(e, !ta, v->m, v->n, v->alpha, v->a, v->lda, s->y, s->incy, one, s->x, s->incx);
  if (nd->al) {
    LLVMValueRef t = scratch(e, nonneg(e->b, e->c, leny));
    lt_blas_gemv(e, ta, v->m, v->n, one, v->a, v->lda, v->x, v->incx, zero, t, i1);
    lt_blas_scalar_adj(g, nd, call, 0, lt_blas_dot(e, leny, s->y, s->incy, t, i1));
    lt_build_free(e->b, e->c->mod, t);
  }
  if (nd->be)
    lt_blas_scalar_adj(g, nd, call, 1, lt_blas_dot(e, leny, s->y, s->incy, v->y, v->incy));
  if (!lt_blas_is_one(v->beta))
    lt_blas_scal(e, leny, v->beta, s->y, s->incy);
}

/* A += a x y^T (A m x n). */
static void rev_ger(LtGen *g, LtBlasEm *e, const Need *nd, LLVMValueRef call, LtBlasVals *v,
                    LtBlasVals *s) {
  LLVMValueRef one = LLVMConstReal(e->fty, 1), zero = LLVMConstReal(e->fty, 0);
  LLVMValueRef i1 = LLVMConstInt(e->ity, 1, 0);
  if (s->x)
    lt_blas_gemv(e, 0, v->m, v->n, v->alpha, s->a, s->lda, v->y, v->incy, one, s->x, s->incx);
  if (s->y)
    lt_blas_gemv(e, 1, v->m, v->n, v->alpha, s->a, s->lda, v->x, v->incx, one, s->y, s->incy);
  if (nd->al) {
    LLVMValueRef t = scratch(e, nonneg(e->b, e->c, v->m));
    lt_blas_gemv(e, 0, v->m, v->n, one, s->a, s->lda, v->y, v->incy, zero, t, i1);
    lt_blas_scalar_adj(g, nd, call, 0, lt_blas_dot(e, v->m, v->x, v->incx, t, i1));
    lt_build_free(e->b, e->c->mod, t);
  }
}

/* y = a S x + b y, S symmetric from A's triangle. syr2 puts a (dy x^T +
 * x dy^T) on the triangle, which counts the diagonal twice. */
static void rev_symv(LtGen *g, LtBlasEm *e, const Need *nd, LLVMValueRef call, LtBlasVals *v,
                     LtBlasVals *s) {
  int up = nd->d.up;
  LLVMValueRef one = LLVMConstReal(e->fty, 1), zero = LLVMConstReal(e->fty, 0);
  LLVMValueRef i1 = LLVMConstInt(e->ity, 1, 0);
  if (s->a) {
    lt_blas_syr2(e, up, v->n, v->alpha, s->y, s->incy, v->x, v->incx, s->a, s->lda);
    LLVMValueRef pu = lt_blas_pack(e, v->n, s->y, s->incy), pv = lt_blas_pack(e, v->n, v->x, v->incx);
    lt_blas_tdiag(e, v->n, LLVMBuildFNeg(e->b, v->alpha, ""), pu, pv, s->a, s->lda);
    lt_build_free(e->b, e->c->mod, pu);
    lt_build_free(e->b, e->c->mod, pv);
  }
  if (s->x)
    lt_blas_symv(e, up, v->n, v->alpha, v->a, v->lda, s->y, s->incy, one, s->x, s->incx);
  if (nd->al) {
    LLVMValueRef t = scratch(e, nonneg(e->b, e->c, v->n));
    lt_blas_symv(e, up, v->n, one, v->a, v->lda, v->x, v->incx, zero, t, i1);
    lt_blas_scalar_adj(g, nd, call, 0, lt_blas_dot(e, v->n, s->y, s->incy, t, i1));
    lt_build_free(e->b, e->c->mod, t);
  }
  if (nd->be)
    lt_blas_scalar_adj(g, nd, call, 1, lt_blas_dot(e, v->n, s->y, s->incy, v->y, v->incy));
  if (!lt_blas_is_one(v->beta))
    lt_blas_scal(e, v->n, v->beta, s->y, s->incy);
}

/* x = op(T) x (trmv) or op(T)^-1 x (trsv), T triangular: dx goes back
 * through op(T)^T (op(T)^-T); dT gets dx x_old^T (trmv) or -db x_new^T
 * (trsv) on its triangle (transposed for op(T) = T^T; without the
 * diagonal when it is a unit one). */
static void rev_trxv(LtBlasEm *e, const Need *nd, LtBlasVals *v, LtBlasVals *s) {
  const LtBlasCall *d = &nd->d;
  int solve = d->kind == LT_BLAS_TRSV;
  LLVMValueRef i1 = LLVMConstInt(e->ity, 1, 0);
  LLVMValueRef du = NULL, xv = NULL, sc = LLVMConstReal(e->fty, solve ? -1 : 1);
  if (s->a && !solve)
    du = lt_blas_pack(e, v->n, s->x, s->incx); /* dx before its update */
  lt_blas_trxv(e, solve, d->up, !d->tra, d->unit, v->n, v->a, v->lda, s->x, s->incx);
  if (!s->a)
    return;
  if (solve)
    du = lt_blas_pack(e, v->n, s->x, s->incx);
  if (!solve && nd->cache[RX]) {
    xv = v->x;
  } else {
    /* trsv: the solution, in memory (x), or solved again from the copy */
    xv = lt_blas_pack(e, v->n, v->x, v->incx);
    if (solve && nd->cache[RX])
      lt_blas_trxv(e, 1, d->up, d->tra, d->unit, v->n, v->a, v->lda, xv, i1);
  }
  if (!d->tra)
    lt_blas_tger(e, d->up, d->unit, v->n, sc, du, xv, s->a, s->lda);
  else
    lt_blas_tger(e, d->up, d->unit, v->n, sc, xv, du, s->a, s->lda);
  lt_build_free(e->b, e->c->mod, du);
  if (xv != v->x)
    lt_build_free(e->b, e->c->mod, xv);
}

static void rev_level1(LtGen *g, LtBlasEm *e, const Need *nd, LLVMValueRef call, LtBlasVals *v,
                       LtBlasVals *s) {
  LLVMValueRef one = LLVMConstReal(e->fty, 1), zero = LLVMConstReal(e->fty, 0);
  LLVMValueRef dr = nd->res ? lt_adj_read(g, call) : NULL;
  switch (nd->d.kind) {
  case LT_BLAS_DOT:
    if (s->x)
      lt_blas_axpy(e, v->n, dr, v->y, v->incy, s->x, s->incx);
    if (s->y)
      lt_blas_axpy(e, v->n, dr, v->x, v->incx, s->y, s->incy);
    break;
  case LT_BLAS_AXPY:
    if (s->x)
      lt_blas_axpy(e, v->n, v->alpha, s->y, s->incy, s->x, s->incx);
    if (nd->al)
      lt_blas_scalar_adj(g, nd, call, 0, lt_blas_dot(e, v->n, v->x, v->incx, s->y, s->incy));
    break;
  case LT_BLAS_SCAL:
    if (nd->al)
      lt_blas_scalar_adj(g, nd, call, 0, lt_blas_dot(e, v->n, v->x, v->incx, s->x, s->incx));
    lt_blas_scal(e, v->n, v->alpha, s->x, s->incx);
    break;
  case LT_BLAS_COPY:
    if (s->x)
      lt_blas_axpy(e, v->n, one, s->y, s->incy, s->x, s->incx);
    lt_blas_scal(e, v->n, zero, s->y, s->incy);
    break;
  case LT_BLAS_SWAP:
    /* a side without a shadow held inactive data: what went there is lost */
    if (s->x && s->y)
      lt_blas_swap(e, v->n, s->x, s->incx, s->y, s->incy);
    else
      lt_blas_scal(e, v->n, zero, s->x ? s->x : s->y, s->x ? s->incx : s->incy);
    break;
  case LT_BLAS_NRM2: {
    LLVMValueRef r = lt_rv(g, call);
    LLVMValueRef q = LLVMBuildFDiv(e->b, dr, r, "");
    q = LLVMBuildSelect(e->b, LLVMBuildFCmp(e->b, LLVMRealOEQ, r, zero, ""), zero, q, "");
    lt_blas_axpy(e, v->n, q, v->x, v->incx, s->x, s->incx);
    break;
  }
  default: /* asum */
    lt_blas_asum_rev(e, v->n, v->x, v->incx, s->x, s->incx, dr);
    break;
  }
}

int lt_blas_reverse(LtGen *g, LLVMValueRef call) {
  LtCtx *c = g->c;
  if (lt_blas_is_lapack(lt_blas_call(call, NULL)))
    return lt_lapack_reverse(g, call);
  Need nd;
  need_of(g, call, &nd);
  if (!nd.any)
    return 0;
  if (g->parallel) {
    /* the adjoint calls would add into shared shadows from every thread */
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
  LtBlasVals v;
  memset(&v, 0, sizeof v);
  LLVMValueRef ints[8];
  for (int k = 0; k < 8; k++) {
    int op = *int_role(d, k);
    if (op < 0)
      ints[k] = LLVMConstInt(e.ity, 0, 0);
    else if (d->fortran)
      ints[k] = LLVMBuildTrunc(
          g->b, LLVMBuildExtractValue(g->b, LLVMBuildExtractValue(g->b, rec, 1, ""), (unsigned)k, ""),
          e.ity, "");
    else
      ints[k] = lt_rv(g, LLVMGetOperand(call, (unsigned)op));
  }
  v.m = ints[0], v.n = ints[1], v.k = ints[2], v.lda = ints[3], v.ldb = ints[4];
  v.ldc = ints[5], v.incx = ints[6], v.incy = ints[7];
  int sc[2] = {d->alpha, d->beta};
  LLVMValueRef *sv[2] = {&v.alpha, &v.beta};
  for (int k = 0; k < 2; k++)
    if (sc[k] >= 0)
      *sv[k] = d->fortran ? LLVMBuildExtractValue(
                                g->b, LLVMBuildExtractValue(g->b, rec, 2, ""), (unsigned)k, "")
                          : lt_rv(g, LLVMGetOperand(call, (unsigned)sc[k]));
  LtBlasVals s = v;
  for (int r = 0; r < NROLE; r++) {
    LLVMValueRef p = nd.op[r] >= 0 ? LLVMGetOperand(call, (unsigned)nd.op[r]) : NULL;
    *ptr_role(&v, r) = nd.read[r] && !nd.cache[r] ? lt_rv(g, p) : NULL;
    *ptr_role(&s, r) = nd.sh[r] ? lt_rs(g, p) : NULL;
  }
  LLVMValueRef block = rec && d->fortran ? LLVMBuildExtractValue(g->b, rec, 0, "") : rec;
  if (cached(&nd))
    layout(&e, &nd, &v, block, 0);
  switch (d->kind) {
  case LT_BLAS_GEMM:
    rev_gemm(g, &e, &nd, call, &v, &s);
    break;
  case LT_BLAS_GEMV:
    rev_gemv(g, &e, &nd, call, &v, &s);
    break;
  case LT_BLAS_GER:
    rev_ger(g, &e, &nd, call, &v, &s);
    break;
  case LT_BLAS_SYMV:
    rev_symv(g, &e, &nd, call, &v, &s);
    break;
  case LT_BLAS_SYMM:
  case LT_BLAS_SYRK:
  case LT_BLAS_TRMM:
  case LT_BLAS_TRSM:
    lt_blas_rev3(g, &e, &nd, call, &v, &s);
    break;
  case LT_BLAS_TRMV:
  case LT_BLAS_TRSV:
    rev_trxv(&e, &nd, &v, &s);
    break;
  default:
    rev_level1(g, &e, &nd, call, &v, &s);
    break;
  }
  if (cached(&nd))
    lt_build_free(g->b, c->mod, block);
  return 0;
}
