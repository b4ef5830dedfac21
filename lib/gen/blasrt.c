/* blasrt.c: BLAS calls emitted by the BLAS rules (gen/blas.c, blasfwd.c).
 *
 * The rules' adjoints and tangents are BLAS calls in the interface the
 * program uses, on the library it links: cblas_dgemm(CblasColMajor, ...)
 * with scalars by value, or dgemm_ with every scalar in a stack slot of
 * the function's entry and the transposes as constant strings (hidden
 * lengths 1 passed after the arguments, which libraries without them
 * ignore). What BLAS has no routine for: blashelp.c.
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
  e->row = d->row;
  e->lapacke = d->lapacke;
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
  LLVMValueRef a = lt_build_slot(ab, LLVMTypeOf(v), 0, "lt.blas.arg");
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
 * layout (CBLAS and LAPACKE only; no argument: column-major, or row-major
 * for e->row), 'T' a transpose, 'U' a triangle, 'D' a diagonal, 'S' a
 * side (args holds an i32 0 or 1 constant: transpose, upper, unit,
 * right), 'i' an integer, 'f' a scalar, 'p' a pointer, 'I' LAPACK's info
 * (Fortran only; no argument). ret: returns a scalar (dot). lapack: a
 * LAPACK routine, LAPACKE_d<routine> (flags as characters by value) for a
 * program that calls LAPACKE, else d<routine>_. */
static LLVMValueRef emit(LtBlasEm *e, int lapack, const char *routine, const char *sig,
                         LLVMValueRef *args, int ret) {
  LtCtx *c = e->c;
  LLVMTypeRef pt[24];
  LLVMValueRef av[24];
  unsigned n = 0, nt = 0, k = 0, cpos[24], nc = 0;
  int lapacke = lapack && !e->fortran;
  for (const char *s = sig; *s; s++) {
    if (*s == 'L') {
      if (!e->fortran)
        pt[n] = c->i32, av[n++] = LLVMConstInt(c->i32, e->row ? 101 : 102, 0);
      continue;
    }
    if (*s == 'I') {
      if (e->fortran)
        av[n] = slot(e, LLVMConstInt(e->ity, 0, 0)), pt[n] = c->ptr, n++;
      continue;
    }
    LLVMValueRef a = args[k++];
    switch (*s) {
    case 'T':
    case 'U':
    case 'D':
    case 'S': {
      /* 1: transpose, upper, unit diagonal, right side */
      int t = (int)LLVMConstIntGetZExtValue(a);
      static const char *const chars[4][2] = {{"N", "T"}, {"L", "U"}, {"N", "U"}, {"L", "R"}};
      static const unsigned enums[4][2] = {{111, 112}, {122, 121}, {131, 132}, {141, 142}};
      int w = *s == 'T' ? 0 : *s == 'U' ? 1 : *s == 'D' ? 2 : 3;
      av[n] = e->fortran ? flag_str(e, chars[w][t])
              : lapacke  ? LLVMConstInt(c->i8, (unsigned char)chars[w][t][0], 0)
                         : LLVMConstInt(c->i32, enums[w][t], 0);
      if (lapacke)
        cpos[nc++] = n;
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
  snprintf(name, sizeof name, "%s%c%s%s",
           e->fortran ? "" : lapacke ? "LAPACKE_" : "cblas_", e->single ? 's' : 'd', routine,
           e->fortran ? "_" : "");
  LLVMTypeRef ft = LLVMFunctionType(ret ? e->fty : lapacke ? e->ity : c->vd, pt, n, 0);
  LLVMValueRef f = LLVMGetNamedFunction(c->mod, name);
  if (!f)
    f = LLVMAddFunction(c->mod, name, ft);
  LLVMValueRef r = LLVMBuildCall2(e->b, ft, f, av, n, "");
  /* a char argument is sign-extended by the caller (the C ABI) */
  unsigned sx = LLVMGetEnumAttributeKindForName("signext", 7);
  for (unsigned q = 0; q < nc; q++)
    LLVMAddCallSiteAttribute(r, cpos[q] + 1, LLVMCreateEnumAttribute(c->llctx, sx, 0));
  return r;
}

static LLVMValueRef call(LtBlasEm *e, const char *routine, const char *sig, LLVMValueRef *args,
                         int ret) {
  return emit(e, 0, routine, sig, args, ret);
}

#define T(x) LLVMConstInt(e->c->i32, (unsigned)(x), 0)

void lt_blas_gemm(LtBlasEm *e, int ta, int tb, LLVMValueRef m, LLVMValueRef n,
                  LLVMValueRef k, LLVMValueRef al, LLVMValueRef A, LLVMValueRef lda,
                  LLVMValueRef B, LLVMValueRef ldb, LLVMValueRef be, LLVMValueRef C,
                  LLVMValueRef ldc) {
  LLVMValueRef a[13] = {T(ta), T(tb), m, n, k, al, A, lda, B, ldb, be, C, ldc};
  call(e, "gemm", "LTTiiifpipifpi", a, 0);
}

void lt_blas_symm(LtBlasEm *e, int right, int up, LLVMValueRef m, LLVMValueRef n,
                  LLVMValueRef al, LLVMValueRef A, LLVMValueRef lda, LLVMValueRef B,
                  LLVMValueRef ldb, LLVMValueRef be, LLVMValueRef C, LLVMValueRef ldc) {
  LLVMValueRef a[12] = {T(right), T(up), m, n, al, A, lda, B, ldb, be, C, ldc};
  call(e, "symm", "LSUiifpipifpi", a, 0);
}

/* syrk (B NULL) or syr2k: C = a (op(A) op(B)^T + op(B) op(A)^T) + b C on
 * C's triangle */
void lt_blas_syrk(LtBlasEm *e, int up, int ta, LLVMValueRef n, LLVMValueRef k, LLVMValueRef al,
                  LLVMValueRef A, LLVMValueRef lda, LLVMValueRef B, LLVMValueRef ldb,
                  LLVMValueRef be, LLVMValueRef C, LLVMValueRef ldc) {
  if (!B) {
    LLVMValueRef a[10] = {T(up), T(ta), n, k, al, A, lda, be, C, ldc};
    call(e, "syrk", "LUTiifpifpi", a, 0);
    return;
  }
  LLVMValueRef a[12] = {T(up), T(ta), n, k, al, A, lda, B, ldb, be, C, ldc};
  call(e, "syr2k", "LUTiifpipifpi", a, 0);
}

/* trmm (solve 0) or trsm (solve 1): B = a op(T) B, a B op(T) (right), or
 * with op(T)^-1 */
void lt_blas_trxm(LtBlasEm *e, int solve, int right, int up, int ta, int unit, LLVMValueRef m,
                  LLVMValueRef n, LLVMValueRef al, LLVMValueRef A, LLVMValueRef lda,
                  LLVMValueRef B, LLVMValueRef ldb) {
  LLVMValueRef a[11] = {T(right), T(up), T(ta), T(unit), m, n, al, A, lda, B, ldb};
  call(e, solve ? "trsm" : "trmm", "LSUTDiifpipi", a, 0);
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


/* LAPACK: X = S^-1 X with potrf's factor of S (up: its upper triangle),
 * X n x nrhs */
void lt_lapack_potrs(LtBlasEm *e, int up, LLVMValueRef n, LLVMValueRef nrhs, LLVMValueRef A,
                     LLVMValueRef lda, LLVMValueRef B, LLVMValueRef ldb) {
  LLVMValueRef a[7] = {T(up), n, nrhs, A, lda, B, ldb};
  emit(e, 1, "potrs", "LUiipipiI", a, 0);
}

/* X = op(A)^-1 X with getrf's factor and pivots */
void lt_lapack_getrs(LtBlasEm *e, int ta, LLVMValueRef n, LLVMValueRef nrhs, LLVMValueRef A,
                     LLVMValueRef lda, LLVMValueRef ipiv, LLVMValueRef B, LLVMValueRef ldb) {
  LLVMValueRef a[8] = {T(ta), n, nrhs, A, lda, ipiv, B, ldb};
  emit(e, 1, "getrs", "LTiipippiI", a, 0);
}

/* The row interchanges of getrf's pivots on the n columns of A: in their
 * order (P^T A, inc 1) or the reverse (P A, inc -1) */
void lt_lapack_laswp(LtBlasEm *e, LLVMValueRef n, LLVMValueRef A, LLVMValueRef lda,
                     LLVMValueRef k2, LLVMValueRef ipiv, int inc) {
  LLVMValueRef a[7] = {n, A, lda, LLVMConstInt(e->ity, 1, 0), k2, ipiv,
                       LLVMConstInt(e->ity, (unsigned long long)(long long)inc, 1)};
  emit(e, 1, "laswp", "Lipiiipi", a, 0);
}
