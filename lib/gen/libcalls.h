/* libcalls.h: BLAS and LAPACK calls, their reverse and forward rules and
 * the helpers they share. Part of gen.h (included there, after LtGen). */
#ifndef LT_GEN_LIBCALLS_H
#define LT_GEN_LIBCALLS_H

/* blas.c, blasfwd.c, blasrt.c: BLAS routines (analysis/blas.c decodes
 * them). R, at g->b: the adjoint calls; A, before acall (the call's
 * clone): the copies of operands the program overwrites before R reads
 * them, and Fortran's scalars, as the call's record on the tape. */
int lt_blas_reverse(LtGen *g, LLVMValueRef call);
/* The values of a call's roles where the rules run (ints in the
 * interface's type; alpha, beta NULL when the routine has none). */
typedef struct LtBlasVals {
  LLVMValueRef m, n, k, lda, ldb, ldc, incx, incy, alpha, beta;
  LLVMValueRef a, b, c, x, y;
} LtBlasVals;
typedef struct LtBlasEm LtBlasEm;
/* R: alpha's (k 0) or beta's (k 1) adjoint gets d. */
void lt_blas_scalar_adj(LtGen *g, const LtBlasNeed *nd, LLVMValueRef call, int k,
                        LLVMValueRef d);
int lt_blas_is_one(LLVMValueRef v);              /* the constant 1.0 */
LLVMValueRef lt_blas_max1(LtBlasEm *e, LLVMValueRef x); /* max(x, 1) */
/* blas3.c: the reverse of symm, syrk, trmm, trsm (v: primal values, the
 * copies where the plan made them; s: shadows) */
void lt_blas_rev3(LtGen *g, LtBlasEm *e, const LtBlasNeed *nd, LLVMValueRef call,
                  LtBlasVals *v, LtBlasVals *s);
int lt_blas_forward(LtGen *g, LLVMValueRef call, LLVMValueRef acall);
/* The calls the rules emit, in the program's interface (CBLAS or
 * Fortran) and precision, at e->b in function e->fn. */
struct LtBlasEm {
  LtCtx *c;
  LLVMBuilderRef b;
  LLVMValueRef fn;
  int fortran, single;
  int row;     /* CBLAS and LAPACKE calls in row-major layout */
  int lapacke; /* LAPACK routines as LAPACKE wrappers */
  LLVMTypeRef ity, fty;
};
void lt_blas_em_init(LtBlasEm *e, LtCtx *c, LLVMBuilderRef b, LLVMValueRef fn,
                     const LtBlasCall *d, LLVMValueRef call);
void lt_blas_gemm(LtBlasEm *e, int ta, int tb, LLVMValueRef m, LLVMValueRef n,
                  LLVMValueRef k, LLVMValueRef al, LLVMValueRef A, LLVMValueRef lda,
                  LLVMValueRef B, LLVMValueRef ldb, LLVMValueRef be, LLVMValueRef C,
                  LLVMValueRef ldc);
void lt_blas_symm(LtBlasEm *e, int right, int up, LLVMValueRef m, LLVMValueRef n,
                  LLVMValueRef al, LLVMValueRef A, LLVMValueRef lda, LLVMValueRef B,
                  LLVMValueRef ldb, LLVMValueRef be, LLVMValueRef C, LLVMValueRef ldc);
void lt_blas_syrk(LtBlasEm *e, int up, int ta, LLVMValueRef n, LLVMValueRef k, LLVMValueRef al,
                  LLVMValueRef A, LLVMValueRef lda, LLVMValueRef B, LLVMValueRef ldb,
                  LLVMValueRef be, LLVMValueRef C, LLVMValueRef ldc);
void lt_blas_trxm(LtBlasEm *e, int solve, int right, int up, int ta, int unit, LLVMValueRef m,
                  LLVMValueRef n, LLVMValueRef al, LLVMValueRef A, LLVMValueRef lda,
                  LLVMValueRef B, LLVMValueRef ldb);
void lt_blas_gemv(LtBlasEm *e, int ta, LLVMValueRef m, LLVMValueRef n, LLVMValueRef al,
                  LLVMValueRef A, LLVMValueRef lda, LLVMValueRef x, LLVMValueRef incx,
                  LLVMValueRef be, LLVMValueRef y, LLVMValueRef incy);
void lt_blas_ger(LtBlasEm *e, LLVMValueRef m, LLVMValueRef n, LLVMValueRef al,
                 LLVMValueRef x, LLVMValueRef incx, LLVMValueRef y, LLVMValueRef incy,
                 LLVMValueRef A, LLVMValueRef lda);
void lt_blas_symv(LtBlasEm *e, int up, LLVMValueRef n, LLVMValueRef al, LLVMValueRef A,
                  LLVMValueRef lda, LLVMValueRef x, LLVMValueRef incx, LLVMValueRef be,
                  LLVMValueRef y, LLVMValueRef incy);
void lt_blas_syr2(LtBlasEm *e, int up, LLVMValueRef n, LLVMValueRef al, LLVMValueRef x,
                  LLVMValueRef incx, LLVMValueRef y, LLVMValueRef incy, LLVMValueRef A,
                  LLVMValueRef lda);
void lt_blas_trxv(LtBlasEm *e, int solve, int up, int ta, int unit, LLVMValueRef n,
                  LLVMValueRef A, LLVMValueRef lda, LLVMValueRef x, LLVMValueRef incx);
LLVMValueRef lt_blas_dot(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef incx,
                         LLVMValueRef y, LLVMValueRef incy);
void lt_blas_axpy(LtBlasEm *e, LLVMValueRef n, LLVMValueRef al, LLVMValueRef x,
                  LLVMValueRef incx, LLVMValueRef y, LLVMValueRef incy);
void lt_blas_scal(LtBlasEm *e, LLVMValueRef n, LLVMValueRef al, LLVMValueRef x,
                  LLVMValueRef incx);
void lt_blas_copy(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef incx,
                  LLVMValueRef y, LLVMValueRef incy);
void lt_blas_swap(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef incx,
                  LLVMValueRef y, LLVMValueRef incy);
/* LAPACK routines in the program's interface (Fortran or LAPACKE, and
 * its layout): potrs, getrs; laswp's interchanges, in order (inc 1) or
 * reversed (inc -1), rows 1..k2. */
void lt_lapack_potrs(LtBlasEm *e, int up, LLVMValueRef n, LLVMValueRef nrhs, LLVMValueRef A,
                     LLVMValueRef lda, LLVMValueRef B, LLVMValueRef ldb);
void lt_lapack_getrs(LtBlasEm *e, int ta, LLVMValueRef n, LLVMValueRef nrhs, LLVMValueRef A,
                     LLVMValueRef lda, LLVMValueRef ipiv, LLVMValueRef B, LLVMValueRef ldb);
void lt_lapack_laswp(LtBlasEm *e, LLVMValueRef n, LLVMValueRef A, LLVMValueRef lda,
                     LLVMValueRef k2, LLVMValueRef ipiv, int inc);
/* lapack.c: LAPACK's factorisations and solves. R, at g->b: the
 * adjoint; A, after acall: copies of what R reads that the program
 * overwrites later (the plan's, plan/lapack.c), as the call's record. */
int lt_lapack_forward(LtGen *g, LLVMValueRef call, LLVMValueRef acall);
int lt_lapack_reverse(LtGen *g, LLVMValueRef call);
/* What the rules read, in the call's layout: n, nrhs; the factor, the
 * solution and the pivots as the call leaves them; the shadows of A and
 * B (NULL if none) with their own leading dimensions. */
typedef struct LtLapackVals {
  LLVMValueRef n, nrhs;
  LLVMValueRef a, lda, b, ldb, p;
  LLVMValueRef da, ldda, db, lddb;
} LtLapackVals;
/* lapackhelp.c: matrices in the call's layout (e->row) for the rules: a
 * scratch rows x cols matrix (zeroed if zero; *ld its leading dimension),
 * a copy into one; on n x n matrices: Y's triangle (up; strict: without
 * the diagonal) += s X's, X's triangle *= s, Y's other strict triangle
 * += X's strict triangle (up) transposed, the diagonal *= s. */
LLVMValueRef lt_lapack_mat(LtBlasEm *e, LLVMValueRef rows, LLVMValueRef cols, LLVMValueRef *ld,
                           int zero);
LLVMValueRef lt_lapack_copy(LtBlasEm *e, LLVMValueRef rows, LLVMValueRef cols, LLVMValueRef X,
                            LLVMValueRef ldx, LLVMValueRef *ld);
void lt_lapack_axpy(LtBlasEm *e, LLVMValueRef rows, LLVMValueRef cols, LLVMValueRef s,
                    LLVMValueRef X, LLVMValueRef ldx, LLVMValueRef Y, LLVMValueRef ldy);
void lt_lapack_tri_add(LtBlasEm *e, int up, int strict, LLVMValueRef n, LLVMValueRef s,
                       LLVMValueRef X, LLVMValueRef ldx, LLVMValueRef Y, LLVMValueRef ldy);
void lt_lapack_tri_scal(LtBlasEm *e, int up, int strict, LLVMValueRef n, LLVMValueRef s,
                        LLVMValueRef X, LLVMValueRef ldx);
void lt_lapack_tri_tadd(LtBlasEm *e, int up, LLVMValueRef n, LLVMValueRef X, LLVMValueRef ldx,
                        LLVMValueRef Y, LLVMValueRef ldy);
void lt_lapack_diag_scal(LtBlasEm *e, LLVMValueRef n, LLVMValueRef s, LLVMValueRef X,
                         LLVMValueRef ldx);
/* lapack.c: the reverse of getrf on dA (the factor's adjoint becomes A's) */
void lt_lapack_getrf_rev(LtBlasEm *e, LtLapackVals *v);
/* m x n column-major matrices with leading dimensions: a packed copy
 * (leading dimension m), <X, Y>, X *= s, Y += s X; asum's adjoint
 * (dx += dr sign(x)) and tangent (sum of sign(x) dx). */
void lt_blas_mcopy(LtBlasEm *e, LLVMValueRef m, LLVMValueRef n, LLVMValueRef A,
                   LLVMValueRef lda, LLVMValueRef dst);
LLVMValueRef lt_blas_mdot(LtBlasEm *e, LLVMValueRef m, LLVMValueRef n, LLVMValueRef X,
                          LLVMValueRef ldx, LLVMValueRef Y, LLVMValueRef ldy);
void lt_blas_mscal(LtBlasEm *e, LLVMValueRef m, LLVMValueRef n, LLVMValueRef s, LLVMValueRef X,
                   LLVMValueRef ldx);
void lt_blas_maxpy(LtBlasEm *e, LLVMValueRef m, LLVMValueRef n, LLVMValueRef s, LLVMValueRef X,
                   LLVMValueRef ldx, LLVMValueRef Y, LLVMValueRef ldy);
/* Packed (unit-stride) vectors u, v of n elements: T += s u v^T on T's
 * upper (up) or lower triangle, without the diagonal when strict; and
 * T's diagonal += s u .* v. */
void lt_blas_tger(LtBlasEm *e, int up, int strict, LLVMValueRef n, LLVMValueRef s,
                  LLVMValueRef u, LLVMValueRef v, LLVMValueRef T, LLVMValueRef ldt);
void lt_blas_tdiag(LtBlasEm *e, LLVMValueRef n, LLVMValueRef s, LLVMValueRef u, LLVMValueRef v,
                   LLVMValueRef T, LLVMValueRef ldt);
/* A loop over the lines j < n of X and Y (columns, or rows when rows;
 * m elements, or the part of column j in the upper (tri 1) or lower (2)
 * triangle of an n x n matrix, strict: without the diagonal): L_DOT sums
 * <X_j, Y_j>; L_SCAL X_j *= s; L_AXPY Y_j += s X_j; L_DIAGDOT
 * D_jj += s <X_j, Y_j>; L_DSCALE Y_j += s D_jj X_j; L_TAXPY row j of Y
 * += s X_j (columns of X only: Y's other triangle gets X's transposed). */
enum { L_DOT, L_SCAL, L_AXPY, L_DIAGDOT, L_DSCALE, L_TAXPY };
LLVMValueRef lt_blas_line(LtBlasEm *e, int op, int rows, int tri, int strict, LLVMValueRef m,
                          LLVMValueRef n, LLVMValueRef s, LLVMValueRef X, LLVMValueRef ldx,
                          LLVMValueRef Y, LLVMValueRef ldy, LLVMValueRef D, LLVMValueRef ldd);
/* A scratch block of count elements (i64) at e->b; a packed copy of the
 * vector x (n elements, stride inc) in one. The caller frees them. */
LLVMValueRef lt_blas_scratch(LtBlasEm *e, LLVMValueRef count);
LLVMValueRef lt_blas_pack(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef inc);
void lt_blas_asum_rev(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef incx,
                      LLVMValueRef dx, LLVMValueRef incd, LLVMValueRef dr);
LLVMValueRef lt_blas_asum_tan(LtBlasEm *e, LLVMValueRef n, LLVMValueRef x, LLVMValueRef incx,
                              LLVMValueRef dx);

#endif
