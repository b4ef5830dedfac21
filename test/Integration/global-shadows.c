// Global shadows (-mllvm -leantape-global-shadows; Enzyme's global
// activity): code that keeps active state in globals, a scratch array that
// a setup function fills, a struct of a scale and a pointer to the scratch
// array, a running sum. Each mutable global that may hold floating-point
// data or pointers gets a shadow global, zeroed when a derivative call
// begins (so a second gradient starts clean); globals registered with
// __enzyme_inactive_global and integer globals get none. Reverse mode,
// split mode (the shadows carry from the augmented call to the reverse
// call) and forward mode, against central differences. Without the option
// the clear error stays.
// RUN: %ltclang %ltload -O0 -mllvm -leantape-global-shadows %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang %ltload -O2 -mllvm -leantape-global-shadows %s -o %t.O2 -lm && %t.O2
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=OFF
// RUN: %ltclang %ltload -O2 -mllvm -leantape-global-shadows -S -emit-llvm %s -o - | FileCheck %s
// OFF: error: leantape: this reads back an active value that was stored to memory that has no shadow
// CHECK-DAG: @scratch.lt.shadow = internal global [4 x double] zeroinitializer
// CHECK-DAG: @P.lt.shadow = internal global
// CHECK-NOT: @calls.lt.shadow
// CHECK-NOT: @table.lt.shadow

#include "check.h"
#include <leantape.h>
#include <string.h>

double __enzyme_fwddiff(void *, ...);

static double scratch[4];
double state;
struct params {
  double k;
  double *buf;
} P;
int calls;                       /* an integer: no shadow */
double table[4] = {1, 2, 3, 4};  /* registered inactive: no shadow */
void *__enzyme_inactive_global = table;

__attribute__((noinline)) static void setup(const double *x) {
  for (int i = 0; i < 4; i++)
    scratch[i] = sin(x[i]) * x[(i + 1) % 4] * table[i];
  P.k = x[0] * x[1];
  P.buf = scratch;
  calls++;
}

double f(double *x) {
  setup(x);
  state = 0;
  for (int i = 0; i < 4; i++)
    state += P.buf[i] * P.k;
  return state * state;
}

static void fd_grad(const double *x, double *g) {
  for (int i = 0; i < 4; i++) {
    double xp[4], xm[4];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    volatile double a = x[i] + 1e-6, b = x[i] - 1e-6;
    xp[i] = a;
    xm[i] = b;
    g[i] = (f(xp) - f(xm)) / (a - b);
  }
}

int main(void) {
  double x[4] = {0.3, 0.7, -0.4, 1.1}, g[4], t[4] = {1, 0.5, -1, 2};
  fd_grad(x, g);
  char name[64];
  for (int round = 0; round < 2; round++) { /* the second starts clean */
    double dx[4] = {0};
    __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
    for (int i = 0; i < 4; i++) {
      snprintf(name, sizeof name, "round %d dx[%d]", round, i);
      lt_check(name, dx[i], g[i], 1e-6, 1e-9);
    }
  }
  double ds[4] = {0};
  void *tape = __enzyme_augmentfwd((void *)f, enzyme_dup, x, ds);
  __enzyme_reverse((void *)f, enzyme_dup, x, ds, 1.0, tape);
  for (int i = 0; i < 4; i++) {
    snprintf(name, sizeof name, "split dx[%d]", i);
    lt_check(name, ds[i], g[i], 1e-6, 1e-9);
  }
  double fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, t), dir = 0;
  for (int i = 0; i < 4; i++)
    dir += g[i] * t[i];
  lt_check("forward", fw, dir, 1e-6, 1e-9);
  return lt_done();
}
