// One function differentiated with different activities (out/const) in one file,
// the same request twice, a two-out struct call, and a call inside a loop in main.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
typedef struct { double a, b; } G2;
G2 __enzyme_autodiff2(void*, ...);
double f(double x, double y){ return x*exp(y) + y*y; }
int main(void){
  double x=lt_vd(0.3), y=lt_vd(1.1);
  double gx=__enzyme_autodiff((void*)f, enzyme_out, x, enzyme_const, y);
  double gy=__enzyme_autodiff((void*)f, enzyme_const, x, enzyme_out, y);
  double gx2=__enzyme_autodiff((void*)f, enzyme_out, x, enzyme_const, y);
  G2 g=__enzyme_autodiff2((void*)f, x, y);
  lt_check("gx", gx, exp(y),1e-12,0); lt_check("gx2", gx2, exp(y),1e-12,0);
  lt_check("gy", gy, x*exp(y)+2*y,1e-12,0);
  lt_check("ga", g.a, exp(y),1e-12,0); lt_check("gb", g.b, x*exp(y)+2*y,1e-12,0);
  double s=0;
  for(int i=0;i<5;i++) s+=__enzyme_autodiff((void*)f, enzyme_out, x+i, enzyme_const, y);
  lt_check("loop", s, 5*exp(y),1e-12,0);
  return lt_done();
}
