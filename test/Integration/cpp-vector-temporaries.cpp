// Heap temporaries of C++ code inside the differentiated function:
//  - std::vector<double> locals: constructed from a range and with a fill
//    value, push_back (growing, so the elements are relocated), resize,
//    copy construction, copy assignment, a vector returned by value from a
//    helper, summed with a range-for; with exceptions on (the vector calls
//    are invokes with cleanup landing pads and the length checks call
//    __throw_length_error) and off;
//  - operator new / delete used directly: scalar new/delete (sized delete),
//    new[] / delete[], ::operator new(bytes) with a sized ::operator delete,
//    and the aligned array form new (std::align_val_t(64)) double[n] with
//    ::operator delete[](p, std::align_val_t(64)).
// RUN: %ltclangxx -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclangxx -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclangxx -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclangxx -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %ltclangxx -O0 -fno-exceptions %s -o %t.O0n -lm && %t.O0n
// RUN: %ltclangxx -O2 -fno-exceptions %s -o %t.O2n -lm && %t.O2n

#include "check.h"
#include "testutil.h"
#include <cmath>
#include <cstddef>
#include <leantape.h>
#include <new>
#include <vector>

static const int N = 5;

static std::vector<double> squares(const std::vector<double> &v) {
  std::vector<double> r;
  r.reserve(1); /* small, so push_back has to grow it */
  for (double e : v)
    r.push_back(e * e);
  return r;
}

/* vec_obj(x) = sum_i x_i^2 + sum_i sin(x_i) + x_0 x_{n-1} + 3 sum_i x_i */
double vec_obj(const double *x, int n) {
  std::vector<double> v(x, x + n);  /* range constructor */
  std::vector<double> w = squares(v); /* returned by value */
  w.resize(2 * n);                  /* zero-filled tail */
  for (int i = 0; i < n; i++)
    w[n + i] = std::sin(v[i]);
  std::vector<double> c = w; /* copy */
  c.push_back(x[0] * x[n - 1]);
  std::vector<double> t(n, 3.0); /* fill constructor */
  for (int i = 0; i < n; i++)
    t[i] *= v[i];
  std::vector<double> u;
  u = t; /* copy assignment */
  double s = 0;
  for (double e : c)
    s += e;
  for (double e : u)
    s += e;
  return s;
}
static double vec_obj_d(const double *x) { return vec_obj(x, N); }
static double vec_obj_grad(const double *x, int n, int j) {
  return 2 * x[j] + std::cos(x[j]) + (j == 0 ? x[n - 1] : 0) +
         (j == n - 1 ? x[0] : 0) + 3.0;
}

/* s = 2 x0 ; a_i = x_i s ; b_i = a_i x_i ; al_i = exp(0.1 b_i)
 * newdel(x) = sum_i exp(0.2 x0 x_i^2)                                  */
double newdel(const double *x, int n) {
  double *s = new double(x[0] * 2);
  double *a = new double[n];
  for (int i = 0; i < n; i++)
    a[i] = x[i] * *s;
  double *b = static_cast<double *>(::operator new(n * sizeof(double)));
  for (int i = 0; i < n; i++)
    b[i] = a[i] * x[i];
  double *al = new (std::align_val_t(64)) double[n];
  for (int i = 0; i < n; i++)
    al[i] = std::exp(b[i] * 0.1);
  double r = 0;
  for (int i = 0; i < n; i++)
    r += al[i];
  ::operator delete(b, n * sizeof(double));
  ::operator delete[](al, std::align_val_t(64));
  delete[] a;
  delete s;
  return r;
}
static double newdel_d(const double *x) { return newdel(x, N); }
static double newdel_grad(const double *x, int n, int j) {
  double g = 0.4 * x[0] * x[j] * std::exp(0.2 * x[0] * x[j] * x[j]);
  if (j == 0)
    for (int i = 0; i < n; i++)
      g += 0.2 * x[i] * x[i] * std::exp(0.2 * x[0] * x[i] * x[i]);
  return g;
}

int main() {
  const double x0[N] = {0.4, -1.2, 0.9, 1.7, -0.3};
  double x[N], dx[N] = {0};
  lt_fill(x, x0, N);

  __enzyme_autodiff((void *)vec_obj, enzyme_dup, (const double *)x, dx,
                    enzyme_const, lt_vi(N));
  for (int j = 0; j < N; j++)
    lt_grad("std::vector temporaries", x[j], dx[j], vec_obj_grad(x, N, j),
            lt_fd_arr(vec_obj_d, x, N, j), 1e-12, 1e-6);

  double dy[N] = {0};
  __enzyme_autodiff((void *)newdel, enzyme_dup, (const double *)x, dy,
                    enzyme_const, lt_vi(N));
  for (int j = 0; j < N; j++)
    lt_grad("operator new/delete", x[j], dy[j], newdel_grad(x, N, j),
            lt_fd_arr(newdel_d, x, N, j), 1e-12, 1e-6);
  return lt_done();
}
