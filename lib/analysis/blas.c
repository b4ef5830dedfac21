/* blas.c: what a BLAS call is for AD.
 *
 * Two interfaces name the same routines: CBLAS (cblas_dgemm, scalars by
 * value, a leading layout argument for levels 2 and 3, enums for
 * transposes) and Fortran (dgemm_, every argument by reference, possibly
 * followed by hidden string lengths). A table gives each routine's
 * operands in Fortran order; a row-major CBLAS call is decoded as the
 * column-major call it equals (C = op(A)op(B) row-major is
 * C^T = op(B)^T op(A)^T column-major: A and B, m and n swap), so the rules
 * (gen/blas.c) know one layout. Transposes and layouts must be constants
 * (enum values, or a constant string for Fortran). LAPACK routines with
 * rules are lapack.c's. Routines without a rule are LT_BLAS_UNSUPPORTED: run as they are when inactive, an error naming
 * them when active (activity.c).
 */
#include "lt.h"

#include <string.h>

#define NO -1
#define Z 0, 0, 0, 0, 0, 0, 0, 0, NO, NO, 0, 0 /* decoded per call */
/* roles in Fortran argument order:
 *   name   kind          nargs lvl ta tb  m  n  k  al  a lda  b ldb be  c ldc  x incx  y incy
 *   uplo diag side */
static const LtBlasCall table[] = {
    {"gemm", LT_BLAS_GEMM, 13, 3, 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, NO, NO, NO, NO, NO, NO, NO, Z},
    {"gemv", LT_BLAS_GEMV, 11, 2, 0, NO, 1, 2, NO, 3, 4, 5, NO, NO, 8, NO, NO, 6, 7, 9, 10, NO, NO, NO, Z},
    {"ger", LT_BLAS_GER, 9, 2, NO, NO, 0, 1, NO, 2, 7, 8, NO, NO, NO, NO, NO, 3, 4, 5, 6, NO, NO, NO, Z},
    {"symm", LT_BLAS_SYMM, 12, 3, NO, NO, 2, 3, NO, 4, 5, 6, 7, 8, 9, 10, 11, NO, NO, NO, NO, 1, NO, 0, Z},
    {"syrk", LT_BLAS_SYRK, 10, 3, 1, NO, NO, 2, 3, 4, 5, 6, NO, NO, 7, 8, 9, NO, NO, NO, NO, 0, NO, NO, Z},
    {"trmm", LT_BLAS_TRMM, 11, 3, 2, NO, 4, 5, NO, 6, 7, 8, 9, 10, NO, NO, NO, NO, NO, NO, NO, 1, 3, 0, Z},
    {"trsm", LT_BLAS_TRSM, 11, 3, 2, NO, 4, 5, NO, 6, 7, 8, 9, 10, NO, NO, NO, NO, NO, NO, NO, 1, 3, 0, Z},
    {"symv", LT_BLAS_SYMV, 10, 2, NO, NO, NO, 1, NO, 2, 3, 4, NO, NO, 7, NO, NO, 5, 6, 8, 9, 0, NO, NO, Z},
    {"trmv", LT_BLAS_TRMV, 8, 2, 1, NO, NO, 3, NO, NO, 4, 5, NO, NO, NO, NO, NO, 6, 7, NO, NO, 0, 2, NO, Z},
    {"trsv", LT_BLAS_TRSV, 8, 2, 1, NO, NO, 3, NO, NO, 4, 5, NO, NO, NO, NO, NO, 6, 7, NO, NO, 0, 2, NO, Z},
    {"dot", LT_BLAS_DOT, 5, 1, NO, NO, NO, 0, NO, NO, NO, NO, NO, NO, NO, NO, NO, 1, 2, 3, 4, NO, NO, NO, Z},
    {"axpy", LT_BLAS_AXPY, 6, 1, NO, NO, NO, 0, NO, 1, NO, NO, NO, NO, NO, NO, NO, 2, 3, 4, 5, NO, NO, NO, Z},
    {"scal", LT_BLAS_SCAL, 4, 1, NO, NO, NO, 0, NO, 1, NO, NO, NO, NO, NO, NO, NO, 2, 3, NO, NO, NO, NO, NO, Z},
    {"copy", LT_BLAS_COPY, 5, 1, NO, NO, NO, 0, NO, NO, NO, NO, NO, NO, NO, NO, NO, 1, 2, 3, 4, NO, NO, NO, Z},
    {"swap", LT_BLAS_SWAP, 5, 1, NO, NO, NO, 0, NO, NO, NO, NO, NO, NO, NO, NO, NO, 1, 2, 3, 4, NO, NO, NO, Z},
    {"nrm2", LT_BLAS_NRM2, 3, 1, NO, NO, NO, 0, NO, NO, NO, NO, NO, NO, NO, NO, NO, 1, 2, NO, NO, NO, NO, NO, Z},
    {"asum", LT_BLAS_ASUM, 3, 1, NO, NO, NO, 0, NO, NO, NO, NO, NO, NO, NO, NO, NO, 1, 2, NO, NO, NO, NO, NO, Z},
};

/* BLAS and LAPACK routines without a rule (after the precision letter):
 * recognised so that an active call names the library routine. Index
 * searches (i?amax) return integers: they are inactive. */
static const char *const other[] = {
    "hemm", "herk", "syr2k", "her2k", "hemv", "gbmv", "sbmv", "spmv", "tbmv", "tpmv", "tbsv", "tpsv", "syr",
    "syr2", "her", "her2", "spr", "spr2", "geru", "gerc", "rot", "rotg", "rotm",
    "rotmg", "dotu", "dotc", "sdot", "axpby", "omatcopy", "imatcopy",
    "potri", "getri", "posv", "sysv", "syev",
    "syevd", "gesvd", "gesdd", "geqrf", "orgqr", "ormqr", "gels", "trtrs", "lacpy",
    "lange", "gemmt", "gemm3m",
};

static int lookup(const char *n, size_t len, int *single) {
  if (len < 2 || !strchr("sdcz", n[0]))
    return -2;
  *single = n[0] == 's' || n[0] == 'c';
  int complex = n[0] == 'c' || n[0] == 'z';
  n++, len--;
  for (size_t k = 0; !complex && k < sizeof table / sizeof *table; k++)
    if (strlen(table[k].name) == len && !strncmp(n, table[k].name, len))
      return (int)k;
  for (size_t k = 0; k < sizeof other / sizeof *other; k++)
    if (strlen(other[k]) == len && !strncmp(n, other[k], len))
      return -1;
  return -2;
}

/* The name as a BLAS routine: *cblas for the C interface; the index of
 * its table entry, -1 for a routine without a rule, -2 for no BLAS name. */
static int classify(const char *n, size_t len, int *cblas, int *single, int *inert) {
  *cblas = 0;
  *inert = 0;
  if (len > 6 && !strncmp(n, "cblas_", 6)) {
    *cblas = 1;
    n += 6, len -= 6;
    if (len > 4 && n[0] == 'i' && (!strncmp(n + 2, "amax", 4) || !strncmp(n + 2, "amin", 4)))
      return *inert = 1, -1;
    int k = lookup(n, len, single);
    return k == -2 ? -1 : k; /* every cblas_ name is BLAS */
  }
  if (len > 8 && !strncmp(n, "LAPACKE_", 8))
    return -1;
  if (len < 3 || n[len - 1] != '_')
    return -2;
  if (len == 7 && n[0] == 'i' && (!strncmp(n + 2, "amax_", 5) || !strncmp(n + 2, "amin_", 5)))
    return *inert = 1, -1;
  return lookup(n, len - 1, single);
}

/* A constant flag: CBLAS's enum, or Fortran's character behind a pointer
 * to a constant. 1 for transpose (conjugate transpose is the transpose for
 * real data), row-major, upper, unit diagonal, right side; 0 for the
 * others; -1 when not a constant. */
enum { F_TRANS, F_LAYOUT, F_UPLO, F_DIAG, F_SIDE };

static int flag_of(LLVMValueRef v, int fortran, int kind) {
  if (!fortran) {
    if (!LLVMIsAConstantInt(v))
      return -1;
    long long e = LLVMConstIntGetSExtValue(v);
    static const long long base[] = {111, 102, 122, 131, 141}; /* the 0 value */
    static const long long one[] = {112, 101, 121, 132, 142};
    if (kind == F_TRANS && e == 113)
      return 1;
    return e == base[kind] ? 0 : e == one[kind] ? 1 : -1;
  }
  while (LLVMIsAConstantExpr(v) && LLVMGetConstOpcode(v) == LLVMGetElementPtr)
    v = LLVMGetOperand(v, 0);
  if (!LLVMIsAGlobalVariable(v) || !LLVMIsGlobalConstant(v) || !LLVMGetInitializer(v))
    return -1;
  LLVMValueRef init = LLVMGetInitializer(v);
  int ch = -1;
  if (LLVMIsAConstantDataSequential(init)) {
    size_t len;
    const char *s = LLVMGetAsString(init, &len);
    ch = len ? s[0] : -1;
  } else if (LLVMIsAConstantInt(init)) {
    ch = (int)LLVMConstIntGetZExtValue(init);
  }
  static const char *const zero[] = {"Nn", "", "Ll", "Nn", "Ll"};
  static const char *const ones[] = {"TtCc", "", "Uu", "Uu", "Rr"};
  if (ch > 0 && strchr(zero[kind], ch))
    return 0;
  if (ch > 0 && strchr(ones[kind], ch))
    return 1;
  return -1;
}

static void swap_int(int *a, int *b) {
  int t = *a;
  *a = *b;
  *b = t;
}

LtBlasKind lt_blas_call(LLVMValueRef call, LtBlasCall *out) {
  size_t len;
  const char *n = lt_callee_name(call, &len);
  int cblas, single, inert;
  if (out)
    memset(out, 0, sizeof *out);
  LtBlasKind lk = lt_lapack_call(call, n, len, out);
  if (lk != LT_BLAS_NONE)
    return lk;
  int k = classify(n, len, &cblas, &single, &inert);
  if (k == -2)
    return LT_BLAS_NONE;
  if (inert)
    return LT_BLAS_INERT;
  if (k < 0)
    return LT_BLAS_UNSUPPORTED;
  LtBlasCall d = table[k];
  d.fortran = !cblas;
  d.single = single;
  unsigned na = LLVMGetNumArgOperands(call);
  int shift = cblas && d.level > 1;
  if (na < (unsigned)(d.nargs + shift) || (cblas && na != (unsigned)(d.nargs + shift)))
    return LT_BLAS_UNSUPPORTED;
  int *roles[] = {&d.ta,  &d.tb,   &d.m, &d.n,   &d.k, &d.alpha, &d.a,    &d.lda,  &d.b,   &d.ldb,
                  &d.beta, &d.c, &d.ldc, &d.x, &d.incx, &d.y, &d.incy, &d.uplo, &d.diag, &d.side};
  for (size_t r = 0; r < sizeof roles / sizeof *roles; r++)
    if (*roles[r] >= 0)
      *roles[r] += shift;
  int row = shift ? flag_of(LLVMGetOperand(call, 0), 0, F_LAYOUT) : 0;
  d.tra = d.ta >= 0 ? flag_of(LLVMGetOperand(call, (unsigned)d.ta), d.fortran, F_TRANS) : 0;
  d.trb = d.tb >= 0 ? flag_of(LLVMGetOperand(call, (unsigned)d.tb), d.fortran, F_TRANS) : 0;
  d.up = d.uplo >= 0 ? flag_of(LLVMGetOperand(call, (unsigned)d.uplo), d.fortran, F_UPLO) : 0;
  d.unit = d.diag >= 0 ? flag_of(LLVMGetOperand(call, (unsigned)d.diag), d.fortran, F_DIAG) : 0;
  d.right = d.side >= 0 ? flag_of(LLVMGetOperand(call, (unsigned)d.side), d.fortran, F_SIDE) : 0;
  if (row < 0 || d.tra < 0 || d.trb < 0 || d.up < 0 || d.unit < 0 || d.right < 0)
    d.unknown_flag = 1;
  else if (row && d.uplo >= 0) {
    /* a row-major triangle is the other triangle of the column-major
     * transpose. Symmetric matrices are their transpose; a triangular
     * matrix-vector product applies the transpose; syrk's A is read
     * transposed; a matrix product from one side is one from the other
     * (B^T = B^T op(T)^T: the same op on the column-major T) */
    d.up = !d.up;
    if (d.kind == LT_BLAS_TRMV || d.kind == LT_BLAS_TRSV || d.kind == LT_BLAS_SYRK)
      d.tra = !d.tra;
    if (d.side >= 0) {
      d.right = !d.right;
      swap_int(&d.m, &d.n);
    }
  } else if (row && d.kind == LT_BLAS_GEMM) {
    swap_int(&d.m, &d.n);
    swap_int(&d.a, &d.b);
    swap_int(&d.lda, &d.ldb);
    swap_int(&d.tra, &d.trb);
  } else if (row && d.kind == LT_BLAS_GEMV) {
    swap_int(&d.m, &d.n);
    d.tra = !d.tra;
  } else if (row && d.kind == LT_BLAS_GER) {
    swap_int(&d.m, &d.n);
    swap_int(&d.x, &d.y);
    swap_int(&d.incx, &d.incy);
  }
  if (out)
    *out = d;
  return d.kind;
}

int lt_blas_is_lapack(LtBlasKind k) { return k >= LT_BLAS_POTRF && k <= LT_BLAS_GESV; }

/* The operand a call writes (its output), up to 2 into out. */
unsigned lt_blas_outputs(const LtBlasCall *d, int *out) {
  switch (d->kind) {
  case LT_BLAS_POTRF:
  case LT_BLAS_GETRF:
    out[0] = d->a;
    return 1;
  case LT_BLAS_POTRS:
  case LT_BLAS_GETRS:
    out[0] = d->b;
    return 1;
  case LT_BLAS_GESV:
    out[0] = d->a;
    out[1] = d->b;
    return 2;
  case LT_BLAS_GEMM:
  case LT_BLAS_SYMM:
  case LT_BLAS_SYRK:
    out[0] = d->c;
    return 1;
  case LT_BLAS_TRMM:
  case LT_BLAS_TRSM:
    out[0] = d->b;
    return 1;
  case LT_BLAS_GER:
    out[0] = d->a;
    return 1;
  case LT_BLAS_SCAL:
  case LT_BLAS_TRMV:
  case LT_BLAS_TRSV:
    out[0] = d->x;
    return 1;
  case LT_BLAS_GEMV:
  case LT_BLAS_SYMV:
  case LT_BLAS_AXPY:
  case LT_BLAS_COPY:
    out[0] = d->y;
    return 1;
  case LT_BLAS_SWAP:
    out[0] = d->x;
    out[1] = d->y;
    return 2;
  default:
    return 0;
  }
}

int lt_blas_writes(const LtBlasCall *d, int k) {
  int o[2];
  for (unsigned i = 0, n = lt_blas_outputs(d, o); i < n; i++)
    if (o[i] == k)
      return 1;
  return 0;
}

unsigned lt_blas_int_outputs(const LtBlasCall *d, int *out) {
  unsigned n = 0;
  if (d->ipiv >= 0 && d->kind != LT_BLAS_GETRS)
    out[n++] = d->ipiv;
  if (d->info >= 0)
    out[n++] = d->info;
  return n;
}

/* The matrices and vectors a call reads (gemm's C too: beta may not be
 * zero), up to 5. */
unsigned lt_blas_inputs(const LtBlasCall *d, int *out) {
  unsigned n = 0;
  int r[] = {d->a, d->b, d->c, d->x, d->y};
  for (size_t k = 0; k < sizeof r / sizeof *r; k++)
    if (r[k] >= 0 && !(d->kind == LT_BLAS_COPY && r[k] == d->y))
      out[n++] = r[k];
  return n;
}
