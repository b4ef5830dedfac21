/* lapack.c: what a LAPACK call with a rule is for AD.
 *
 * The factorisations and solves with rules: potrf (Cholesky), potrs (a
 * solve with its factor), getrf (LU with row pivots), getrs, gesv (both),
 * in double and single precision, through the Fortran symbols (dpotrf_,
 * every argument by reference, hidden string lengths possibly following)
 * and the LAPACKE wrappers (LAPACKE_dpotrf(layout, uplo, n, a, lda): a
 * layout first, scalars and flags by value, info returned). A table gives
 * each routine's operands in Fortran order; LAPACKE's are one further on,
 * without info. Unlike BLAS calls, a row-major call is not decoded as a
 * column-major one (a row-major LU is no column-major LU): its derivative
 * runs in its own layout (gen/lapack.c). The triangle and transpose flags
 * must be constants; the pivots and info are integers, never active.
 */
#include "lt.h"

#include <string.h>

#define NO -1
typedef struct {
  const char *name;
  LtBlasKind kind;
  int nargs, flag, m, n, nrhs, a, lda, ipiv, b, ldb, info;
} Routine;

/*   name     kind           nargs flag  m  n nrhs a lda ipiv b ldb info */
static const Routine table[] = {
    {"potrf", LT_BLAS_POTRF, 5, 0, NO, 1, NO, 2, 3, NO, NO, NO, 4},
    {"potrs", LT_BLAS_POTRS, 8, 0, NO, 1, 2, 3, 4, NO, 5, 6, 7},
    {"getrf", LT_BLAS_GETRF, 6, NO, 0, 1, NO, 2, 3, 4, NO, NO, 5},
    {"getrs", LT_BLAS_GETRS, 9, 0, NO, 1, 2, 3, 4, 5, 6, 7, 8},
    {"gesv", LT_BLAS_GESV, 8, NO, NO, 0, 1, 2, 3, 4, 5, 6, 7},
};

/* The character a flag operand holds: Fortran's behind a pointer to a
 * constant, LAPACKE's by value; -1 when not a constant. */
static int flag_char(LLVMValueRef v, int fortran) {
  if (!fortran)
    return LLVMIsAConstantInt(v) ? (int)(LLVMConstIntGetZExtValue(v) & 0xff) : -1;
  while (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr)
    v = LLVMGetOperand(v, 0);
  if (!LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v) || !LLVMGetInitializer(v))
    return -1;
  LLVMValueRef init = LLVMGetInitializer(v);
  if (LLVMIsAConstantDataSequential(init)) {
    size_t len;
    const char *s = LLVMGetAsString(init, &len);
    return len ? s[0] : -1;
  }
  return LLVMIsAConstantInt(init) ? (int)LLVMConstIntGetZExtValue(init) : -1;
}

static int shift(int k, int by) { return k < 0 ? k : k + by; }

LtBlasKind lt_lapack_call(LLVMValueRef call, const char *n, size_t len, LtBlasCall *out) {
  int lapacke = len > 9 && !strncmp(n, "LAPACKE_", 8);
  if (lapacke)
    n += 8, len -= 8;
  else if (len < 3 || n[len - 1] != '_')
    return LT_BLAS_NONE;
  else
    len--;
  if (len < 2 || (n[0] != 'd' && n[0] != 's'))
    return LT_BLAS_NONE;
  const Routine *r = NULL;
  for (size_t k = 0; k < sizeof table / sizeof *table; k++)
    if (strlen(table[k].name) == len - 1 && !strncmp(n + 1, table[k].name, len - 1))
      r = &table[k];
  if (!r)
    return LT_BLAS_NONE;
  LtBlasCall d;
  memset(&d, 0, sizeof d);
  d.name = r->name;
  d.kind = r->kind;
  d.nargs = r->nargs;
  d.fortran = !lapacke;
  d.lapacke = lapacke;
  d.single = n[0] == 's';
  int by = lapacke;
  d.m = shift(r->m, by), d.n = shift(r->n, by), d.k = shift(r->nrhs, by);
  d.a = shift(r->a, by), d.lda = shift(r->lda, by), d.ipiv = shift(r->ipiv, by);
  d.b = shift(r->b, by), d.ldb = shift(r->ldb, by);
  d.info = lapacke ? NO : r->info;
  d.ta = d.uplo = NO;
  if (r->flag >= 0)
    *(r->kind == LT_BLAS_GETRS ? &d.ta : &d.uplo) = shift(r->flag, by);
  d.tb = d.alpha = d.beta = d.c = d.ldc = d.x = d.incx = d.y = d.incy = d.diag = d.side = NO;
  unsigned na = LLVMGetNumArgOperands(call);
  if (na < (unsigned)r->nargs || (lapacke && na != (unsigned)r->nargs))
    return LT_BLAS_UNSUPPORTED;
  if (lapacke) {
    LLVMValueRef lay = LLVMGetOperand(call, 0);
    long long e = LLVMIsAConstantInt(lay) ? LLVMConstIntGetSExtValue(lay) : 0;
    d.row = e == 101;
    d.unknown_flag |= e != 101 && e != 102;
  }
  if (d.uplo >= 0) {
    int ch = flag_char(LLVMGetOperand(call, (unsigned)d.uplo), d.fortran);
    d.up = ch == 'U' || ch == 'u';
    d.unknown_flag |= !d.up && ch != 'L' && ch != 'l';
  }
  if (d.ta >= 0) {
    int ch = flag_char(LLVMGetOperand(call, (unsigned)d.ta), d.fortran);
    d.tra = ch > 0 && strchr("TtCc", ch) != NULL;
    d.unknown_flag |= !d.tra && ch != 'N' && ch != 'n';
  }
  if (out)
    *out = d;
  return d.kind;
}
