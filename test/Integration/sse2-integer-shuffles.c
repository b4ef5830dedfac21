// Doubles moved through integer vectors, as Eigen's SSE2 code does
// (vec2d_swizzle1: _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v),
// m)) broadcasts a lane with pshufd). At -O0 the casts and the <4 x i32>
// shuffle were "reinterpreted as bits"; at -O1 and above clang loads the
// doubles as <4 x i32> and the gradient came back 0, silently (the right
// operand of every Eigen matrix product under SSE2). The canonical clone
// loads such data as the doubles it becomes and shuffles whole lanes
// (prep/lanes.c); what it cannot follow is an error, never a zero. A sign
// bit cleared or flipped with an integer mask (SSE2 abs and negation,
// Eigen's pabs at -O0) is fabs or fneg.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include <emmintrin.h>

#include "check.h"
#include <leantape.h>

/* f = a . (y0, y0) + a . (y1 y1, y1 y1) + y2 (y3, y2) . (1, 1), a = (2, 3) */
double f(double *y) {
  __m128d v = _mm_loadu_pd(y);
  __m128d lo = _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v), 0x44));
  __m128d hi = _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(v), 0xEE));
  __m128d w = _mm_loadu_pd(y + 2);
  __m128d sw = _mm_castsi128_pd(_mm_shuffle_epi32(_mm_castpd_si128(w), 0x4E)); /* swap */
  __m128d a = _mm_set_pd(3.0, 2.0);
  __m128d r = _mm_add_pd(_mm_mul_pd(a, lo), _mm_mul_pd(a, _mm_mul_pd(hi, hi)));
  r = _mm_add_pd(r, _mm_mul_pd(_mm_set1_pd(y[2]), sw));
  double o[2];
  _mm_storeu_pd(o, r);
  return o[0] + o[1];
}

/* g = sum |y_i| y_i - y0 y1, the abs and the negation by sign-bit masks */
double g(double *y) {
  __m128d sign = _mm_set1_pd(-0.0);
  __m128d a = _mm_andnot_pd(sign, _mm_loadu_pd(y));     /* |y0|, |y1| */
  __m128d b = _mm_andnot_pd(sign, _mm_loadu_pd(y + 2)); /* |y2|, |y3| */
  __m128d n = _mm_xor_pd(sign, _mm_set1_pd(y[0] * y[1]));
  __m128d s = _mm_add_pd(_mm_mul_pd(a, _mm_loadu_pd(y)), _mm_mul_pd(b, _mm_loadu_pd(y + 2)));
  double o[2], m[2];
  _mm_storeu_pd(o, s);
  _mm_storeu_pd(m, n);
  return o[0] + o[1] + m[0];
}

/* the same in scalar C: fabs and negation through a union */
double h(double x) {
  union {
    double d;
    unsigned long long u;
  } v, w;
  v.d = x;
  v.u &= ~(1ull << 63);
  w.d = x * x;
  w.u ^= 1ull << 63;
  return v.d * 3.0 + w.d;
}

int main(void) {
  double y[4] = {0.7, -0.4, 1.3, 0.6}, dy[4] = {0};
  __enzyme_autodiff((void *)f, enzyme_dup, y, dy);
  /* f = 5 y0 + 5 y1^2 + y2 (y3 + y2) */
  lt_check("dy0", dy[0], 5, 1e-14, 0);
  lt_check("dy1", dy[1], 10 * y[1], 1e-14, 0);
  lt_check("dy2", dy[2], y[3] + 2 * y[2], 1e-14, 0);
  lt_check("dy3", dy[3], y[2], 1e-14, 0);
  double dg[4] = {0};
  __enzyme_autodiff((void *)g, enzyme_dup, y, dg);
  /* d(|t| t)/dt = 2 |t| */
  lt_check("abs: dy0", dg[0], 2 * fabs(y[0]) - y[1], 1e-14, 0);
  lt_check("abs: dy1", dg[1], 2 * fabs(y[1]) - y[0], 1e-14, 0);
  lt_check("abs: dy2", dg[2], 2 * fabs(y[2]), 1e-14, 0);
  lt_check("abs: dy3", dg[3], 2 * fabs(y[3]), 1e-14, 0);
  /* d(3 |x| - x^2)/dx */
  lt_check("scalar mask, x < 0", __enzyme_autodiff((void *)h, -0.8), -3 + 1.6, 1e-14, 0);
  lt_check("scalar mask, x > 0", __enzyme_autodiff((void *)h, 0.5), 3 - 1.0, 1e-14, 0);
  return lt_done();
}
