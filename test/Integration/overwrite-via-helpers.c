// Inputs overwritten after use: by a noinline helper, scaled in place by a
// helper, zeroed by memset after memcpy, and stored/zeroed through two dups.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <string.h>
__attribute__((noinline)) void clobber(double *p, double v){ p[0] = v; }
__attribute__((noinline)) void scale(double *p, double s){ p[0] *= s; p[1] *= s; }
double f1(double *x){ double a = x[0]; double r = sin(x[0]); clobber(x, 7.0); return r * x[0] + a * a; }
double f2(double *x){ double r = x[0]*x[1]; scale(x, x[1]); return r * x[0] * x[1]; }
double f3(double *x){ double y[2]; memcpy(y, x, sizeof y); double r = exp(x[0]); memset(x, 0, 2*sizeof(double)); return r*y[1] + x[0]; }
double f4(double *x, double *y){ double t = x[0]*x[0]; y[0] = t; x[0] = 0; return t * y[0]; }
int main(void){
  double a=lt_vd(0.6), b=lt_vd(1.7);
  { double x[2]={a,b}, dx[2]={0}; __enzyme_autodiff((void*)f1, x, dx);
    lt_check("clobber helper", dx[0], 7*cos(a)+2*a, 1e-12,0); }
  { double x[2]={a,b}, dx[2]={0}; __enzyme_autodiff((void*)f2, x, dx);
    /* x0' = a b, x1' = b^2 ; ret = a b * a b * b^2 = a^2 b^4 */
    lt_check("scale helper d0", dx[0], 2*a*pow(b,4), 1e-12,0); lt_check("scale helper d1", dx[1], 4*a*a*pow(b,3), 1e-12,0); }
  { double x[2]={a,b}, dx[2]={0}; __enzyme_autodiff((void*)f3, x, dx);
    lt_check("memset d0", dx[0], exp(a)*b, 1e-12,0); lt_check("memset d1", dx[1], exp(a), 1e-12,0); }
  { double x[1]={a}, dx[1]={0}, y[1]={0}, dy[1]={0}; __enzyme_autodiff((void*)f4, x, dx, y, dy);
    lt_check("store/zero", dx[0], 4*a*a*a, 1e-12,0); }
  return lt_done();
}
