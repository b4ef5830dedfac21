// Active values stored to and reloaded from a global and a static local, a
// double round-tripped through an int64 by memcpy, and the same array passed
// as both dup arguments (aliasing: f = 2 a0^2, so d a0 = 4 a0 = 6 at 1.5).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <string.h>
#include <stdint.h>
double gbuf;
double gtab[4];
double fglob(double x){ gbuf = x*x; return gbuf*x; }

double fpun(double x){ int64_t t; double y; memcpy(&t, &x, 8); memcpy(&y, &t, 8); return y*y; }

double fstatic(double x){ static double s; s = x*2; return s*x; }
double falias(double *a, double *b){ a[0] = a[0]*b[0]; return a[0] + b[0]; }
int main(void){
  double x=lt_vd(1.5), xn=lt_vd(-1.5);
  lt_check("global write/read", __enzyme_autodiff((void*)fglob, x), 3*x*x, 1e-12,0);

  lt_check("memcpy via int", __enzyme_autodiff((void*)fpun, x), 2*x, 1e-12,0);

  lt_check("static local", __enzyme_autodiff((void*)fstatic, x), 4*x, 1e-12,0);
  double a[1]={x}, da[1]={0};
  __enzyme_autodiff((void*)falias, a, da, a, da);
  /* a0' = a0^2 ; ret = a0^2 + a0^2 (b reads new a0) */
  lt_check("alias", da[0], 4 * x, 1e-12, 0);
  return lt_done();
}
