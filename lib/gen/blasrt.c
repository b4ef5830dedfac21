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
 * column-major layout (CBLAS only; no argument), 'T' a transpose, 'U' a
 * triangle, 'D' a diagonal, 'S' a side (args holds an i32 0 or 1
 * constant: transpose, upper, unit, right), 'i' an integer, 'f' a scalar, 'p' a
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
    case 'D':
    case 'S': {
      /* 1: transpose, upper, unit diagonal, right side */
      int t = (int)LLVMConstIntGetZExtValue(a);
      static const char *const chars[4][2] = {{"N", "T"}, {"L", "U"}, {"N", "U"}, {"L", "R"}};
      static const unsigned enums[4][2] = {{111, 112}, {122, 121}, {131, 132}, {141, 142}};
      int w = *s == 'T' ? 0 : *s == 'U' ? 1 : *s == 'D' ? 2 : 3;
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

