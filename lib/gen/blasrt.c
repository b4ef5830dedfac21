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

static LLVMValueRef trans_str(LtBlasEm *e, int t) {
  const char *name = t ? "lt.blas.T" : "lt.blas.N";
  LLVMValueRef g = LLVMGetNamedGlobal(e->c->mod, name);
  if (!g) {
    g = LLVMAddGlobal(e->c->mod, LLVMArrayType2(e->c->i8, 2), name);
    LLVMSetInitializer(g, LLVMConstStringInContext2(e->c->llctx, t ? "T" : "N", 1, 0));
    LLVMSetGlobalConstant(g, 1);
    LLVMSetLinkage(g, LLVMPrivateLinkage);
    LLVMSetUnnamedAddress(g, LLVMGlobalUnnamedAddr);
  }
  return g;
}

/* Call routine (without precision) with arguments by sig: 'L' the
 * column-major layout (CBLAS only; no argument), 'T' a transpose (args
 * holds an i32 0 or 1 constant), 'i' an integer, 'f' a scalar, 'p' a
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
    case 'T': {
      int t = (int)LLVMConstIntGetZExtValue(a);
      av[n] = e->fortran ? trans_str(e, t) : LLVMConstInt(c->i32, 111 + (unsigned)t, 0);
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
