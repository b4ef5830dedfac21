// double->int->double casts (zero derivative), a static const coefficient table
// read with a computed index, a write to a global, and floor/trunc/round.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
static const double coef[4]={1.0,-2.0,0.5,3.0};
double g_last;
double f(double x){ int i=(int)x; double fr = x - i; double r = coef[i&3]*fr*fr + (double)(i*i) + x*(double)(long)(x*10);
  g_last = r; return r; }
double flo(double x){ return floor(x)*x + __builtin_floor(x*2) + trunc(x)+round(x)*x; }
int main(void){
  double x=lt_vd(2.3);
  double g=__enzyme_autodiff((void*)f, x);
  int i=2; double fr=x-2;
  lt_check("int", g, 2*coef[i]*fr + (double)(long)(x*10), 1e-12,1e-12);
  lt_check("global", g_last, f(x), 1e-12, 0);
  g=__enzyme_autodiff((void*)flo, x);
  lt_check("floor", g, floor(x)+round(x),1e-12,0);
  return lt_done();
}
