// A struct passed by value (byval) with active members to a call that
// stays a call (a recursive function that also modifies its copy): the
// call passes the caller's struct and its shadow struct as pointers, the
// callee's clone copies the struct into a slot of its own, and the
// reverse of that copy adds the slot's adjoint into the caller's shadow.
// It was an error ("a struct passed by value whose members are active");
// boost odeint passes its system so at -O0. The caller changes its struct
// after the first call (the callee keeps what it read). Reverse and
// forward mode, against central differences.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2

#include <string.h>

#include "check.h"
#include <leantape.h>

double __enzyme_fwddiff(void *, ...);

typedef struct {
  double a, b, c, d, e;
  int n;
} S;

double rec(S s, int k) {
  if (k == 0)
    return s.a * s.b + sin(s.c) * s.d - s.e;
  s.a = s.a * 1.1 + s.b;
  return rec(s, k - 1) + s.a * s.e;
}

double f(double *x) {
  S s = {x[0], x[1], x[2], x[3], x[4], 3};
  double r = rec(s, 3) * x[0];
  s.a = 100 * x[2];
  s.b = x[1] * 2;
  s.c = 0.5;
  r += rec(s, 1) * 0.001;
  s.d = -3;
  return r;
}

int main(void) {
  double x[5] = {0.3, 0.7, -0.4, 1.1, 0.2}, dx[5] = {0}, t[5] = {1, 0.5, -1, 2, 0.3};
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx);
  double fw = __enzyme_fwddiff((void *)f, enzyme_dup, x, t), dir = 0;
  char name[32];
  for (int i = 0; i < 5; i++) {
    double xp[5], xm[5];
    memcpy(xp, x, sizeof xp);
    memcpy(xm, x, sizeof xm);
    volatile double a = x[i] + 1e-6, b = x[i] - 1e-6;
    xp[i] = a;
    xm[i] = b;
    double fd = (f(xp) - f(xm)) / (a - b);
    dir += fd * t[i];
    snprintf(name, sizeof name, "dx[%d]", i);
    lt_check(name, dx[i], fd, 1e-6, 1e-9);
  }
  lt_check("forward", fw, dir, 1e-6, 1e-9);
  return lt_done();
}
