// Unmarked pointer parameters that only carry integers (Enzyme's
// typed-pointer-era style: `int *n`, `long **meta` passed without a marker)
// are taken as enzyme_const, so they consume no shadow argument; the
// unmarked double * is still enzyme_dup. *n is also written (a call
// counter), meta holds an index table and integer weights, and the int
// pointer is passed on to a helper. Each such parameter gets a remark. A
// float pointer that the function only passes on, to a recursive helper
// that never reads it (Enzyme's mixedstruct1-old.c), is no evidence: it
// stays enzyme_dup (at -O0 the spill of the parameter to its stack slot
// and the reloads are not accesses through it). The same holds in forward
// mode (it took `long **meta` as enzyme_dup and asked for its shadow),
// through three levels of pointers (long ***), a struct of an int and an
// index pointer, and a memcpy of the integers into a local buffer (at -O1
// an untagged i64 load used as an integer).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %ltclang -O0 -g -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: %ltclang -O2 -g -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

__attribute__((noinline)) static int get_len(const int *n) { return *n; }

/* s = sum_i x[idx_i] x_i w_i, idx = meta[0], w = meta[1]; ++*calls */
double f(const double *x, int *n, long **meta, int *calls) {
  double s = 0;
  for (int i = 0; i < get_len(n); i++)
    s += x[meta[0][i]] * x[i] * (double)meta[1][i];
  *calls += 1;
  return s;
}

/* w is passed along but never read (as the window of mixedstruct1-old) */
double walk(const double *w, const double *x, int k) {
  return k <= 0 ? x[0] * x[0] : walk(w, x + 1, k - 1) + sin(x[0]);
}
double g(const double *w, const double *x) { return walk(w, x, 2); }

/* t = sum_i x[s->perm[i]] m3[0][0][i], times the second integer copied
 * out of m3[0][0], plus sin(x[cnt[1]]); ++cnt[0] */
struct idx {
  int n;
  long *perm;
};
double h(const double *x, long ***m3, struct idx *s, int *cnt) {
  double t = 0;
  for (int i = 0; i < s->n; i++)
    t += x[s->perm[i]] * (double)m3[0][0][i];
  long tmp[2];
  memcpy(tmp, m3[0][0], sizeof tmp);
  *cnt += 1;
  return t * (double)tmp[1] + sin(x[cnt[1]]);
}

double __enzyme_fwddiff(void *, ...);

enum { N = 4 };
static long g_idx[N] = {2, 0, 3, 3}, g_w[N] = {1, -2, 3, 5};
static long *g_meta[2] = {g_idx, g_w};
static double fd_f(const double *x) {
  int n = N, c = 0;
  return f(x, &n, g_meta, &c);
}

int main(void) {
  const double x0[N] = {0.5, -1.5, 2.25, 0.75};
  double x[N], dx[N] = {0};
  int n = lt_vi(N), calls = 0;
  lt_fill(x, x0, N);
  // CHECK-DAG: unmarked-int-pointers.c:[[@LINE+4]]:{{[0-9]+}}: remark: parameter 2 of 'f' (an unmarked pointer) is taken as enzyme_const
  // CHECK-DAG: unmarked-int-pointers.c:[[@LINE+3]]:{{[0-9]+}}: remark: parameter 3 of 'f' (an unmarked pointer) is taken as enzyme_const
  // CHECK-DAG: unmarked-int-pointers.c:[[@LINE+2]]:{{[0-9]+}}: remark: parameter 4 of 'f' (an unmarked pointer) is taken as enzyme_const
  // CHECK-NOT: parameter 1 of 'f' (an unmarked pointer) is taken as enzyme_const
  double r = __enzyme_autodiff((void *)f, x, dx, &n, g_meta, &calls);
  (void)r;
  for (int j = 0; j < N; j++) {
    double an = 0;
    for (int i = 0; i < N; i++) {
      if (g_idx[i] == j)
        an += x[i] * g_w[i];
      if (i == j)
        an += x[g_idx[i]] * g_w[i];
    }
    lt_grad("unmarked int pointers: dx", x[j], dx[j], an,
            lt_fd_arr(fd_f, x, N, j), 1e-12, 1e-6);
  }
  lt_check("int pointer written once", calls, 1, 0, 0);
  lt_check("n unchanged", n, N, 0, 0);
  lt_check("meta unchanged", g_idx[0] + 10 * g_w[3], 2 + 50, 0, 0);
  double w[N] = {1, 2, 3, 4}, dw[N] = {0};
  for (int i = 0; i < N; i++)
    dx[i] = 0;
  // CHECK-NOT: parameter 1 of 'g' (an unmarked pointer) is taken as enzyme_const
  __enzyme_autodiff((void *)g, w, dw, x, dx);
  lt_check("unread float pointer stays dup: dx[0]", dx[0], cos(x[0]), 1e-14, 0);
  lt_check("dx[1]", dx[1], cos(x[1]), 1e-14, 0);
  lt_check("dx[2]", dx[2], 2 * x[2], 1e-14, 0);
  lt_check("dw untouched", dw[0] + dw[3], 0, 0, 0);

  /* forward mode: f along e_1 */
  double tx[N] = {0, 1, 0, 0};
  calls = 0;
  // CHECK-DAG: unmarked-int-pointers.c:[[@LINE+1]]:{{[0-9]+}}: remark: parameter 3 of 'f' (an unmarked pointer) is taken as enzyme_const
  double tf = __enzyme_fwddiff((void *)f, x, tx, &n, g_meta, &calls);
  double an1 = 0;
  for (int i = 0; i < N; i++)
    an1 += (g_idx[i] == 1 ? x[i] * g_w[i] : 0) + (i == 1 ? x[g_idx[i]] * g_w[i] : 0);
  lt_check("forward f along e_1", tf, an1, 1e-12, 0);
  lt_check("forward: int pointer written once", calls, 1, 0, 0);

  /* h: long ***, a struct of integers, a copy of integers */
  long a3[3] = {2, 3, 4}, perm[3] = {3, 1, 0};
  long *pa = a3, **ppa = &pa;
  struct idx st = {3, perm};
  int cnt[2] = {0, 2};
  double hx[N] = {1, 2, 3, 4}, dh[N] = {0}, th[N] = {0, 1, 0, 0};
  // CHECK-DAG: unmarked-int-pointers.c:[[@LINE+1]]:{{[0-9]+}}: remark: parameter 2 of 'h' (an unmarked pointer) is taken as enzyme_const
  __enzyme_autodiff((void *)h, hx, dh, &ppa, &st, cnt);
  double ht = __enzyme_fwddiff((void *)h, hx, th, &ppa, &st, cnt);
  /* dh/dx[3] = 2*3, dx[1] = 3*3, dx[0] = 4*3, dx[2] = cos(x[2]) */
  lt_check("h: dx[0]", dh[0], 12, 1e-14, 0);
  lt_check("h: dx[1]", dh[1], 9, 1e-14, 0);
  lt_check("h: dx[2]", dh[2], cos(hx[2]), 1e-14, 0);
  lt_check("h: dx[3]", dh[3], 6, 1e-14, 0);
  lt_check("h: forward along e_1", ht, 9, 1e-14, 0);
  lt_check("h: counter", cnt[0], 2, 0, 0);
  return lt_done();
}
// CHECK-NOT: error:
