// Indirection: a struct holding a pointer to the data (the shadow struct holds
// the shadow pointer), double**, and a nested struct with an array member.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
struct V { int n; double *data; double scale; };
double fv(const struct V *v){ return v->scale * v->data[0] * v->data[v->n-1]; }
double fpp(double **pp){ return pp[0][0] * pp[1][0]; }
struct In { double a[3]; struct { double p, q; } s; };
double fin(struct In *in, int i){ in->s.q = in->a[i]*in->s.p; return in->s.q + in->a[2-i]; }
int main(void){
  double d[3]={lt_vd(2),lt_vd(5),lt_vd(7)}, dd[3]={0};
  struct V v={3,d,lt_vd(0.5)}, dv={3,dd,0};
  __enzyme_autodiff((void*)fv, &v, &dv);
  lt_check("v d0", dd[0], 0.5*7, 1e-12,0); lt_check("v d2", dd[2], 0.5*2,1e-12,0);
  lt_check("v scale", dv.scale, 14,1e-12,0); lt_check("v d1", dd[1], 0,0,0);
  double a=lt_vd(3), b=lt_vd(4), da=0, db=0; double *p[2]={&a,&b}, *dp[2]={&da,&db};
  __enzyme_autodiff((void*)fpp, p, dp);
  lt_check("pp a", da, 4,1e-12,0); lt_check("pp b", db, 3,1e-12,0);
  struct In in={{lt_vd(1),lt_vd(2),lt_vd(3)},{lt_vd(0.5),0}}, din={{0}};
  __enzyme_autodiff((void*)fin, &in, &din, lt_vi(1));
  lt_check("in a1", din.a[1], 1.5,1e-12,0); lt_check("in p", din.s.p, 2,1e-12,0);
  lt_check("in a2", din.a[2], 0, 0,0);
  return lt_done();
}
