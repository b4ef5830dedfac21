// Enzyme's IR metadata on globals, as Enzyme's users write it in IR (or a
// frontend emits it): `@g = global double ..., !enzyme_shadow !{ptr @dg}`
// makes @dg the shadow of @g, without -leantape-global-shadows, the user's
// to seed and read and never zeroed (the clang plugin's enzyme_shadow
// attribute is the same in the source); `!enzyme_inactive` on a global is
// __enzyme_inactive_global. The metadata is added to clang's IR with sed,
// then opt runs the pass. Reverse and forward mode against central
// differences in the global's value (without the metadata @g is inactive
// data and dg keeps its 0.5).
// RUN: %clang -O0 -Xclang -disable-O0-optnone -S -emit-llvm %s -o %t.ll
// RUN: sed -e 's/^\(@g = .*\)$/\1, !enzyme_shadow !9000/' -e 's/^\(@scale = .*\)$/\1, !enzyme_inactive !9001/' %t.ll > %t.md.ll
// RUN: echo '!9000 = !{ptr @dg}' >> %t.md.ll && echo '!9001 = !{}' >> %t.md.ll
// RUN: %ltopt -passes=leantape %t.md.ll -S -o %t.ad.ll
// RUN: %clang -O2 %t.ad.ll -o %t -lm && %t
// The same from clang's -O2 IR:
// RUN: %clang -O2 -S -emit-llvm %s -o %t.O2.ll
// RUN: sed -e 's/^\(@g = .*\)$/\1, !enzyme_shadow !9000/' -e 's/^\(@scale = .*\)$/\1, !enzyme_inactive !9001/' %t.O2.ll > %t.O2.md.ll
// RUN: echo '!9000 = !{ptr @dg}' >> %t.O2.md.ll && echo '!9001 = !{}' >> %t.O2.md.ll
// RUN: %ltopt -passes=leantape %t.O2.md.ll -S -o %t.O2.ad.ll
// RUN: %clang -O2 %t.O2.ad.ll -o %t.O2 -lm && %t.O2
// With -leantape-global-shadows, @scale (inactive) gets no shadow of its
// own, nor @g (it has the user's), nor @dg (a shadow):
// RUN: %ltopt -passes=leantape -leantape-global-shadows %t.md.ll -S | FileCheck %s --check-prefix=GS
// GS-NOT: lt.shadow =

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

double __enzyme_fwddiff(void *, ...);

double dg;
double g = 1.5;
double scale = 2.0;

double f(double x) { return g * sin(x) * x * scale; }

static double fd_g(double x) {
  double keep = g, h = 1e-6;
  volatile double p = keep + h, m = keep - h;
  g = p;
  double fp = f(x);
  g = m;
  double fm = f(x);
  g = keep;
  return (fp - fm) / (p - m);
}

int main(void) {
  double x = lt_vd(0.9);
  dg = 0.5;
  double dx = __enzyme_autodiff((void *)f, enzyme_out, x);
  lt_grad("df/dx", x, dx, g * scale * (cos(x) * x + sin(x)), lt_fd(f, x), 1e-14, 1e-7);
  lt_grad("df/dg added to 0.5", x, dg - 0.5, sin(x) * x * scale, fd_g(x), 1e-14, 1e-7);
  dg = 1;
  double t = __enzyme_fwddiff((void *)f, x, 0.0);
  lt_grad("forward df/dg", x, t, sin(x) * x * scale, fd_g(x), 1e-14, 1e-7);
  return lt_done();
}
