// A recursive C++ template determinant by expansion in minors (CppAD's
// det_of_minor, as used by gradbench "det"): the rows and columns still in
// the minor are linked lists held in std::vector<size_t> index vectors
// that the recursion edits and restores. The recursive callee stays a call
// (its own augmented forward and reverse, a heap tape per activation) and
// is reached through a non-recursive wrapper that builds the index vectors
// on the heap (std::vector, with exceptions on: invokes and landing pads;
// and off). The gradient of det(A) for 4x4 (and 3x3) matrices is checked
// against the cofactor matrix d det / dA_ij = (-1)^(i+j) M_ij and central
// finite differences; the primal value too.
// RUN: %ltclangxx -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclangxx -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclangxx -O0 -fno-exceptions %s -o %t.O0n -lm && %t.O0n
// RUN: %ltclangxx -O2 -fno-exceptions %s -o %t.O2n -lm && %t.O2n

#include "check.h"
#include "testutil.h"
#include <cmath>
#include <cstddef>
#include <leantape.h>
#include <vector>

/* Determinant of the minor of the m x m matrix A (row major) with n rows
 * and columns left: r[m] is the first row of the minor, r[i] the row after
 * row i; likewise c for the columns. */
template <typename T>
T det_of_minor(const T *A, size_t m, size_t n, std::vector<size_t> &r,
               std::vector<size_t> &c) {
  size_t R0 = r[m];
  size_t Cj = c[m];
  size_t Cj1 = m;
  if (n == 1)
    return A[R0 * m + Cj];
  T detM = T(0);
  int s = 1;
  r[m] = r[R0]; /* remove row R0 */
  for (size_t j = 0; j < n; j++) {
    size_t M0j = R0 * m + Cj;
    c[Cj1] = c[Cj]; /* remove column Cj */
    T detS = det_of_minor(A, m, n - 1, r, c);
    c[Cj1] = Cj; /* restore it */
    if (s > 0)
      detM = detM + A[M0j] * detS;
    else
      detM = detM - A[M0j] * detS;
    Cj1 = Cj;
    Cj = c[Cj];
    s = -s;
  }
  r[m] = R0;
  return detM;
}

template <typename T> T det(const T *A, size_t m) {
  std::vector<size_t> r(m + 1), c(m + 1);
  for (size_t i = 0; i < m; i++) {
    r[i] = i + 1;
    c[i] = i + 1;
  }
  r[m] = 0;
  c[m] = 0;
  return det_of_minor(A, m, m, r, c);
}

static double det_d(const double *A, size_t m) { return det<double>(A, m); }

/* independent reference: 3x3 determinant by the rule of Sarrus */
static double det3(const double *a) {
  return a[0] * (a[4] * a[8] - a[5] * a[7]) - a[1] * (a[3] * a[8] - a[5] * a[6]) +
         a[2] * (a[3] * a[7] - a[4] * a[6]);
}
/* the minor of an m x m matrix without row i and column j */
static void minor_of(const double *A, size_t m, size_t i, size_t j, double *M) {
  size_t k = 0;
  for (size_t r = 0; r < m; r++)
    for (size_t c = 0; c < m; c++)
      if (r != i && c != j)
        M[k++] = A[r * m + c];
}
static double det4_ref(const double *A) {
  double M[9], s = 0;
  for (size_t j = 0; j < 4; j++) {
    minor_of(A, 4, 0, j, M);
    s += (j & 1 ? -1 : 1) * A[j] * det3(M);
  }
  return s;
}
static double cofactor4(const double *A, size_t i, size_t j) {
  double M[9];
  minor_of(A, 4, i, j, M);
  return ((i + j) & 1 ? -1 : 1) * det3(M);
}
static double cofactor3(const double *A, size_t i, size_t j) {
  double M[4];
  minor_of(A, 3, i, j, M);
  return ((i + j) & 1 ? -1 : 1) * (M[0] * M[3] - M[1] * M[2]);
}

static double fd_det4(const double *A) { return det_d(A, 4); }
static double fd_det3(const double *A) { return det_d(A, 3); }

int main() {
  const double A0[16] = {2.0, -1.0, 0.5,  3.0,  /* */
                         1.5, 4.0,  -2.0, 0.25, /* */
                         -0.5, 1.0, 3.5,  -1.25, /* */
                         0.75, -3.0, 1.0, 2.5};
  double A[16], dA[16] = {0};
  lt_fill(A, A0, 16);
  lt_check("det 4x4: primal against the reference", det_d(A, 4), det4_ref(A),
           1e-13, 1e-13);
  __enzyme_autodiff((void *)det_d, enzyme_dup, A, dA, enzyme_const,
                    (size_t)lt_vi(4));
  for (size_t i = 0; i < 4; i++)
    for (size_t j = 0; j < 4; j++)
      lt_grad("d det4 / dA_ij (cofactor)", A[i * 4 + j], dA[i * 4 + j],
              cofactor4(A, i, j), lt_fd_arr(fd_det4, A, 16, (int)(i * 4 + j)),
              1e-12, 1e-6);
  /* gradients accumulate (+=): a second call doubles them */
  __enzyme_autodiff((void *)det_d, enzyme_dup, A, dA, enzyme_const,
                    (size_t)lt_vi(4));
  for (size_t k = 0; k < 16; k++)
    lt_check("d det4 accumulates", dA[k], 2 * cofactor4(A, k / 4, k % 4), 1e-12,
             1e-12);
  /* the primal matrix is left unchanged */
  for (size_t k = 0; k < 16; k++)
    lt_check("A unchanged", A[k], A0[k], 0, 0);

  /* 3x3, through the same derivative of det_of_minor */
  const double B0[9] = {1.25, -0.5, 2.0, 0.3, 1.7, -1.1, -2.2, 0.9, 0.6};
  double B[9], dB[9] = {0};
  lt_fill(B, B0, 9);
  __enzyme_autodiff((void *)det_d, enzyme_dup, B, dB, enzyme_const,
                    (size_t)lt_vi(3));
  for (size_t i = 0; i < 3; i++)
    for (size_t j = 0; j < 3; j++)
      lt_grad("d det3 / dB_ij (cofactor)", B[i * 3 + j], dB[i * 3 + j],
              cofactor3(B, i, j), lt_fd_arr(fd_det3, B, 9, (int)(i * 3 + j)),
              1e-12, 1e-6);
  return lt_done();
}
