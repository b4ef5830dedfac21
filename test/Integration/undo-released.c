// A store that may write memory the function frees is never logged: the
// reverse pass would restore its old value into the freed block (fuzz
// --cxx --calls seed 1014509 at -O2: heap corruption, a crash;
// analysis/overwrite.c store_released). Here pq is y + j/2 or v + 1 by the
// data, v malloc'd and freed in f; the loads of y that pq[0] may
// overwrite are taped instead (no lt.undo.save: with the check removed,
// the store is logged), and the gradient is right against central
// differences at -O0 and -O2.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O2 -S -emit-llvm %s -o - | FileCheck %s
// CHECK-LABEL: define {{.*}} @main(
// CHECK-NOT: @lt.undo.save(

#include "check.h"
#include <leantape.h>
#include <stdlib.h>
#include <string.h>

#define NI __attribute__((noinline))
#define N 6

NI double f(double *y, int n, int k) {
  double *v = malloc(8 * sizeof *v);
  for (int i = 0; i < 8; i++)
    v[i] = 1.0 + i;
  double s = 0;
  for (int j = 0; j < n; j++) {
    for (int i = 0; i < n; i++)
      s += y[i] * y[i] * 0.1;
    double *pq = (k + j) % 2 == 0 ? y + j / 2 : v + 1;
    pq[0] = 0.5 * s + pq[2];
  }
  s += v[1] * v[3];
  free(v);
  return s;
}

static double at(const double *y0, int k) {
  double y[N];
  memcpy(y, y0, sizeof y);
  return f(y, N, k);
}

int main(void) {
  for (int k = 0; k < 2; k++) {
    double y0[N], y[N], dy[N];
    for (int i = 0; i < N; i++)
      y0[i] = 0.3 + 0.1 * i;
    memcpy(y, y0, sizeof y);
    memset(dy, 0, sizeof dy);
    __enzyme_autodiff((void *)f, enzyme_dup, y, dy, enzyme_const, N, enzyme_const, k);
    for (int i = 0; i < N; i++) {
      double h = 1e-6, yp[N], ym[N];
      memcpy(yp, y0, sizeof yp);
      memcpy(ym, y0, sizeof ym);
      yp[i] += h;
      ym[i] -= h;
      char what[32];
      snprintf(what, sizeof what, "k %d d[%d]", k, i);
      lt_check(what, dy[i], (at(yp, k) - at(ym, k)) / (2 * h), 1e-6, 1e-9);
    }
  }
  return lt_done();
}
