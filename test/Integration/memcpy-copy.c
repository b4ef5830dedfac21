// memcpy of a double array inside the differentiated function, then compute
// on the copy: into a local array (folded away by SROA at -O2) and into a
// dup output buffer (32 bytes: stays a memcpy at -O2).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

/* g = t0 t3 + t1 t2^2 with t a local copy of x */
double g(const double *x) {
  double t[4];
  memcpy(t, x, sizeof t);
  return t[0] * t[3] + t[1] * t[2] * t[2];
}

/* y = copy of x, then y0 *= y1, y3 = y3 * y2 + y0 (reads the new y0);
 * returns y1 * y2.
 * final y = [x0 x1, x1, x2, x3 x2 + x0 x1] , ret = x1 x2               */
double h(const double *x, double *y) {
  memcpy(y, x, 4 * sizeof(double));
  y[0] = y[0] * y[1];
  y[3] = y[3] * y[2] + y[0];
  return y[1] * y[2];
}

int main(void) {
  static const double init[4] = {1.5, -0.5, 2.0, 0.25};
  double x[4];
  lt_fill(x, init, 4);

  double dx[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)g, enzyme_dup, x, dx);
  lt_check("g d0", dx[0], x[3], 1e-12, 1e-14);
  lt_check("g d1", dx[1], x[2] * x[2], 1e-12, 1e-14);
  lt_check("g d2", dx[2], 2 * x[1] * x[2], 1e-12, 1e-14);
  lt_check("g d3", dx[3], x[0], 1e-12, 1e-14);

  double y[4], dy[4] = {lt_vd(1.0), lt_vd(2.0), lt_vd(-1.0), lt_vd(0.5)};
  double s0 = dy[0], s1 = dy[1], s2 = dy[2], s3 = dy[3];
  double d[4] = {0, 0, 0, 0};
  __enzyme_autodiff((void *)h, enzyme_dup, x, d, enzyme_dup, y, dy);
  /* ret seed 1: ret = x1 x2
   * y0 = x0 x1 (seed s0, plus s3 through y3)
   * y1 = x1 (s1) ; y2 = x2 (s2) ; y3 = x3 x2 + x0 x1 (s3)             */
  double a0 = s0 + s3;
  lt_check("h d0", d[0], a0 * x[1], 1e-12, 1e-13);
  lt_check("h d1", d[1], a0 * x[0] + s1 + x[2], 1e-12, 1e-13);
  lt_check("h d2", d[2], s2 + s3 * x[3] + x[1], 1e-12, 1e-13);
  lt_check("h d3", d[3], s3 * x[2], 1e-12, 1e-13);
  for (int i = 0; i < 4; i++)
    lt_check("dy consumed", dy[i], 0.0, 0, 0);
  lt_check("y0", y[0], x[0] * x[1], 1e-15, 0);
  lt_check("y3", y[3], x[3] * x[2] + x[0] * x[1], 1e-15, 0);
  return lt_done();
}
