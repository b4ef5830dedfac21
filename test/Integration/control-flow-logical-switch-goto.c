// Branches from && / ||, a chain of ternaries, a switch with fallthrough and
// forward gotos, checked against central differences at points in every arm.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
double f(double x, double y){
  double r;
  if ((x > 0 && y > 0) || x < -1) r = x*y; else r = x+y*y;
  r = x > 1 ? r*x : x > 0 ? r*2 : x > -0.5 ? r+x : r - x*x;
  return r;
}
double sw(double x, int k){
  double r = 0;
  switch(k){ case 0: r += x*x; /* fallthrough */ case 1: r += sin(x); break; case 2: r = exp(x); /* fallthrough */ default: r *= x; }
  return r;
}
double gt(double x, int k){
  double r = x;
  if (k == 1) goto a;
  if (k == 2) goto b;
  r = r*r;
a: r = r*x;
b: return r + 1;
}
int main(void){
  double xs[]={1.5,0.5,-0.2,-0.8,-2};
  double ys[]={0.7,-0.3};
  for(int i=0;i<5;i++) for(int j=0;j<2;j++){ double x=lt_vd(xs[i]), y=lt_vd(ys[j]);
    typedef struct{double a,b;} G; G __enzyme_autodiff2(void*,...);
    G g=__enzyme_autodiff2((void*)f,x,y);
    lt_check("fx", g.a, lt_fd2(f,x,y,0),1e-6,1e-8); lt_check("fy", g.b, lt_fd2(f,x,y,1),1e-6,1e-8);}
  for(int k=0;k<4;k++){ double x=lt_vd(0.7); double h=1e-6;
    double g=__enzyme_autodiff((void*)sw, x, lt_vi(k));
    lt_check("sw", g, (sw(x+h,k)-sw(x-h,k))/(2*h),1e-6,1e-8);
    g=__enzyme_autodiff((void*)gt, x, lt_vi(k));
    lt_check("goto", g, (gt(x+h,k)-gt(x-h,k))/(2*h),1e-6,1e-8);}
  return lt_done();
}
