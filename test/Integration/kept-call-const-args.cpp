// A call kept as a call (-O0, or noinline) is summarised by what it may
// store, and where: what escapes goes only into the memory of the arguments
// it may write pointers through (analysis/callwrites.c).
//
// Eigen: a noinline *out = (*M) * (*v), called on a local copy of a matrix
// and on the matrix itself (fuzz --eigen seed 84046). Eigen's Product keeps
// &M; when that address was taken to be stored into M too, M's data pointer
// seemed to address the matrix object, and the copy constructor's memcpy
// of its doubles was refused at -O0 ("this copies memory that may hold
// both pointers to active data and floating-point values").
//
// std::vector<double> copied, read through operator[] kept as a call at
// -O0 (fuzz --eigen seed 700040): escape.c's memo took an accessor that
// returns what its parameter holds for one returning nothing from its
// second query on (its "being decided" mark was the value of that
// answer), so v2[4]'s address had no targets and no shadow; the callers'
// coarser summaries had hidden it.
//
// push_via writes a pointer into a vector through a holder its caller keeps
// the vector's address in: that must still count as a write.
// Gradients against central differences.
// REQUIRES: eigen
// RUN: %ltclangxx -O0 -fno-exceptions %eigenflags %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 -fno-exceptions %eigenflags %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 -fno-exceptions %eigenflags %s -o %t.O2 && %t.O2

#include <Eigen/Dense>
#include <vector>

#include "check.h"
#include <leantape.h>

__attribute__((noinline)) static void ehm(const Eigen::MatrixXd *M, const Eigen::VectorXd *v,
                                          Eigen::VectorXd *out) {
  *out = (*M) * (*v);
}

static double eig(const double *x) {
  Eigen::MatrixXd E2(2, 3);
  E2 << tanh(x[0]), tanh(x[1]), tanh(x[2]), tanh(x[3]), tanh(x[4]), tanh(x[5]);
  Eigen::MatrixXd E0(3, 3);
  E0 << x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[0];
  double acc = 0;
  for (int i = 0; i < 3; i++) {
    Eigen::MatrixXd em = E2;
    Eigen::VectorXd ev = Eigen::Map<const Eigen::Vector3d>(x + 1);
    Eigen::VectorXd eo;
    ehm(&em, &ev, &eo);
    acc += cos(eo.squaredNorm());
  }
  for (int i = 0; i < 2; i++) {
    Eigen::VectorXd ev = E0.col(1);
    Eigen::VectorXd eo;
    ehm(&E2, &ev, &eo);
    acc += cos(eo.sum());
  }
  return acc;
}

struct Ref {
  std::vector<double *> *v;
};

__attribute__((noinline)) static void push_via(Ref *r, double *p) { r->v->push_back(p); }

__attribute__((noinline)) static void add_ptr(std::vector<double *> *vec, double *p) {
  Ref r{vec};
  push_via(&r, p);
}

static double ptrs_sum(const double *xc) {
  double *x = const_cast<double *>(xc);
  std::vector<double *> ptrs;
  add_ptr(&ptrs, &x[1]);
  add_ptr(&ptrs, &x[3]);
  double s = 0;
  for (double *q : ptrs)
    s += *q * *q * x[0];
  return s;
}

static double vec_copy(const double *x) {
  std::vector<double> v1(x, x + 6);
  for (int i = 0; i < 6; i++)
    v1[i] = cos(v1[i]) * x[7];
  std::vector<double> v2(v1);
  return v2[4] * v1[2] + v2[1] * v2[4];
}

static double x0[8], dx0[8];

static void start(int n) {
  for (int i = 0; i < n; i++) {
    x0[i] = 0.1 * i + 0.2;
    dx0[i] = 0;
  }
}

static void check(const char *name, double (*obj)(const double *), int n) {
  char what[64];
  for (int k = 0; k < n; k++) {
    snprintf(what, sizeof what, "%s d/dx[%d]", name, k);
    lt_check(what, dx0[k], lt_fd_at(obj, x0, k), 1e-6, 1e-8);
  }
}

int main() {
  start(8);
  __enzyme_autodiff((void *)eig, enzyme_dup, x0, dx0);
  check("eigen product of a copy and of the matrix", eig, 8);
  start(8);
  __enzyme_autodiff((void *)vec_copy, enzyme_dup, x0, dx0);
  check("vector copied, read through operator[]", vec_copy, 8);
  start(4);
  __enzyme_autodiff((void *)ptrs_sum, enzyme_dup, x0, dx0);
  check("pointer pushed through a holder", ptrs_sum, 4);
  return lt_done();
}
