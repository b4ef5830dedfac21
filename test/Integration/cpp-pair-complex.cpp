// C++ aggregate floating-point values:
//  - a function returning std::pair<double, double> (returned in registers
//    as { double, double }): the default return seed is 1 in both members,
//    as in Enzyme, or an explicit seed pair is passed after the arguments;
//  - a function returning std::complex<double> (default seed (1, 1));
//  - std::complex<double> arithmetic: *, / (clang calls __muldc3/__divdc3,
//    with an inline fast path at -O1+), std::abs (cabs), std::norm,
//    std::conj, real()/imag();
//  - std::complex<float>: *, / (__mulsc3/__divsc3) and std::abs (cabsf,
//    which takes a <2 x float> on x86-64).
// RUN: %ltclangxx -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclangxx -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclangxx -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclangxx -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %ltclangxx -O2 -fno-exceptions %s -o %t.O2n -lm && %t.O2n

#include "check.h"
#include "testutil.h"
#include <cmath>
#include <complex>
#include <leantape.h>
#include <utility>

typedef struct {
  double da, db;
} G2;
extern "C" G2 __enzyme_autodiff_g2(void *, ...);
/* A non-variadic prototype for the seeded call (std::pair is not a C type). */
extern "C" G2 __enzyme_autodiff_g2seed(void *, double, double,
                                       std::pair<double, double>);

std::pair<double, double> pf(double a, double b) {
  return std::make_pair(a * a * b, std::sin(a) + b * b);
}

/* z = a + ib ; z^2 = (a^2 - b^2) + i 2ab */
std::complex<double> cz(double a, double b) {
  std::complex<double> z(a, b);
  return z * z;
}

double cx(double a, double b) {
  std::complex<double> z(a, b);
  std::complex<double> w = z * z / (std::complex<double>(1.5, -0.5) + z);
  return w.real() * w.imag() + std::abs(z * w) + std::norm(std::conj(w) - z);
}
static double cx_a(double a) { return cx(a, lt_vd(0.4)); }
static double cx_b(double b) { return cx(lt_vd(0.7), b); }

float cxf(float a, float b) {
  std::complex<float> z(a, b);
  std::complex<float> w = z * z / (std::complex<float>(1.5f, -0.5f) + z);
  return w.real() * w.imag() + std::abs(z * w);
}
static float cxf_a(float a) { return cxf(a, lt_vf(0.4f)); }
static float cxf_b(float b) { return cxf(lt_vf(0.7f), b); }

int main() {
  double a = lt_vd(0.7), b = lt_vd(-1.3);

  /* seed (1, 1): d(x + y)/da = 2ab + cos a, d/db = a^2 + 2b */
  G2 g = __enzyme_autodiff_g2((void *)pf, a, b);
  lt_check("pair return, default seed, da", g.da, 2 * a * b + std::cos(a),
           1e-12, 1e-14);
  lt_check("pair return, default seed, db", g.db, a * a + 2 * b, 1e-12, 1e-14);
  /* seed (2, -3) */
  std::pair<double, double> seed(lt_vd(2.0), lt_vd(-3.0));
  g = __enzyme_autodiff_g2seed((void *)pf, a, b, seed);
  lt_check("pair return, given seed, da", g.da,
           2 * (2 * a * b) - 3 * std::cos(a), 1e-12, 1e-14);
  lt_check("pair return, given seed, db", g.db, 2 * a * a - 3 * 2 * b, 1e-12,
           1e-14);

  /* seed (1, 1): d(a^2 - b^2 + 2ab) = (2a + 2b, -2b + 2a) */
  g = __enzyme_autodiff_g2((void *)cz, a, b);
  lt_check("complex return, default seed, da", g.da, 2 * a + 2 * b, 1e-12,
           1e-14);
  lt_check("complex return, default seed, db", g.db, 2 * a - 2 * b, 1e-12,
           1e-14);

  double c = lt_vd(0.4);
  g = __enzyme_autodiff_g2((void *)cx, a, c);
  lt_check("complex<double> * / abs norm conj, da", g.da, lt_fd(cx_a, a), 1e-6,
           1e-8);
  lt_check("complex<double> * / abs norm conj, db", g.db, lt_fd(cx_b, c), 1e-6,
           1e-8);
  double dca = __enzyme_autodiff((void *)cx, a, enzyme_const, c);
  lt_check("complex<double>, b const", dca, g.da, 1e-12, 1e-14);

  float af = lt_vf(0.7f), bf = lt_vf(0.4f);
  g = __enzyme_autodiff_g2((void *)cxf, af, bf);
  lt_check("complex<float> * / abs, da", g.da, lt_fdf(cxf_a, af), 2e-3, 1e-4);
  lt_check("complex<float> * / abs, db", g.db, lt_fdf(cxf_b, bf), 2e-3, 1e-4);
  return lt_done();
}
