// Aggregate float values: a struct of doubles returned (the adjoint of the
// result defaults to 1 in every member, as in Enzyme, or is given as a
// struct), _Complex double arithmetic (clang calls __muldc3/__divdc3 and
// cabs), GCC vector extensions with shuffles, and small arrays.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <complex.h>
#include <leantape.h>
#include <math.h>

struct P { double x, y; };
typedef struct { double da, db; } G2;
G2 __enzyme_autodiff_g2(void *, ...);

struct P f(double a, double b) {
  struct P p = {a * a * b, sin(a) + b * b};
  return p;
}

double cx(double a, double b) {
  double complex z = a + b * I;
  double complex w = z * z / (1.5 - 0.5 * I + z);
  return creal(w) * cimag(w) + cabs(z * w);
}
static double cx_a(double a) { return cx(a, lt_vd(0.4)); }

typedef double v2 __attribute__((vector_size(16)));
double vx(double x) {
  v2 a = {x, 2 * x};
  a = a * a + a;
  v2 b = __builtin_shufflevector(a, a, 1, 0);
  a = a / (b + 3.0);
  return a[0] * a[1];
}

double arr(const double *x) {
  double t[2][2] = {{x[0], x[1]}, {x[2], x[0] * x[1]}}, u[2][2];
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++)
      u[i][j] = t[j][i] * t[i][j];
  return u[0][1] + u[1][1] * u[0][0];
}

int main(void) {
  double a = lt_vd(0.7), b = lt_vd(-1.3);
  /* seed (1, 1): d(x + y)/da = 2ab + cos a, d/db = a^2 + 2b */
  G2 g = __enzyme_autodiff_g2((void *)f, a, b);
  lt_check("struct return, default seed, da", g.da, 2 * a * b + cos(a), 1e-12, 1e-14);
  lt_check("struct return, default seed, db", g.db, a * a + 2 * b, 1e-12, 1e-14);
  /* seed (2, -3) */
  struct P seed = {2.0, -3.0};
  g = __enzyme_autodiff_g2((void *)f, a, b, seed);
  lt_check("struct return, given seed, da", g.da, 2 * (2 * a * b) - 3 * cos(a), 1e-12, 1e-14);
  lt_check("struct return, given seed, db", g.db, 2 * a * a - 3 * 2 * b, 1e-12, 1e-14);

  double dca = __enzyme_autodiff((void *)cx, a, enzyme_const, lt_vd(0.4));
  lt_check("complex * / cabs", dca, lt_fd(cx_a, a), 1e-6, 1e-8);

  double dv = __enzyme_autodiff((void *)vx, a);
  lt_check("vector extension", dv, lt_fd(vx, a), 1e-6, 1e-8);

  double x[3] = {lt_vd(0.5), lt_vd(-1.5), lt_vd(2.0)}, dx[3] = {0};
  __enzyme_autodiff((void *)arr, x, dx);
  for (int k = 0; k < 3; k++) {
    double h = 1e-6, p = x[k];
    x[k] = p + h;
    double f1 = arr(x);
    x[k] = p - h;
    double f2 = arr(x);
    x[k] = p;
    lt_check("small arrays", dx[k], (f1 - f2) / (2 * h), 1e-6, 1e-8);
  }
  return lt_done();
}
