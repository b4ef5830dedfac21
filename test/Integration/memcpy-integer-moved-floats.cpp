// A memcpy whose layout comes from the other accesses of the object, where
// one of them is an integer that moves a float: at -O1/-O3 a growing
// std::vector<double> copies its first element into the new buffer as an
// i64 load and store (no TBAA) and the rest with a memcpy; the memcpy's
// layout must take that i64 for the double it moves, or the element's
// adjoint is not copied back and its gradient is lost (fuzz --cxx --calls
// seeds 6036, 6054 at -O3 and -O1). The same with an 8-byte memcpy of a
// input double (folded into an i64 load and store) followed by a memcpy.
// RUN: %ltclangxx -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclangxx -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclangxx -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclangxx -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %ltclangxx -O3 -fno-exceptions %s -o %t.O3n -lm && %t.O3n

#include "check.h"
#include "testutil.h"
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <leantape.h>
#include <vector>

static const int N = 8;

/* grow(x, y) = sin(0.24 + cos(y0)) + tanh(x1): v[0] is read, then
 * overwritten, after the vector grew from one element */
double grow(double *x, double *y) {
  std::vector<double> v;
  for (int q = 0; q < N; q++) /* unrolled at -O1 and -O3 */
    v.push_back(std::cos(y[q]));
  double p = std::sin(0.24 + v[0]);
  v[0] = std::tanh(x[1]);
  return p + v[0];
}

/* moved(y) = sin(y0) * exp(y1): y0 reaches c[0] through an 8-byte memcpy
 * (an i64 load and store at -O2) and a 16-byte one */
double moved(const double *y) {
  double *b = (double *)malloc(2 * sizeof(double));
  double *c = (double *)malloc(2 * sizeof(double));
  b[1] = std::exp(y[1]);
  memcpy(b, y, sizeof(double));
  memcpy(c, b, 2 * sizeof(double));
  double r = std::sin(c[0]) * c[1];
  free(b);
  free(c);
  return r;
}

int main() {
  double x[N], dx[N] = {0}, y[N], dy[N] = {0};
  for (int i = 0; i < N; i++)
    x[i] = y[i] = lt_vd(0.1 * i + 0.2);
  __enzyme_autodiff((void *)grow, enzyme_dup, x, dx, enzyme_dup, y, dy);
  lt_check("grow dy0", dy[0], -std::cos(0.24 + std::cos(0.2)) * std::sin(0.2),
           1e-12, 1e-14);
  lt_check("grow dy1", dy[1], 0.0, 0, 0);
  double t = std::tanh(0.3);
  lt_check("grow dx1", dx[1], 1 - t * t, 1e-12, 1e-14);

  double z[2] = {lt_vd(0.7), lt_vd(-0.4)}, dz[2] = {0, 0};
  __enzyme_autodiff((void *)moved, enzyme_dup, z, dz);
  double e1 = std::exp(-0.4);
  lt_check("moved dz0", dz[0], std::cos(0.7) * e1, 1e-12, 1e-14);
  lt_check("moved dz1", dz[1], std::sin(0.7) * e1, 1e-12, 1e-14);
  return lt_done();
}
