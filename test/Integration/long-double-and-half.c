// long double with the l-suffixed libm functions, and _Float16, each through
// a non-variadic prototype of the entry point returning that type.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
long double fl(long double x){ return sinl(x)*expl(x) + sqrtl(x) + fabsl(-x)*powl(x, 2.0L) + logl(x); }
long double __enzyme_autodiffl(void*, long double);
_Float16 fh(_Float16 x){ return x*x; }
_Float16 __enzyme_autodiffh(void*, _Float16);
int main(void){
  long double x=lt_vd(0.8);
  long double g=__enzyme_autodiffl((void*)fl, x);
  double xd=0.8;
  double want=cos(xd)*exp(xd)+sin(xd)*exp(xd)+0.5/sqrt(xd)+3*xd*xd+1/xd;
  lt_check("long double libm", (double)g, want, 1e-12,0);
  _Float16 h=__enzyme_autodiffh((void*)fh, (_Float16)lt_vd(1.5));
  lt_check("half", (double)h, 3.0, 1e-3,0);
  return lt_done();
}
