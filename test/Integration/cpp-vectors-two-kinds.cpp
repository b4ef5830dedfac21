// Two kinds of std::vector in one function at -O0: copies of a
// std::vector<double> read through data() by a kept call, and copies of a
// std::vector of a struct {double, pointer, int}. Points-to's null object
// (in a set it says "the shadow may be null") collected every store through
// a pointer that might lack a shadow, and loads through such pointers read
// it all back: the doubles' block came to be addressed by the struct
// vector's data pointers, the constant 64-byte copy `tq(v0)` was laid out
// as the struct's {double, ptr, ...}, and the adjoints at the "pointer"
// words were dropped, silently (fuzz --structvec seed 60014 at -O0: d/dy[1],
// [2], [4], [5], [7] came back 0). Now the null object's contents stay
// {null} (points.c join_stored), and a block whose constant size is no
// multiple of a type is no array of it (memelem.c pointee_type).
// Gradients against central differences.
// RUN: %ltclangxx -O0 %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %s -o %t.O2 && %t.O2

#include <cmath>
#include <vector>

#include "check.h"
#include <leantape.h>

#define N 8

struct SV {
  double w;
  const double *p;
  int k;
};

template <typename T> __attribute__((noinline)) T mean_atan(const T *a, int m) {
  T s = T(0);
  for (int i = 0; i < m; i++)
    s += atan(a[i] + 0.8);
  return s / T(m);
}

struct Fn {
  virtual double ev(double v) const = 0;
  virtual ~Fn() {}
};
struct Cos : Fn {
  double k;
  Cos(double k) : k(k) {}
  double ev(double v) const override { return cos(v + 0.64 * k); }
};
__attribute__((noinline)) static double call_ev(const Fn &o, double v) { return o.ev(v); }

static volatile int n_opaque = N;

static double f(double *x, double *y, int n) {
  double acc = 0.25;
  std::vector<double> v0(N);
  for (int q = 0; q < N; q++)
    v0[q] = 0.9 * sin(y[q]);
  {
    std::vector<double> tq(v0.begin(), v0.end());
    tq.push_back(cos(y[0]));
  }
  for (int i = 0; i < n; i++) {
    {
      std::vector<double> tq(v0);
      tq.push_back(sin(0.1 * i));
      acc += 0.5 * mean_atan(tq.data(), N + 1);
    }
    x[(i + 7) % N] = 0.45 * sin(x[(i + 2) % N] * call_ev(Cos(1.0), 2.0));
  }
  {
    std::vector<double> tq(v0.begin(), v0.end());
  }
  {
    std::vector<SV> sv;
    sv.push_back({1.0, nullptr, 0});
    { std::vector<SV> t2(sv); }
    std::vector<SV> su(sv);
  }
  return acc + x[3];
}

/* f overwrites x: evaluate it on copies */
static double obj(const double *xy) {
  double x[N], y[N];
  for (int i = 0; i < N; i++) {
    x[i] = xy[i];
    y[i] = xy[N + i];
  }
  return f(x, y, n_opaque);
}

int main() {
  double xy[2 * N], x[N], y[N], dx[N] = {0}, dy[N] = {0};
  for (int i = 0; i < 2 * N; i++)
    xy[i] = 0.3 + 0.11 * i;
  for (int i = 0; i < N; i++) {
    x[i] = xy[i];
    y[i] = xy[N + i];
  }
  __enzyme_autodiff((void *)f, enzyme_dup, x, dx, enzyme_dup, y, dy, enzyme_const, n_opaque);
  char what[32];
  for (int k = 0; k < 2 * N; k++) {
    snprintf(what, sizeof what, "d/d%s[%d]", k < N ? "x" : "y", k % N);
    lt_check(what, k < N ? dx[k] : dy[k - N], lt_fd_at(obj, xy, k), 1e-6, 1e-8);
  }
  return lt_done();
}
