// LU with row pivots through the Fortran LAPACK symbols: dgetrf_, dgetrs_
// (plain and transposed, with and without the hidden string length),
// dgesv_, on matrices the program builds from its inputs so that the
// factorisation interchanges rows (a large anti-diagonal). The pivots and
// info are integers: the losses use info, and the pivots choose an
// element, which carries no derivative. The factor and pivots are read
// again in the reverse pass where nothing overwrites them, copied after
// the call where the program overwrites them (overwritten), and in split
// mode, where the caller may change them between the halves. A constant
// matrix has no adjoint: only the right-hand side's is computed. Gradients
// against central differences in reverse mode, forward mode at widths 1
// and 4 (test/Inputs/blascheck.h).
// REQUIRES: blas
// RUN: %ltclang -O0 %s -o %t.O0 %blaslibs -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 %blaslibs -lm && %t.O2

#include "blascheck.h"

void dgetrf_(const int *m, const int *n, double *a, const int *lda, int *ipiv, int *info);
void dgetrs_(const char *t, const int *n, const int *nrhs, const double *a, const int *lda,
             const int *ipiv, double *b, const int *ldb, int *info, long lt);
void dgesv_(const int *n, const int *nrhs, double *a, const int *lda, int *ipiv, double *b,
            const int *ldb, int *info);

/* M = A + 3 J (J the anti-diagonal), n x n with leading dimension ld */
static void general(const LtT *A, LtT *M, int n, int ld) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++)
      M[i + j * ld] = A[i + j * n] + (i + j == n - 1 ? 3 : 0);
}

static LtT lu(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)B, (void)S;
  int n = 4, ld = 5, ipiv[4], info;
  general(A, C, n, ld);
  dgetrf_(&n, &n, C, &ld, ipiv, &info);
  return lt_blas_loss(C, 20) + C[ipiv[0]] + info;
}
LT_BLAS_DERIVS(lu)

static LtT lu_solve(LtT *A, LtT *B, LtT *C, LtT *S, const char *t) {
  int n = 4, two = 2, ldb = 5, ipiv[4], info;
  general(A, C, n, n);
  C[5] += S[0] * S[1];
  dgetrf_(&n, &n, C, &n, ipiv, &info);
  dgetrs_(t, &n, &two, C, &n, ipiv, B, &ldb, &info, 1);
  return lt_blas_loss(B, 10) + lt_blas_loss(C, 16);
}
static LtT lu_solve_n(LtT *A, LtT *B, LtT *C, LtT *S) { return lu_solve(A, B, C, S, "N"); }
static LtT lu_solve_t(LtT *A, LtT *B, LtT *C, LtT *S) { return lu_solve(A, B, C, S, "T"); }
LT_BLAS_DERIVS(lu_solve_n)
LT_BLAS_DERIVS(lu_solve_t)

static LtT gesv(LtT *A, LtT *B, LtT *C, LtT *S) {
  int n = 3, two = 2, ipiv[3], info;
  general(A, C, n, n);
  C[2] += S[0];
  dgesv_(&n, &two, C, &n, ipiv, B, &n, &info);
  return lt_blas_loss(B, 6) + lt_blas_loss(C, 9) * S[1];
}
LT_BLAS_DERIVS(gesv)

/* only the solution is used: the factor's adjoint is zero */
static LtT gesv_x(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)S;
  int n = 4, one = 1, ipiv[4], info;
  general(A, C, n, n);
  dgesv_(&n, &one, C, &n, ipiv, B, &n, &info);
  return lt_blas_loss(B, 4);
}
LT_BLAS_DERIVS(gesv_x)

/* the factor, the pivots and the solution overwritten after the calls */
static LtT overwritten(LtT *A, LtT *B, LtT *C, LtT *S) {
  int n = 3, one = 1, ipiv[3], info;
  general(A, C, n, n);
  dgetrf_(&n, &n, C, &n, ipiv, &info);
  dgetrs_("N", &n, &one, C, &n, ipiv, B, &n, &info, 1);
  LtT r = lt_blas_loss(B, 3) + lt_blas_loss(C, 9);
  for (int i = 0; i < 9; i++)
    C[i] = S[0] * C[i];
  B[0] = B[1] * B[2];
  ipiv[0] = ipiv[1] = ipiv[2] = 1;
  return r + lt_blas_loss(C, 9) + B[0] + ipiv[0];
}
LT_BLAS_DERIVS(overwritten)

/* a constant matrix (no shadow): only the right-hand side is active, and
 * the rules solve with the factor */
static LtT const_matrix(LtT *A, LtT *B, LtT *C, LtT *S) {
  (void)C;
  static const LtT K[9] = {0.5, 2, 0.25, 1, 0.5, 3, 4, 0.75, 0.5};
  LtT T[9];
  int n = 3, one = 1, ipiv[3], info;
  for (int i = 0; i < 9; i++)
    T[i] = K[i];
  dgetrf_(&n, &n, T, &n, ipiv, &info);
  for (int i = 0; i < 3; i++)
    B[i] = A[i] * S[0];
  dgetrs_("T", &n, &one, T, &n, ipiv, B, &n, &info, 1);
  dgesv_(&n, &one, T, &n, ipiv, B + 3, &n, &info); /* T is the factor: any matrix */
  return lt_blas_loss(B, 6);
}
LT_BLAS_DERIVS(const_matrix)

/* split mode: __enzyme_augmentfwd, the caller overwrites the matrix and
 * the right-hand sides, __enzyme_reverse: the factor, the pivots and the
 * solution come from the tape */
static void split_mode(void) {
  LtBlasPt p, q, d;
  lt_blas_init(&p);
  q = p;
  memset(&d, 0, sizeof d);
  void *tape = __enzyme_augmentfwd((void *)lu_solve_n, enzyme_dup, q.a[0], d.a[0], enzyme_dup,
                                   q.a[1], d.a[1], enzyme_dup, q.a[2], d.a[2], enzyme_dup, q.a[3],
                                   d.a[3]);
  for (int i = 0; i < LT_N; i++)
    q.a[0][i] = q.a[1][i] = q.a[2][i] = -7;
  __enzyme_reverse((void *)lu_solve_n, enzyme_dup, q.a[0], d.a[0], enzyme_dup, q.a[1], d.a[1],
                   enzyme_dup, q.a[2], d.a[2], enzyme_dup, q.a[3], d.a[3], 1.0, tape);
  int bad = 0;
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < LT_N; i++) {
      LtBlasPt pp = p, pm = p;
      double h = 1e-6;
      pp.a[k][i] += h;
      pm.a[k][i] -= h;
      double fd = (lt_blas_eval(lu_solve_n, &pp) - lt_blas_eval(lu_solve_n, &pm)) / (2 * h);
      bad += lt_blas_cmp("split mode vs FD", "lu_solve_n", k, i, d.a[k][i], fd);
    }
  lt_check("split mode: elements off", bad, 0, 0, 0);
}

int main(void) {
  split_mode();
  LT_BLAS_CASE(const_matrix);
  LT_BLAS_CASE(lu);
  LT_BLAS_CASE(lu_solve_n);
  LT_BLAS_CASE(lu_solve_t);
  LT_BLAS_CASE(gesv);
  LT_BLAS_CASE(gesv_x);
  LT_BLAS_CASE(overwritten);
  return lt_done();
}
