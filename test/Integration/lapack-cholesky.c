// Cholesky through the Fortran LAPACK symbols: dpotrf_ (lower and upper
// triangle) and dpotrs_ (one and two right-hand sides), with and without
// the hidden string lengths, on a symmetric positive definite matrix the
// program builds from its inputs. The factor is read again in the
// reverse pass where nothing overwrites it, and copied after the call
// where the program overwrites it (overwritten_factor; chol_stack, whose
// matrix is on the stack; a solve right after its factorisation reads
// the factorisation's copy, unless its size changed in between: leading), and in split mode (the caller overwrites the
// matrix between the halves). A constant factor has no adjoint: only the
// right-hand side's is computed. Gradients against central differences in
// reverse mode, forward mode at widths 1 and 4 (test/Inputs/blascheck.h).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#include "blascheck.h"

/* with the hidden length of the character argument, as gfortran has it */
void dpotrf_(const char *uplo, const int *n, double *a, const int *lda, int *info, long l);
/* without, as many C programs declare it */
void dpotrs_(const char *uplo, const int *n, const int *nrhs, const double *a, const int *lda,
             double *b, const int *ldb, int *info);

/* S = A A^T + n I on an n x n matrix (lda ld), with its upper triangle
 * (the part potrf does not read) set to something else */
static void spd(const LtT *A, LtT *S, int n, int ld) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      LtT s = i == j ? n : 0;
      for (int k = 0; k < n; k++)
        s += A[i + k * n] * A[j + k * n];
      S[i + j * ld] = s;
    }
}

static LtT chol_lower(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)B, (void)S;
  int n = 4, ld = 5, info;
  spd(A, C, n, ld);
  dpotrf_("L", &n, C, &ld, &info, 1);
  return lt_blas_loss(C, 20) + info;
}
LT_BLAS_DERIVS(chol_lower)

static LtT chol_upper(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)B, (void)S;
  int n = 4, info;
  spd(A, C, n, n);
  dpotrf_("U", &n, C, &n, &info, 1);
  return lt_blas_loss(C, 16);
}
LT_BLAS_DERIVS(chol_upper)

/* the factor and a solve, both triangles; B's two columns as right-hand
 * sides (ldb 5) */
static LtT solve(LtT *A, LtT *B, LtT *C, LtT *S, const char *uplo) {
  int n = 4, two = 2, ldb = 5, info;
  spd(A, C, n, n);
  for (int i = 0; i < 4; i++)
    C[i * 5] += S[i] * S[i];
  dpotrf_(uplo, &n, C, &n, &info, 1);
  dpotrs_(uplo, &n, &two, C, &n, B, &ldb, &info);
  return lt_blas_loss(B, 10) + lt_blas_loss(C, 16);
}
static LtT solve_lower(LtT *A, LtT *B, LtT *C, LtT *S) { return solve(A, B, C, S, "L"); }
static LtT solve_upper(LtT *A, LtT *B, LtT *C, LtT *S) { return solve(A, B, C, S, "U"); }
LT_BLAS_DERIVS(solve_lower)
LT_BLAS_DERIVS(solve_upper)

/* the program overwrites the factor after the solve: A copies it */
static LtT overwritten_factor(LtT *A, LtT *B, LtT *C, LtT *S) {
  int n = 3, one = 1, info;
  spd(A, C, n, n);
  dpotrf_("L", &n, C, &n, &info, 1);
  dpotrs_("L", &n, &one, C, &n, B, &n, &info);
  LtT r = lt_blas_loss(B, 3) + C[0] * C[4] * S[0];
  for (int i = 0; i < 9; i++)
    C[i] = S[1] * C[i] * C[i];
  return r + lt_blas_loss(C, 9);
}
LT_BLAS_DERIVS(overwritten_factor)

/* a solve with the leading 3 x 3 block of a 4 x 4 factor (the factor of
 * the leading block), n changed in between: the solve's copy is its own */
static LtT leading(LtT *A, LtT *B, LtT *C, LtT *S) {
  int n = 4, ld = 4, one = 1, info;
  spd(A, C, n, ld);
  dpotrf_("L", &n, C, &ld, &info, 1);
  n = 3;
  dpotrs_("L", &n, &one, C, &ld, B, &n, &info);
  LtT r = lt_blas_loss(B, 3) + lt_blas_loss(C, 16);
  for (int i = 0; i < 16; i++)
    C[i] = S[0] * C[i];
  return r + lt_blas_loss(C, 16);
}
LT_BLAS_DERIVS(leading)

/* a factor on the stack: R cannot read it again */
static LtT chol_stack(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)C;
  LtT T[9];
  int n = 3, one = 1, info;
  spd(A, T, n, n);
  T[0] += S[2];
  dpotrf_("U", &n, T, &n, &info, 1);
  dpotrs_("U", &n, &one, T, &n, B, &n, &info);
  return lt_blas_loss(B, 3) + T[3] * T[4] + T[8];
}
LT_BLAS_DERIVS(chol_stack)

/* a constant matrix (no shadow): only the right-hand side is active */
static LtT const_factor(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)C, (void)S;
  LtT T[9] = {4, 1, 0.5, 1, 3, 0.25, 0.5, 0.25, 2};
  int n = 3, one = 1, info;
  dpotrf_("U", &n, T, &n, &info, 1);
  for (int i = 0; i < 3; i++)
    B[i] = A[i] * A[i];
  dpotrs_("U", &n, &one, T, &n, B, &n, &info);
  return lt_blas_loss(B, 3);
}
LT_BLAS_DERIVS(const_factor)

/* split mode: the caller overwrites the matrix between the halves */
static void split_mode(void) {
  LtBlasPt p, q, d;
  lt_blas_init(&p);
  q = p;
  memset(&d, 0, sizeof d);
  void *tape = __enzyme_augmentfwd((void *)solve_upper, enzyme_dup, q.a[0], d.a[0], enzyme_dup,
                                   q.a[1], d.a[1], enzyme_dup, q.a[2], d.a[2], enzyme_dup, q.a[3],
                                   d.a[3]);
  for (int i = 0; i < LT_N; i++)
    q.a[0][i] = q.a[1][i] = q.a[2][i] = -7;
  __enzyme_reverse((void *)solve_upper, enzyme_dup, q.a[0], d.a[0], enzyme_dup, q.a[1], d.a[1],
                   enzyme_dup, q.a[2], d.a[2], enzyme_dup, q.a[3], d.a[3], 1.0, tape);
  int bad = 0;
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < LT_N; i++) {
      LtBlasPt pp = p, pm = p;
      double h = 1e-6;
      pp.a[k][i] += h;
      pm.a[k][i] -= h;
      double fd = (lt_blas_eval(solve_upper, &pp) - lt_blas_eval(solve_upper, &pm)) / (2 * h);
      bad += lt_blas_cmp("split mode vs FD", "solve_upper", k, i, d.a[k][i], fd);
    }
  lt_check("split mode: elements off", bad, 0, 0, 0);
}

int main(void) {
  split_mode();
  LT_BLAS_CASE(const_factor);
  LT_BLAS_CASE(chol_lower);
  LT_BLAS_CASE(chol_upper);
  LT_BLAS_CASE(solve_lower);
  LT_BLAS_CASE(solve_upper);
  LT_BLAS_CASE(overwritten_factor);
  LT_BLAS_CASE(leading);
  LT_BLAS_CASE(chol_stack);
  return lt_done();
}
