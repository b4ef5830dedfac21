/* blasrt.c: BLAS calls emitted by the BLAS rules (gen/blas.c, blasfwd.c).
 *
 * The rules' adjoints and tangents are BLAS calls in the interface the
 * program uses, on the library it links: cblas_dgemm(CblasColMajor, ...)
 * with scalars by value, or dgemm_ with every scalar in a stack slot of
 * the function's entry and the transposes as constant strings (hidden
 * lengths 1 passed after the arguments, which libraries without them
 * ignore). What BLAS has no routine for lives in small helpers lt.blas.*
 * defined once per module: a column loop over a matrix with a leading
 * dimension (packed copy, inner product, scaling, axpy) and asum's sign
 * loops.
 */
#include "lt.h"

#include <stdio.h>
#include <string.h>

void lt_blas_em_init(LtBlasEm *e, LtCtx *c, LLVMBuilderRef b, LLVMValueRef fn,
                     const LtBlasCall *d, LLVMValueRef call) {
  e->c = c;
  e->b = b;
  e->fn = fn;
  e->fortran = d->fortran;
  e->single = d->single;
  e->fty = d->single ? LLVMFloatTypeInContext(c->llctx) : c->f64;
  LLVMValueRef n = LLVMGetOperand(call, (unsigned)d->n);
  e->ity = d->fortran ? c->i32 : LLVMTypeOf(n);
}

static LLVMValueRef slot(LtBlasEm *e, LLVMValueRef v) {
  LLVMBasicBlockRef entry = LLVMGetEntryBasicBlock(e->fn);
  LLVMBuilderRef ab = LLVMCreateBuilderInContext(e->c->llctx);
  LLVMValueRef first = LLVMGetFirstInstruction(entry);
  if (first)
    LLVMPositionBuilderBefore(ab, first);
  else
    LLVMPositionBuilderAtEnd(ab, entry);
  LLVMValueRef a = LLVMBuildAlloca(ab, LLVMTypeOf(v), "lt.blas.arg");
  LLVMDisposeBuilder(ab);
  LLVMBuildStore(e->b, v, a);
  return a;
}

static LLVMValueRef flag_str(LtBlasEm *e, const char *ch) {
  char name[16];
  snprintf(name, sizeof name, "lt.blas.%s", ch);
  LLVMValueRef g = LLVMGetNamedGlobal(e->c->mod, name);
  if (!g) {
    g = LLVMAddGlobal(e->c->mod, LLVMArrayType2(e->c->i8, 2), name);
    LLVMSetInitializer(g, LLVMConstStringInContext2(e->c->llctx, ch, 1, 0));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  }
  return g;
}

/* Call routine (without precision) with arguments by sig: 'L' the
 * column-major layout (CBLAS only; no argument), 'T' a transpose, 'U' a
 * triangle, 'D' a diagonal (args holds an i32 0 or 1 constant: transpose,
 * upper, unit), 'i' an integer, 'f' a scalar, 'p' a
 * pointer. ret: returns a scalar (dot). */
static LLVMValueRef call(LtBlasEm *e, const char *routine, const char *sig,
                         LLVMValueRef *args, int ret) {
  LtCtx *c = e->c;
  LLVMTypeRef pt[24];
  LLVMValueRef av[24];
  unsigned n = 0, nt = 0, k = 0;
  for (const char *s = sig; *s; s++) {
    if (*s == 'L') {
      if (!e->fortran)
        pt[n] = c->i32, av[n++] = LLVMConstInt(c->i32, 102, 0);
      continue;
    }
    LLVMValueRef a = args[k++];
    switch (*s) {
    case 'T':
    case 'U':
    case 'D': {
      /* 1: transpose, upper, unit diagonal */
      int t = (int)LLVMConstIntGetZExtValue(a);
      static const char *const chars[3][2] = {{"N", "T"}, {"L", "U"}, {"N", "U"}};
      static const unsigned enums[3][2] = {{111, 112}, {122, 121}, {131, 132}};
      int w = *s == 'T' ? 0 : *s == 'U' ? 1 : 2;
      av[n] = e->fortran ? flag_str(e, chars[w][t]) : LLVMConstInt(c->i32, enums[w][t], 0);
      nt++;
      break;
    }
    case 'i':
      av[n] = LLVMBuildIntCast2(e->b, a, e->ity, 1, "");
      break;
    case 'f':
      av[n] = a;
      break;
    default:
      av[n] = a;
      break;
    }
    if (e->fortran && (*s == 'i' || *s == 'f'))
      av[n] = slot(e, av[n]);
    pt[n] = LLVMTypeOf(av[n]);
    n++;
  }
  for (unsigned t = 0; e->fortran && t < nt; t++)
    pt[n] = c->i64, av[n++] = LLVMConstInt(c->i64, 1, 0);
  char name[32];
  snprintf(name, sizeof name, "%s%c%s%s", e->fortran ? "" : "cblas_", e->single ? 's' : 'd',
           routine, e->fortran ? "_" : "");
  LLVMTypeRef ft = LLVMFunctionType(ret ? e->fty : c->vd, pt, n, 0);
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  if (!f)
    f = LLVMAddFunction(c->mod, name, ft);
  return LLVMBuildCall2(e->b, ft, f, av, n, "");
}

#define T(x) LLVMConstInt(e->c->i32, (unsigned)(x), 0)

void lt_blas_gemm(LtBlasEm *e, int ta, int tb, LLVMValueRef m, LLVMValueRef n,
                  LLVMValueRef k, LLVMValueRef al, LLVMValueRef A, LLVMValueRef lda,
                  LLVMValueRef B, LLVMValueRef ldb, LLVMValueRef be, LLVMValueRef C,
                  LLVMValueRef ldc) {
  LLVMValueRef a[13] = {T(ta), T(tb), m, n, k, al, A, lda, B, ldb, be, C, ldc};
  call(e, "gemm", "LTTiiifpipifpi", a, 0);
}

void lt_blas_gemv(LtBlasEm *e, int ta, LLVMValueRef m, LLVMValueRef n, LLVMValueRef al,
                  LLVMValueRef A, LLVMValueRef lda, LLVMValueRef x, LLVMValueRef incx,
                  LLVMValueRef be, LLVMValueRef y, LLVMValueRef incy) {
  LLVMValueRef a[11] = {T(ta), m, n, al, A, lda, x, incx, be, y, incy};
  call(e, "gemv", "LTiifpipifpi", a, 0);
}

void lt_blas_ger(LtBlasEm *e, LLVMValueRef m, LLVMValueRef n, LLVMValueRef al,
                 LLVMValueRef x, LLVMValueRef incx, LLVMValueRef y, LLVMValueRef incy,
                 LLVMValueRef A, LLVMValueRef lda) {
  LLVMValueRef a[9] = {m, n, al, x, incx, y, incy, A, lda};
  call(e, "ger", "Liifpipipi", a, 0);
}

void lt_blas_symv(LtBlasEm *e, int up, LLVMValueRef n, LLVMValueRef al, LLVMValueRef A,
                  LLVMValueRef lda, LLVMValueRef x, LLVMValueRef incx, LLVMValueRef be,
                  LLVMValueRef y, LLVMValueRef incy) {
  LLVMValueRef a[10] = {T(up), n, al, A, lda, x, incx, be, y, incy};
  call(e, "symv", "LUifpipifpi", a, 0);
}

void lt_blas_syr2(LtBlasEm *e, int up, LLVMValueRef n, LLVMValueRef al, LLVMValueRef x,
                  LLVMValueRef incx, LLVMValueRef y, LLVMValueRef incy, LLVMValueRef A,
                  LLVMValueRef lda) {
  LLVMValueRef a[9] = {T(up), n, al, x, incx, y, incy, A, lda};
  call(e, "syr2", "LUifpipipi", a, 0);
}

/* trmv (solve 0) or trsv (solve 1): x = op(T) x or op(T)^-1 x */
void lt_blas_trxv(LtBlasEm *e, int solve, int up, int ta, int unit, LLVMValueRef n,
                  LLVMValueRef A, LLVMValueRef lda, LLVMValueRef x, LLVMValueRef incx) {
  LLVMValueRef a[8] = {T(up), T(ta), T(unit), n, A, lda, x, incx};
  call(e, solve ? "trsv" : "trmv", "LUTDipipi", a, 0);
}

LLVMValueRef lt_blas_dot(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef incx,
                         LLVMValueRef y, LLVMValueRef incy) {
  LLVMValueRef a[5] = {n, x, incx, y, incy};
  return call(e, "dot", "ipipi", a, 1);
}

void lt_blas_axpy(LtBlasEm *e, LLVMValueRef n, LLVMValueRef al, LLVMValueRef x,
                  LLVMValueRef incx, LLVMValueRef y, LLVMValueRef incy) {
  LLVMValueRef a[6] = {n, al, x, incx, y, incy};
  call(e, "axpy", "ifpipi", a, 0);
}

/* scal ignores non-positive strides; the set of elements a negative
 * stride addresses is the same as its absolute value's */
void lt_blas_scal(LtBlasEm *e, LLVMValueRef n, LLVMValueRef al, LLVMValueRef x,
                  LLVMValueRef incx) {
  incx = LLVMBuildIntCast2(e->b, incx, e->ity, 1, "");
  LLVMValueRef neg = LLVMBuildNeg(e->b, incx, "");
  LLVMValueRef abs = LLVMBuildSelect(
      e->b, LLVMBuildICmp(e->b, LLVMIntSLT, incx, LLVMConstInt(e->ity, 0, 0), ""), neg, incx,
      "");
  LLVMValueRef a[4] = {n, al, x, abs};
  call(e, "scal", "ifpi", a, 0);
}

void lt_blas_copy(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef incx,
                  LLVMValueRef y, LLVMValueRef incy) {
  LLVMValueRef a[5] = {n, x, incx, y, incy};
  call(e, "copy", "ipipi", a, 0);
}

void lt_blas_swap(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef incx,
                  LLVMValueRef y, LLVMValueRef incy) {
  LLVMValueRef a[5] = {n, x, incx, y, incy};
  call(e, "swap", "ipipi", a, 0);
}

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
