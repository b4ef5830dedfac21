/* blashelp.c: what BLAS has no routine for, as small helpers lt.blas.*
 * defined once per module (per precision, interface and integer type),
 * called by the BLAS rules (gen/blas.c, blas3.c, blasfwd.c).
 *
 * Matrices with a leading dimension: a packed copy, an inner product,
 * scaling and axpy as loops over columns of BLAS calls; the same over the
 * rows or columns of one triangle, or with a diagonal's entries (a
 * diagonal of a product, a scaling by one); a rank-1 update of one
 * triangle; asum's signs and a diagonal's products, the only loops of
 * ours over elements. Scratch blocks and packed vectors for the rules.
 */
#include "lt.h"

#include <stdio.h>

/* The helpers: f(m, n, s, X, ldx, Y, ldy) -> scalar, a loop over
 * j < n of op on X + j*ldx and Y + j*ldy (columns of m elements; for
 * asum single elements, j the index and ld the stride). */
enum { H_MCOPY, H_MDOT, H_MSCAL, H_MAXPY, H_ASUM_REV, H_ASUM_TAN };
static const char *const hname[] = {"mcopy", "mdot", "mscal", "maxpy", "asumr", "asumt"};

static LLVMValueRef sign_of(LLVMBuilderRef b, LLVMTypeRef fty, LLVMValueRef x) {
  LLVMValueRef z = LLVMConstReal(fty, 0);
  LLVMValueRef pos = LLVMBuildUIToFP(b, LLVMBuildFCmp(b, LLVMRealOGT, x, z, ""), fty, "");
  LLVMValueRef neg = LLVMBuildUIToFP(b, LLVMBuildFCmp(b, LLVMRealOLT, x, z, ""), fty, "");
  return LLVMBuildFSub(b, pos, neg, "");
}

static void helper_body(LtBlasEm *e, int op, LLVMValueRef f, LLVMBasicBlockRef entry) {
  LtCtx *c = e->c;
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->llctx, f, "col");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef P[7];
  for (unsigned k = 0; k < 7; k++)
    P[k] = LLVMGetParam(f, k);
  LLVMValueRef m = LLVMBuildSExt(b, P[0], c->i64, ""), n = LLVMBuildSExt(b, P[1], c->i64, "");
  LLVMValueRef ldx = LLVMBuildSExt(b, P[4], c->i64, ""), ldy = LLVMBuildSExt(b, P[6], c->i64, "");
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), fz = LLVMConstReal(e->fty, 0);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, n, zero, ""), loop, done);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef j = LLVMBuildPhi(b, c->i64, "j"), acc = LLVMBuildPhi(b, e->fty, "acc");
  LLVMValueRef xj = LLVMBuildGEP2(b, e->fty, P[3], &(LLVMValueRef){LLVMBuildMul(b, j, ldx, "")},
                                  1, "");
  LLVMValueRef yoff = op == H_MCOPY ? LLVMBuildMul(b, j, m, "") : LLVMBuildMul(b, j, ldy, "");
  LLVMValueRef yj = LLVMBuildGEP2(b, e->fty, P[5], &yoff, 1, "");
  LLVMValueRef one = LLVMConstInt(e->ity, 1, 0), next = acc;
  LtBlasEm in = *e;
  in.b = b;
  in.fn = f;
  unsigned es = e->single ? 4 : 8;
  switch (op) {
  case H_MCOPY:
    LLVMBuildMemCpy(b, yj, es, xj, es, LLVMBuildMul(b, m, LLVMConstInt(c->i64, es, 0), ""));
    break;
  case H_MDOT:
    next = LLVMBuildFAdd(b, acc, lt_blas_dot(&in, P[0], xj, one, yj, one), "");
    break;
  case H_MSCAL:
    lt_blas_scal(&in, P[0], P[2], xj, one);
    break;
  case H_MAXPY:
    lt_blas_axpy(&in, P[0], P[2], xj, one, yj, one);
    break;
  case H_ASUM_REV: {
    LLVMValueRef d = LLVMBuildLoad2(b, e->fty, yj, "");
    LLVMValueRef s = sign_of(b, e->fty, LLVMBuildLoad2(b, e->fty, xj, ""));
    LLVMBuildStore(b, LLVMBuildFAdd(b, d, LLVMBuildFMul(b, P[2], s, ""), ""), yj);
    break;
  }
  default: { /* H_ASUM_TAN */
    LLVMValueRef d = LLVMBuildLoad2(b, e->fty, yj, "");
    LLVMValueRef s = sign_of(b, e->fty, LLVMBuildLoad2(b, e->fty, xj, ""));
    next = LLVMBuildFAdd(b, acc, LLVMBuildFMul(b, s, d, ""), "");
    break;
  }
  }
  LLVMBasicBlockRef last = LLVMGetInsertBlock(b);
  LLVMValueRef j1 = LLVMBuildAdd(b, j, LLVMConstInt(c->i64, 1, 0), "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, j1, n, ""), loop, done);
  LLVMAddIncoming(j, (LLVMValueRef[]){zero, j1}, (LLVMBasicBlockRef[]){entry, last}, 2);
  LLVMAddIncoming(acc, (LLVMValueRef[]){fz, next}, (LLVMBasicBlockRef[]){entry, last}, 2);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMValueRef r = LLVMBuildPhi(b, e->fty, "r");
  LLVMAddIncoming(r, (LLVMValueRef[]){fz, next}, (LLVMBasicBlockRef[]){entry, last}, 2);
  LLVMBuildRet(b, r);
  LLVMDisposeBuilder(b);
}

static LLVMValueRef helper(LtBlasEm *e, int op, LLVMValueRef m, LLVMValueRef n,
                           LLVMValueRef s, LLVMValueRef X, LLVMValueRef ldx, LLVMValueRef Y,
                           LLVMValueRef ldy) {
  LtCtx *c = e->c;
  char name[64];
  snprintf(name, sizeof name, "lt.blas.%s.%c%s.i%u", hname[op], e->single ? 's' : 'd',
           e->fortran ? "f" : "c", LLVMGetIntTypeWidth(e->ity));
  LLVMTypeRef pt[7] = {e->ity, e->ity, e->fty, c->ptr, e->ity, c->ptr, e->ity};
  LLVMTypeRef ft = LLVMFunctionType(e->fty, pt, 7, 0);
  LLVMBasicBlockRef entry;
  LLVMValueRef f = lt_helper_fn(c, name, ft, &entry);
  if (entry)
    helper_body(e, op, f, entry);
  LLVMValueRef a[7] = {m, n, s ? s : LLVMConstReal(e->fty, 0), X, ldx, Y ? Y : X,
                       ldy ? ldy : ldx};
  for (unsigned k = 0; k < 7; k++)
    if (LLVMGetTypeKind(pt[k]) == LLVMIntegerTypeKind)
      a[k] = LLVMBuildIntCast2(e->b, a[k], e->ity, 1, "");
  return LLVMBuildCall2(e->b, ft, f, a, 7, "");
}

void lt_blas_mcopy(LtBlasEm *e, LLVMValueRef m, LLVMValueRef n, LLVMValueRef A,
                   LLVMValueRef lda, LLVMValueRef dst) {
  helper(e, H_MCOPY, m, n, NULL, A, lda, dst, lda);
}

LLVMValueRef lt_blas_mdot(LtBlasEm *e, LLVMValueRef m, LLVMValueRef n, LLVMValueRef X,
                          LLVMValueRef ldx, LLVMValueRef Y, LLVMValueRef ldy) {
  return helper(e, H_MDOT, m, n, NULL, X, ldx, Y, ldy);
}

void lt_blas_mscal(LtBlasEm *e, LLVMValueRef m, LLVMValueRef n, LLVMValueRef s, LLVMValueRef X,
                   LLVMValueRef ldx) {
  helper(e, H_MSCAL, m, n, s, X, ldx, NULL, NULL);
}

void lt_blas_maxpy(LtBlasEm *e, LLVMValueRef m, LLVMValueRef n, LLVMValueRef s, LLVMValueRef X,
                   LLVMValueRef ldx, LLVMValueRef Y, LLVMValueRef ldy) {
  helper(e, H_MAXPY, m, n, s, X, ldx, Y, ldy);
}

/* asum is 0 for a non-positive stride: so is its derivative */
static LLVMValueRef asum_count(LtBlasEm *e, LLVMValueRef n, LLVMValueRef incx) {
  LLVMValueRef i = LLVMBuildIntCast2(e->b, incx, e->ity, 1, "");
  return LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, i, LLVMConstInt(e->ity, 0, 0), ""),
                         LLVMBuildIntCast2(e->b, n, e->ity, 1, ""), LLVMConstInt(e->ity, 0, 0),
                         "");
}

void lt_blas_asum_rev(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef incx,
                      LLVMValueRef dx, LLVMValueRef incd, LLVMValueRef dr) {
  helper(e, H_ASUM_REV, LLVMConstInt(e->ity, 1, 0), asum_count(e, n, incd), dr, x, incx, dx,
         incd);
}

LLVMValueRef lt_blas_asum_tan(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef incx,
                              LLVMValueRef dx) {
  return helper(e, H_ASUM_TAN, LLVMConstInt(e->ity, 1, 0), asum_count(e, n, incx), NULL, x,
                incx, dx, incx);
}

LLVMValueRef lt_blas_scratch(LtBlasEm *e, LLVMValueRef count) {
  LtCtx *c = e->c;
  LLVMValueRef bytes =
      LLVMBuildMul(e->b, LLVMBuildAdd(e->b, count, LLVMConstInt(c->i64, 1, 0), ""),
                   LLVMConstInt(c->i64, e->single ? 4 : 8, 0), "");
  return lt_build_malloc(e->b, c->mod, bytes);
}

LLVMValueRef lt_blas_pack(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef inc) {
  LtCtx *c = e->c;
  LLVMValueRef n64 = LLVMBuildSExt(e->b, LLVMBuildIntCast2(e->b, n, e->ity, 1, ""), c->i64, "");
  n64 = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, n64, LLVMConstInt(c->i64, 0, 0), ""),
                        n64, LLVMConstInt(c->i64, 0, 0), "");
  LLVMValueRef t = lt_blas_scratch(e, n64);
  lt_blas_copy(e, n, x, inc, t, LLVMConstInt(e->ity, 1, 0));
  return t;
}

/* The triangular helpers: f(n, s, u, v, T, ld), a loop over j < n. */
static void tri_body(LtBlasEm *e, LLVMValueRef f, LLVMBasicBlockRef entry, int diag, int up,
                     int strict) {
  LtCtx *c = e->c;
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->llctx, f, "j");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef n = LLVMBuildSExt(b, LLVMGetParam(f, 0), c->i64, "");
  LLVMValueRef s = LLVMGetParam(f, 1), u = LLVMGetParam(f, 2), v = LLVMGetParam(f, 3);
  LLVMValueRef T = LLVMGetParam(f, 4), ld = LLVMBuildSExt(b, LLVMGetParam(f, 5), c->i64, "");
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), one = LLVMConstInt(c->i64, 1, 0);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, n, zero, ""), loop, done);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef j = LLVMBuildPhi(b, c->i64, "j");
  LLVMValueRef vj = LLVMBuildLoad2(b, e->fty, LLVMBuildGEP2(b, e->fty, v, &j, 1, ""), "");
  if (diag) {
    LLVMValueRef uj = LLVMBuildLoad2(b, e->fty, LLVMBuildGEP2(b, e->fty, u, &j, 1, ""), "");
    LLVMValueRef at = LLVMBuildMul(b, j, LLVMBuildAdd(b, ld, one, ""), "");
    LLVMValueRef p = LLVMBuildGEP2(b, e->fty, T, &at, 1, "");
    LLVMValueRef d = LLVMBuildFMul(b, s, LLVMBuildFMul(b, uj, vj, ""), "");
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, e->fty, p, ""), d, ""), p);
  } else {
    /* column j's part of the triangle: rows [lo, hi) */
    LLVMValueRef st = LLVMConstInt(c->i64, (unsigned)strict, 0);
    LLVMValueRef lo = up ? zero : LLVMBuildAdd(b, j, st, "");
    LLVMValueRef hi = up ? LLVMBuildSub(b, LLVMBuildAdd(b, j, one, ""), st, "") : n;
    LLVMValueRef at = LLVMBuildAdd(b, LLVMBuildMul(b, j, ld, ""), lo, "");
    LtBlasEm in = *e;
    in.b = b;
    in.fn = f;
    LLVMValueRef i1 = LLVMConstInt(e->ity, 1, 0);
    lt_blas_axpy(&in, LLVMBuildTrunc(b, LLVMBuildSub(b, hi, lo, ""), e->ity, ""),
                 LLVMBuildFMul(b, s, vj, ""), LLVMBuildGEP2(b, e->fty, u, &lo, 1, ""), i1,
                 LLVMBuildGEP2(b, e->fty, T, &at, 1, ""), i1);
  }
  LLVMValueRef j1 = LLVMBuildAdd(b, j, one, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, j1, n, ""), loop, done);
  LLVMAddIncoming(j, (LLVMValueRef[]){zero, j1},
                  (LLVMBasicBlockRef[]){entry, LLVMGetInsertBlock(b)}, 2);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMBuildRetVoid(b);
  LLVMDisposeBuilder(b);
}

static void tri(LtBlasEm *e, int diag, int up, int strict, LLVMValueRef n, LLVMValueRef s,
                LLVMValueRef u, LLVMValueRef v, LLVMValueRef T, LLVMValueRef ldt) {
  LtCtx *c = e->c;
  char name[64];
  snprintf(name, sizeof name, "lt.blas.%s%s.%c%s.i%u", diag ? "tdiag" : "tger",
           diag ? "" : up ? (strict ? "us" : "u") : (strict ? "ls" : "l"), e->single ? 's' : 'd',
           e->fortran ? "f" : "c", LLVMGetIntTypeWidth(e->ity));
  LLVMTypeRef pt[6] = {e->ity, e->fty, c->ptr, c->ptr, c->ptr, e->ity};
  LLVMTypeRef ft = LLVMFunctionType(c->vd, pt, 6, 0);
  LLVMBasicBlockRef entry;
  LLVMValueRef f = lt_helper_fn(c, name, ft, &entry);
  if (entry)
    tri_body(e, f, entry, diag, up, strict);
  LLVMValueRef a[6] = {LLVMBuildIntCast2(e->b, n, e->ity, 1, ""), s, u, v, T,
                       LLVMBuildIntCast2(e->b, ldt, e->ity, 1, "")};
  LLVMBuildCall2(e->b, ft, f, a, 6, "");
}

void lt_blas_tger(LtBlasEm *e, int up, int strict, LLVMValueRef n, LLVMValueRef s,
                  LLVMValueRef u, LLVMValueRef v, LLVMValueRef T, LLVMValueRef ldt) {
  tri(e, 0, up, strict, n, s, u, v, T, ldt);
}

void lt_blas_tdiag(LtBlasEm *e, LLVMValueRef n, LLVMValueRef s, LLVMValueRef u, LLVMValueRef v,
                   LLVMValueRef T, LLVMValueRef ldt) {
  tri(e, 1, 0, 0, n, s, u, v, T, ldt);
}

/* The line helpers: f(m, n, s, X, ldx, Y, ldy, D, ldd) -> scalar, a loop
 * over j < n of an operation on line j of X and Y: column j (stride 1)
 * or row j (stride ld, rows); m elements, or for a triangle of an n x n
 * matrix the part of column j in it (without the diagonal when strict). */
static void line_body(LtBlasEm *e, LLVMValueRef f, LLVMBasicBlockRef entry, int op, int rows,
                      int tri, int strict) {
  LtCtx *c = e->c;
  LLVMBasicBlockRef loop = LLVMAppendBasicBlockInContext(c->llctx, f, "j");
  LLVMBasicBlockRef done = LLVMAppendBasicBlockInContext(c->llctx, f, "done");
  LLVMBuilderRef b = LLVMCreateBuilderInContext(c->llctx);
  LLVMPositionBuilderAtEnd(b, entry);
  LLVMValueRef P[9];
  for (unsigned k = 0; k < 9; k++)
    P[k] = LLVMGetParam(f, k);
  LLVMValueRef m = LLVMBuildSExt(b, P[0], c->i64, ""), n = LLVMBuildSExt(b, P[1], c->i64, "");
  LLVMValueRef ldx = LLVMBuildSExt(b, P[4], c->i64, ""), ldy = LLVMBuildSExt(b, P[6], c->i64, "");
  LLVMValueRef ldd = LLVMBuildSExt(b, P[8], c->i64, "");
  LLVMValueRef zero = LLVMConstInt(c->i64, 0, 0), one = LLVMConstInt(c->i64, 1, 0);
  LLVMValueRef fz = LLVMConstReal(e->fty, 0);
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSGT, n, zero, ""), loop, done);
  LLVMPositionBuilderAtEnd(b, loop);
  LLVMValueRef j = LLVMBuildPhi(b, c->i64, "j"), acc = LLVMBuildPhi(b, e->fty, "acc");
  LLVMValueRef st = LLVMConstInt(c->i64, (unsigned)strict, 0);
  LLVMValueRef lo = tri == 1 ? zero : tri == 2 ? LLVMBuildAdd(b, j, st, "") : zero;
  LLVMValueRef hi = tri == 1 ? LLVMBuildSub(b, LLVMBuildAdd(b, j, one, ""), st, "")
                    : tri == 2 ? n
                               : m;
  LLVMValueRef len = LLVMBuildTrunc(b, LLVMBuildSub(b, hi, lo, ""), e->ity, "");
  LLVMValueRef ox = rows ? LLVMBuildAdd(b, j, LLVMBuildMul(b, lo, ldx, ""), "")
                         : LLVMBuildAdd(b, LLVMBuildMul(b, j, ldx, ""), lo, "");
  int yrows = rows || op == L_TAXPY;
  LLVMValueRef oy = yrows ? LLVMBuildAdd(b, j, LLVMBuildMul(b, lo, ldy, ""), "")
                          : LLVMBuildAdd(b, LLVMBuildMul(b, j, ldy, ""), lo, "");
  LLVMValueRef xp = LLVMBuildGEP2(b, e->fty, P[3], &ox, 1, "");
  LLVMValueRef yp = LLVMBuildGEP2(b, e->fty, P[5], &oy, 1, "");
  LLVMValueRef xs = rows ? P[4] : LLVMConstInt(e->ity, 1, 0);
  LLVMValueRef ys = yrows ? P[6] : LLVMConstInt(e->ity, 1, 0);
  LLVMValueRef od = LLVMBuildMul(b, j, LLVMBuildAdd(b, ldd, one, ""), "");
  LLVMValueRef dp = LLVMBuildGEP2(b, e->fty, P[7], &od, 1, "");
  LtBlasEm in = *e;
  in.b = b;
  in.fn = f;
  LLVMValueRef next = acc;
  switch (op) {
  case L_DOT:
    next = LLVMBuildFAdd(b, acc, lt_blas_dot(&in, len, xp, xs, yp, ys), "");
    break;
  case L_SCAL:
    lt_blas_scal(&in, len, P[2], xp, xs);
    break;
  case L_AXPY:
  case L_TAXPY:
    lt_blas_axpy(&in, len, P[2], xp, xs, yp, ys);
    break;
  case L_DIAGDOT: {
    LLVMValueRef d = LLVMBuildFMul(b, P[2], lt_blas_dot(&in, len, xp, xs, yp, ys), "");
    LLVMBuildStore(b, LLVMBuildFAdd(b, LLVMBuildLoad2(b, e->fty, dp, ""), d, ""), dp);
    break;
  }
  default: /* L_DSCALE */
    lt_blas_axpy(&in, len, LLVMBuildFMul(b, P[2], LLVMBuildLoad2(b, e->fty, dp, ""), ""), xp, xs,
                 yp, ys);
    break;
  }
  LLVMBasicBlockRef last = LLVMGetInsertBlock(b);
  LLVMValueRef j1 = LLVMBuildAdd(b, j, one, "");
  LLVMBuildCondBr(b, LLVMBuildICmp(b, LLVMIntSLT, j1, n, ""), loop, done);
  LLVMAddIncoming(j, (LLVMValueRef[]){zero, j1}, (LLVMBasicBlockRef[]){entry, last}, 2);
  LLVMAddIncoming(acc, (LLVMValueRef[]){fz, next}, (LLVMBasicBlockRef[]){entry, last}, 2);
  LLVMPositionBuilderAtEnd(b, done);
  LLVMValueRef r = LLVMBuildPhi(b, e->fty, "r");
  LLVMAddIncoming(r, (LLVMValueRef[]){fz, next}, (LLVMBasicBlockRef[]){entry, last}, 2);
  LLVMBuildRet(b, r);
  LLVMDisposeBuilder(b);
}

LLVMValueRef lt_blas_line(LtBlasEm *e, int op, int rows, int tri, int strict, LLVMValueRef m,
                          LLVMValueRef n, LLVMValueRef s, LLVMValueRef X, LLVMValueRef ldx,
                          LLVMValueRef Y, LLVMValueRef ldy, LLVMValueRef D, LLVMValueRef ldd) {
  LtCtx *c = e->c;
  char name[64];
  snprintf(name, sizeof name, "lt.blas.line%d%d%d%d.%c%s.i%u", op, rows, tri, strict,
           e->single ? 's' : 'd', e->fortran ? "f" : "c", LLVMGetIntTypeWidth(e->ity));
  LLVMTypeRef pt[9] = {e->ity, e->ity, e->fty, c->ptr, e->ity, c->ptr, e->ity, c->ptr, e->ity};
  LLVMTypeRef ft = LLVMFunctionType(e->fty, pt, 9, 0);
  LLVMBasicBlockRef entry;
  LLVMValueRef f = lt_helper_fn(c, name, ft, &entry);
  if (entry)
    line_body(e, f, entry, op, rows, tri, strict);
  LLVMValueRef one = LLVMConstInt(e->ity, 1, 0);
  LLVMValueRef a[9] = {m ? m : n, n, s ? s : LLVMConstReal(e->fty, 0), X, ldx,
                       Y ? Y : X, ldy ? ldy : ldx, D ? D : X, ldd ? ldd : one};
  for (unsigned k = 0; k < 9; k++)
    if (LLVMGetTypeKind(pt[k]) == LLVMIntegerTypeKind)
      a[k] = LLVMBuildIntCast2(e->b, a[k], e->ity, 1, "");
  return LLVMBuildCall2(e->b, ft, f, a, 9, "");
}
