// std::vector of a struct holding a double and a pointer into x: push_back
// (relocating on growth), insert and erase (elements moved up and down by
// memmove), a copy of a range into a new vector (memcpy) and reverse.
// libstdc++ moves the elements with memmove / memcpy of a run-time number
// of bytes between its blocks, which nothing typed: at -O0 the new block
// is a PHI of operator new's result, indexed as %struct.S only where the
// inserted element goes; at -O2 the source is an `i8` GEP from a PHI of
// the data pointer, whose other values alone are indexed as %struct.S.
// Both copies were taken for copies of doubles: the shadows of the
// pointers stayed behind and the adjoints went to the wrong entries of x,
// silently (-O0), or "may hold both pointers ... layout is unknown"
// (-O1..-O3). The element type now comes through those PHIs, from
// the blocks points-to says an end addresses and the copies into them
// (analysis/memelem.c), and a constant-size copy's unaccessed bytes from
// the fields of its other elements (memlayout.c; grow_reverse segfaulted
// at -O3). Against central differences, -O0..-O3.
// RUN: %ltclangxx -O0 %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 %s -o %t.O3 && %t.O3
// RUN: %ltclangxx -O2 -fno-exceptions %s -o %t.O2n && %t.O2n
// RUN: %ltclangxx -O3 -fno-exceptions %s -o %t.O3n && %t.O3n

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "check.h"

extern int enzyme_const;
template <typename R, typename... T> R __enzyme_autodiff(T...);

struct S {
  double w;
  double *p; /* into x */
  int k;
};

static volatile int nn = 5;

static void fill(std::vector<S> &v, double *x, int n) {
  for (int i = 0; i < n; i++)
    v.push_back({std::sin(x[i]), x + (i + 2) % n, i});
}

static double weighted(const std::vector<S> &v) {
  double s = 0;
  for (size_t i = 0; i < v.size(); i++)
    s += (double)(i + 1) * v[i].w * *v[i].p;
  return s;
}

/* pushes (growing 1, 2, 4, 8), then an insert without growth */
double grow_insert(double *x, int n) {
  std::vector<S> v;
  fill(v, x, n);
  v.insert(v.begin() + 1, S{x[0] * x[1], x + 3, 7});
  return weighted(v);
}

/* reserved, then a range copied into a new vector */
double copy_range(double *x, int n) {
  std::vector<S> v;
  v.reserve(8);
  fill(v, x, n);
  std::vector<S> u(v.begin() + 1, v.end());
  return weighted(u);
}

/* all of it */
double shuffle(double *x, int n) {
  std::vector<S> v;
  fill(v, x, n);
  v.insert(v.begin() + 1, S{x[0] * x[1], x + 3, 7});
  v.erase(v.begin() + 2);
  std::vector<S> u(v.begin() + 1, v.end());
  std::reverse(u.begin(), u.end());
  return weighted(u) + v[1].w;
}

/* copied by operator= into a block nothing indexes (its type comes from
 * the copy into it), that block's element erased (memmove within it) */
double assign_erase(double *x, int n) {
  std::vector<S> v;
  v.reserve(4);
  fill(v, x, n);
  {
    std::vector<S> t;
    t = v;
    v.swap(t);
  }
  v.erase(v.begin());
  std::vector<S> u(v.begin() + 1, v.end());
  return weighted(u);
}

/* vectors of doubles grown and copied next to a vector of S: points-to
 * joins their data pointers at -O0, and their copies count elements of
 * 8 bytes (sdiv exact by 8), not of S */
double beside(double *x, int n) {
  std::vector<double> d;
  d.reserve(2);
  for (int i = 0; i < n; i++)
    d.push_back(0.5 * x[i]);
  std::vector<S> v;
  fill(v, x, n);
  std::vector<double> e(x, x + n);
  e.push_back(d[3]);
  return weighted(v) + e[5] * d[1];
}

/* four pushes, unrolled at -O3: the blocks grow by copies of 24 and 48
 * bytes of which the function stores only the newest element's fields
 * (the others came in by the earlier copy); reversed, one copied out */
double grow_reverse(double *x, int n) {
  (void)n;
  std::vector<S> v;
  for (int i = 0; i < 4; i++)
    v.push_back({std::cos(x[i] - x[4]), x + (i + 2) % 5, i});
  std::reverse(v.begin(), v.end());
  std::vector<S> u(v.begin() + 3, v.begin() + 4);
  return weighted(u);
}

/* shrunk to fit by copy-and-swap, then an insert that reallocates: at
 * -O3 the grown block gets the new S field by field at index 1 and S
 * number 0 by a 24-byte memcpy nothing else types; the block is new(k *
 * 24), so index 1's fields say what index 0 holds (memlayout.c array_of;
 * fuzz --structvec seed 74308 at -O3, and this function at -O3, were
 * "copies memory that may hold both pointers ...") */
double shrink_insert(double *x, int n) {
  (void)n;
  std::vector<S> v;
  for (int i = 0; i < 4; i++)
    v.push_back({std::tanh(x[i] + 0.5), x + (i * 3 + 1) % 5, i});
  std::vector<S>(v).swap(v);
  v.insert(v.begin() + 1, S{x[0] * x[3], x + 2, 7});
  std::vector<S> u(v.begin() + 2, v.begin() + 4);
  return weighted(u);
}

/* the same with an erase after the insert: a run-time memmove inside the
 * grown block, whose element type no GEP names at -O3 (all are i8 GEPs);
 * the constant copies of whole elements into and out of the blocks have
 * layouts, and those are the element type (memelem.c layout_type) */
double shrink_erase(double *x, int n) {
  (void)n;
  std::vector<S> v;
  for (int i = 0; i < 4; i++)
    v.push_back({std::tanh(x[i] + 0.5), x + (i * 3 + 1) % 5, i});
  std::vector<S>(v).swap(v);
  v.insert(v.begin() + 1, S{x[0] * x[3], x + 2, 7});
  v.erase(v.begin() + 2);
  std::vector<S> u(v.begin(), v.begin() + 3);
  return weighted(u);
}

static double (*cur)(double *, int);
static double on_copy(const double *x0) {
  double x[5];
  std::memcpy(x, x0, sizeof x);
  return cur(x, nn);
}

static void check(const char *name, double (*f)(double *, int), double *dx) {
  double x[5] = {0.3, -0.7, 1.1, 0.4, -0.2};
  cur = f;
  for (int k = 0; k < 5; k++) {
    char what[32];
    std::snprintf(what, sizeof what, "%s dx[%d]", name, k);
    lt_check(what, dx[k], lt_fd_at(on_copy, x, k), 1e-6, 1e-9);
  }
}

int main() {
  double x[5] = {0.3, -0.7, 1.1, 0.4, -0.2};
  double d1[5] = {0}, d2[5] = {0}, d3[5] = {0}, d4[5] = {0}, d5[5] = {0}, d6[5] = {0};
  double d7[5] = {0}, d8[5] = {0};
  __enzyme_autodiff<void>((void *)grow_insert, x, d1, enzyme_const, (int)nn);
  __enzyme_autodiff<void>((void *)copy_range, x, d2, enzyme_const, (int)nn);
  __enzyme_autodiff<void>((void *)shuffle, x, d3, enzyme_const, (int)nn);
  __enzyme_autodiff<void>((void *)assign_erase, x, d4, enzyme_const, (int)nn);
  __enzyme_autodiff<void>((void *)beside, x, d5, enzyme_const, (int)nn);
  __enzyme_autodiff<void>((void *)grow_reverse, x, d6, enzyme_const, (int)nn);
  __enzyme_autodiff<void>((void *)shrink_insert, x, d7, enzyme_const, (int)nn);
  __enzyme_autodiff<void>((void *)shrink_erase, x, d8, enzyme_const, (int)nn);
  check("grow_insert", grow_insert, d1);
  check("copy_range", copy_range, d2);
  check("shuffle", shuffle, d3);
  check("assign_erase", assign_erase, d4);
  check("beside", beside, d5);
  check("grow_reverse", grow_reverse, d6);
  check("shrink_insert", shrink_insert, d7);
  check("shrink_erase", shrink_erase, d8);
  return lt_done();
}
