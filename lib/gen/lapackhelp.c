/* lapackhelp.c: matrices in a LAPACK call's own layout, for its rules
 * (gen/lapack.c, lapackfwd.c).
 *
 * The rules are written for the call's logical matrices and emit CBLAS
 * and LAPACKE calls in the call's layout, which take logical dimensions.
 * blashelp.c's helpers are column-major: a row-major n x n matrix is, to
 * them, its transpose, so a triangle of it is the other triangle (and a
 * rows x cols matrix is cols x rows). Every element-wise operation here
 * commutes with that transpose once the triangle is swapped.
 */
#include "lt.h"

/* the triangle as blashelp.c's helpers see it: 1 upper, 2 lower */
static int vtri(LtBlasEm *e, int up) { return up != e->row ? 1 : 2; }

static LLVMValueRef count(LtBlasEm *e, LLVMValueRef r, LLVMValueRef c) {
  LLVMValueRef z = LLVMConstInt(e->c->i64, 0, 0);
  LLVMValueRef a = LLVMBuildSExt(e->b, r, e->c->i64, ""), b = LLVMBuildSExt(e->b, c, e->c->i64, "");
  a = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, a, z, ""), a, z, "");
  b = LLVMBuildSelect(e->b, LLVMBuildICmp(e->b, LLVMIntSGT, b, z, ""), b, z, "");
  return LLVMBuildMul(e->b, a, b, "");
}

LLVMValueRef lt_lapack_mat(LtBlasEm *e, LLVMValueRef rows, LLVMValueRef cols, LLVMValueRef *ld,
                           int zero) {
  LLVMValueRef cnt = count(e, rows, cols);
  LLVMValueRef m = lt_blas_scratch(e, cnt);
  *ld = lt_blas_max1(e, LLVMBuildIntCast2(e->b, e->row ? cols : rows, e->ity, 1, ""));
  if (zero)
    LLVMBuildMemSet(e->b, m, LLVMConstInt(e->c->i8, 0, 0),
                    LLVMBuildMul(e->b, cnt, LLVMConstInt(e->c->i64, e->single ? 4 : 8, 0), ""),
                    e->single ? 4 : 8);
  return m;
}

LLVMValueRef lt_lapack_copy(LtBlasEm *e, LLVMValueRef rows, LLVMValueRef cols, LLVMValueRef X,
                            LLVMValueRef ldx, LLVMValueRef *ld) {
  LLVMValueRef m = lt_lapack_mat(e, rows, cols, ld, 0);
  lt_blas_mcopy(e, e->row ? cols : rows, e->row ? rows : cols, X, ldx, m);
  return m;
}

void lt_lapack_axpy(LtBlasEm *e, LLVMValueRef rows, LLVMValueRef cols, LLVMValueRef s,
                    LLVMValueRef X, LLVMValueRef ldx, LLVMValueRef Y, LLVMValueRef ldy) {
  lt_blas_maxpy(e, e->row ? cols : rows, e->row ? rows : cols, s, X, ldx, Y, ldy);
}

void lt_lapack_tri_add(LtBlasEm *e, int up, int strict, LLVMValueRef n, LLVMValueRef s,
                       LLVMValueRef X, LLVMValueRef ldx, LLVMValueRef Y, LLVMValueRef ldy) {
  lt_blas_line(e, L_AXPY, 0, vtri(e, up), strict, n, n, s, X, ldx, Y, ldy, NULL, NULL);
}

void lt_lapack_tri_scal(LtBlasEm *e, int up, int strict, LLVMValueRef n, LLVMValueRef s,
                        LLVMValueRef X, LLVMValueRef ldx) {
  lt_blas_line(e, L_SCAL, 0, vtri(e, up), strict, n, n, s, X, ldx, NULL, NULL, NULL, NULL);
}

void lt_lapack_tri_tadd(LtBlasEm *e, int up, LLVMValueRef n, LLVMValueRef X, LLVMValueRef ldx,
                        LLVMValueRef Y, LLVMValueRef ldy) {
  lt_blas_line(e, L_TAXPY, 0, vtri(e, up), 1, n, n, LLVMConstReal(e->fty, 1), X, ldx, Y, ldy,
               NULL, NULL);
}

void lt_lapack_diag_scal(LtBlasEm *e, LLVMValueRef n, LLVMValueRef s, LLVMValueRef X,
                         LLVMValueRef ldx) {
  ldx = LLVMBuildIntCast2(e->b, ldx, e->ity, 1, "");
  lt_blas_scal(e, n, s, X, LLVMBuildAdd(e->b, ldx, LLVMConstInt(e->ity, 1, 0), ""));
}
