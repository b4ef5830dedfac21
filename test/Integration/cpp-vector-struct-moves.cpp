// std::vector of a struct {double, const double *, int} moved around by
// the library's run-time-length copies: insert of a range in the middle,
// copy assignment, copy construction, erase at the front, construction
// from a range, swap. At -O3 nothing types the blocks these copies touch
// (i8 GEPs only) and the lengths are pointer differences; the layout of
// one copy (a double and a pointer every 24 bytes) has to reach the
// others through the block it fills and through `phi [null, %block]`
// (an empty vector's begin). Guessed as doubles instead, the pointer
// fields' shadows were not moved with their elements: adjoints of y[1]
// and y[3] swapped silently, or a segfault in the gradient (fuzz
// --structvec -X seeds 14338 and 13903 at -O3; memuse.c). The -X lines
// optimise first and differentiate after, as `opt -passes=leantape` on
// a -O3 module does.
// RUN: %ltclangxx -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclangxx -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclangxx -O3 -fno-exceptions %s -o %t.O3 -lm && %t.O3
// RUN: %clangxx -std=c++17 -O3 -S -emit-llvm %s -o %t.X.ll
// RUN: %ltopt -passes=leantape %t.X.ll -o %t.X.bc
// RUN: %clangxx -O3 %t.X.bc -o %t.X -lm && %t.X
// RUN: %clangxx -std=c++17 -O3 -fno-exceptions -S -emit-llvm %s -o %t.Xn.ll
// RUN: %ltopt -passes=leantape %t.Xn.ll -o %t.Xn.bc
// RUN: %clangxx -O3 %t.Xn.bc -o %t.Xn -lm && %t.Xn

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <vector>

enum { N = 8 };
struct SV {
  double w;
  const double *p;
  int k;
};

/* After the moves the elements are s0 s1 s2 e1 e2 e3 e4, with
 * e_q = {x_q y_q, (q odd ? x : y) + q + 1}, s_q = {0.39 y_q, y + q + 3}
 * and e2.w scaled by 0.93; the result is sum w p[0] plus s0's term again:
 * F = 0.78 y0 y3 + 0.39 y1 y4 + 0.39 y2 y5 + x1 x2 y1 + 0.93 x2 y2 y3
 *     + x3 x4 y3 + x4 y4 y5                                            */
double moves(const double *x, const double *y) {
  std::vector<SV> sv;
  for (int q = 0; q < 5; q++)
    sv.push_back({x[q] * y[q], (q % 2 ? x : y) + q + 1, q});
  {
    std::vector<SV> s2;
    for (int q = 0; q < 3; q++)
      s2.push_back({y[q] * 0.39, y + q + 3, q});
    sv.insert(sv.begin() + 1, s2.begin(), s2.end());
  }
  {
    std::vector<SV> tmp;
    tmp = sv;
    sv.swap(tmp);
  }
  sv.erase(sv.begin());
  {
    std::vector<SV> o(sv.begin(), sv.end());
    o[4].w *= 0.93;
    o.swap(sv);
  }
  std::vector<SV> su(sv.begin(), sv.begin() + 1);
  double s = su[0].w * su[0].p[0];
  for (const SV &e : sv)
    s += e.w * e.p[0];
  return s;
}

/* Six elements {x_q, y + q}, copy-constructed and range-constructed into
 * new vectors, each swapped in: G = sum_q x_q y_q (q < 6). */
double copies(const double *x, const double *y) {
  std::vector<SV> sv;
  for (int q = 0; q < 6; q++)
    sv.push_back({x[q], y + q, q});
  {
    std::vector<SV> tmp(sv);
    sv.swap(tmp);
  }
  {
    std::vector<SV> o(sv.begin(), sv.end());
    sv.swap(o);
  }
  double s = 0;
  for (const SV &e : sv)
    s += e.w * e.p[0];
  return s;
}

static double in[2 * N];
static double moves_d(const double *v) { return moves(v, v + N); }
static double copies_d(const double *v) { return copies(v, v + N); }

static void moves_grad(const double *x, const double *y, double *gx, double *gy) {
  for (int i = 0; i < N; i++)
    gx[i] = gy[i] = 0;
  gy[0] = 0.78 * y[3];
  gy[3] = 0.78 * y[0] + 0.93 * x[2] * y[2] + x[3] * x[4];
  gy[1] = 0.39 * y[4] + x[1] * x[2];
  gy[4] = 0.39 * y[1] + x[4] * y[5];
  gy[2] = 0.39 * y[5] + 0.93 * x[2] * y[3];
  gy[5] = 0.39 * y[2] + x[4] * y[4];
  gx[1] = x[2] * y[1];
  gx[2] = x[1] * y[1] + 0.93 * y[2] * y[3];
  gx[3] = x[4] * y[3];
  gx[4] = x[3] * y[3] + y[4] * y[5];
}

static void copies_grad(const double *x, const double *y, double *gx, double *gy) {
  for (int i = 0; i < N; i++)
    gx[i] = gy[i] = 0;
  for (int q = 0; q < 6; q++) {
    gx[q] = y[q];
    gy[q] = x[q];
  }
}

/* f a template argument: the marker needs the function itself */
template <double (*f)(const double *, const double *)>
static void check(const char *what, double (*fv)(const double *),
                  void (*grad)(const double *, const double *, double *, double *)) {
  double x[N], y[N], dx[N] = {0}, dy[N] = {0}, gx[N], gy[N];
  lt_fill(x, in, N);
  lt_fill(y, in + N, N);
  __enzyme_autodiff((void *)f, enzyme_dup, (const double *)x, dx, enzyme_dup,
                    (const double *)y, dy);
  grad(x, y, gx, gy);
  double v[2 * N];
  lt_fill(v, in, 2 * N);
  for (int j = 0; j < N; j++) {
    lt_grad(what, x[j], dx[j], gx[j], lt_fd_at(fv, v, j), 1e-12, 1e-6);
    lt_grad(what, y[j], dy[j], gy[j], lt_fd_at(fv, v, N + j), 1e-12, 1e-6);
  }
}

int main() {
  for (int i = 0; i < 2 * N; i++)
    in[i] = 0.3 + 0.17 * i - 0.05 * (i % 3) * i;
  check<moves>("inserted, copied, erased", moves_d, moves_grad);
  check<copies>("copy-constructed, range-constructed", copies_d, copies_grad);
  return lt_done();
}
