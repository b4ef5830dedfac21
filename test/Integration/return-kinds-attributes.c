// Functions returning a pointer, a bool and void (output through a pointer),
// restrict parameters, a pure helper called twice, an always_inline helper.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stdbool.h>
double *rp(double *x){ x[0] = x[0]*x[0]; return x; }
bool rb(double *x){ x[1] = 3*x[0]; return x[0] > 0; }
void vo(double a, double *out){ *out = a*a*a; }
double restr(double *restrict a, double *restrict b){ b[0] = a[0]*2; return b[0]*a[0]; }
__attribute__((pure, noinline)) double purefn(const double *a){ return a[0]*a[0]; }
double usepure(double *a){ return purefn(a) + purefn(a); }
__attribute__((always_inline)) static inline double ai(double x){ return exp(x); }
double useai(double x){ return ai(x)*ai(-x) + ai(2*x); }
int main(void){
  double x[2]={lt_vd(3),0}, dx[2]={1,0};
  __enzyme_autodiff((void*)rp, x, dx);
  lt_check("ret ptr", dx[0], 6, 1e-12,0);
  x[0]=lt_vd(3); dx[0]=0; dx[1]=1;
  __enzyme_autodiff((void*)rb, x, dx);
  lt_check("ret bool", dx[0], 3, 1e-12,0);
  double o=0, d=1;
  double g=__enzyme_autodiff((void*)vo, lt_vd(2.0), &o, &d);
  lt_check("void out", g, 12, 1e-12,0);
  double a[1]={lt_vd(1.5)}, da[1]={0}, b[1]={0}, db[1]={0};
  __enzyme_autodiff((void*)restr, a, da, b, db);
  lt_check("restrict", da[0], 4*1.5, 1e-12,0);
  da[0]=0; __enzyme_autodiff((void*)usepure, a, da);
  lt_check("pure", da[0], 4*1.5, 1e-12,0);
  double xx=lt_vd(0.3);
  lt_check("always_inline", __enzyme_autodiff((void*)useai, xx), 2*exp(2*xx), 1e-12,0);
  return lt_done();
}
