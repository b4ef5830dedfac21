// Split mode with the tape created and consumed in different noinline
// functions (through a struct field), and two live tapes reversed in order.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
double f(double *x, double y){ double a = x[0]; x[0] = a*y; return sin(a)*x[1] + y*y; }
__attribute__((noinline)) void *fwd(double *x, double *dx, double y){ return __enzyme_augmentfwd((void*)f, enzyme_dup, x, dx, enzyme_const, y); }
__attribute__((noinline)) void rev(double *x, double *dx, double y, void *tape){ __enzyme_reverse((void*)f, enzyme_dup, x, dx, enzyme_const, y, 1.0, tape); }
struct S { void *tape; };
int main(void){
  double a=lt_vd(0.5), b=lt_vd(2.0), y=lt_vd(1.5);
  double x[2]={a,b}, dx[2]={0};
  struct S s; s.tape = fwd(x, dx, y);
  rev(x, dx, y, s.tape);
  lt_check("x0", dx[0], cos(a)*b, 1e-12,0); lt_check("x1", dx[1], sin(a),1e-12,0);
  /* two tapes alive at once */
  double x1[2]={a,b}, d1[2]={0}, x2[2]={b,a}, d2[2]={0};
  void *t1 = __enzyme_augmentfwd((void*)f, enzyme_dup, x1, d1, enzyme_const, y);
  void *t2 = __enzyme_augmentfwd((void*)f, enzyme_dup, x2, d2, enzyme_const, y);
  __enzyme_reverse((void*)f, enzyme_dup, x1, d1, enzyme_const, y, 2.0, t1);
  __enzyme_reverse((void*)f, enzyme_dup, x2, d2, enzyme_const, y, 1.0, t2);
  lt_check("t1", d1[0], 2*cos(a)*b, 1e-12,0); lt_check("t2", d2[0], cos(b)*a,1e-12,0);
  return lt_done();
}
