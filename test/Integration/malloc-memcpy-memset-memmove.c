// malloc/free, memcpy into a local array, memset and an overlapping memmove
// inside the differentiated function. The -O2 -g run guards the
// #dbg_assign / DIAssignID handling of local arrays under assignment tracking.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %ltclang -O2 -g %s -o %t.O2g -lm && %t.O2g

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>
double f(double *x){
  double *t = malloc(3*sizeof(double));
  t[0]=x[0]*x[1]; t[1]=sin(x[0]); t[2]=t[0]*t[1];
  double loc[3]; memcpy(loc, t, sizeof loc);
  free(t);
  double z[2]; memset(z, 0, sizeof z); z[1] = loc[2];
  memmove(loc+1, loc, 2*sizeof(double));
  return loc[1]+loc[2]+z[1]*x[1];
}
static double fw(double a, double b){ double x[2]={a,b}; return f(x); }
int main(void){
  double x[2]={lt_vd(0.6),lt_vd(1.7)}, dx[2]={0};
  __enzyme_autodiff((void*)f, x, dx);
  lt_check("x0", dx[0], lt_fd2(fw,x[0],x[1],0),1e-6,1e-8);
  lt_check("x1", dx[1], lt_fd2(fw,x[0],x[1],1),1e-6,1e-8);
  return lt_done();
}
