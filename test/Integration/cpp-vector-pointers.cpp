// A std::vector of plain pointers into active memory. When it grows,
// libstdc++ relocates the pointers with a memmove of a run-time number of
// bytes that nothing types; the function only stores pointers into the
// new block. The copy was taken for doubles, so the pointers' shadows were
// not moved with them: the gradient through the first element was silently
// 0 at -O0, and at -O1/-O2 a kept helper's gradient segfaulted (memuse.c:
// stores of pointers count as the block's element type, as loads did).
// Pushed inline, through a noinline helper (a kept call), through a holder
// the helper keeps the vector's address in, and inserted in the middle.
// Inserted into a full vector (it reallocates: the elements before and
// after the new one are moved by two copies; the one before only has its
// block indexed as pointers, `gep ptr, new, k` and the store just past it:
// segfaults at -O0..-O2, fuzz --structvec seeds 60023, 60037, ...).
// Inserted at begin() + 1 into a full vector: at -O3 the one element
// before the new one moves as `load i64` / `store i64` with no other
// access at its offset; only the loop that reads the vector indexes its
// blocks as pointers (wordev.c lt_wordev_elem; a segfault at -O3, seeds
// 60037 and 60084).
// Gradients against central differences.
// RUN: %ltclangxx -O0 -fno-exceptions %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O1 -fno-exceptions %s -o %t.O1 && %t.O1
// RUN: %ltclangxx -O2 %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O3 -fno-exceptions %s -o %t.O3 && %t.O3

#include <vector>

#include "check.h"
#include <leantape.h>

struct Ref {
  std::vector<double *> *v;
};

__attribute__((noinline)) static void push(std::vector<double *> *v, double *p) {
  v->push_back(p);
}

__attribute__((noinline)) static void push_via(Ref *r, double *p) { r->v->push_back(p); }

__attribute__((noinline)) static void add_ptr(std::vector<double *> *vec, double *p) {
  Ref r{vec};
  push_via(&r, p);
}

static double sum_sq(const std::vector<double *> &ptrs, const double *x) {
  double s = 0;
  for (size_t q = 0; q < ptrs.size(); q++)
    s += (double)(q + 1) * *ptrs[q] * *ptrs[q] * x[0];
  return s;
}

static double inline_push(const double *xc) {
  double *x = const_cast<double *>(xc);
  std::vector<double *> ptrs;
  for (int q = 1; q < 6; q++) /* grows 1, 2, 4, 8 */
    ptrs.push_back(&x[q]);
  return sum_sq(ptrs, x);
}

static double helper_push(const double *xc) {
  double *x = const_cast<double *>(xc);
  std::vector<double *> ptrs;
  for (int q = 5; q >= 1; q -= 2)
    push(&ptrs, &x[q]);
  return sum_sq(ptrs, x);
}

static double holder_push(const double *xc) {
  double *x = const_cast<double *>(xc);
  std::vector<double *> ptrs;
  add_ptr(&ptrs, &x[1]);
  add_ptr(&ptrs, &x[3]);
  add_ptr(&ptrs, &x[4]);
  return sum_sq(ptrs, x);
}

static double insert_mid(const double *xc) {
  double *x = const_cast<double *>(xc);
  std::vector<double *> ptrs;
  ptrs.push_back(&x[1]);
  ptrs.push_back(&x[2]);
  ptrs.push_back(&x[3]);
  ptrs.insert(ptrs.begin() + 1, &x[5]); /* moves two up */
  ptrs.erase(ptrs.begin());             /* moves three down */
  return sum_sq(ptrs, x);
}

static double insert_full(const double *xc) {
  double *x = const_cast<double *>(xc);
  std::vector<double *> ptrs;
  for (int q = 0; q < 4; q++) /* capacity 4, full */
    push(&ptrs, &x[q]);
  ptrs.insert(ptrs.begin() + 2, &x[5]);
  return sum_sq(ptrs, x);
}

static double insert_full_inline(const double *xc) {
  double *x = const_cast<double *>(xc);
  std::vector<double *> ptrs;
  for (int q = 1; q < 5; q++)
    ptrs.push_back(&x[q]);
  ptrs.insert(ptrs.begin() + 2, &x[0]);
  return sum_sq(ptrs, x);
}

static double insert_second(const double *xc) {
  double *x = const_cast<double *>(xc);
  std::vector<double *> ptrs;
  for (int q = 0; q < 4; q++)
    push(&ptrs, &x[q]);
  ptrs.insert(ptrs.begin() + 1, &x[5]);
  return sum_sq(ptrs, x);
}

static double insert_second_inline(const double *xc) {
  double *x = const_cast<double *>(xc);
  std::vector<double *> ptrs;
  for (int q = 4; q >= 1; q--)
    ptrs.push_back(&x[q]);
  ptrs.insert(ptrs.begin() + 1, &x[0]);
  return sum_sq(ptrs, x);
}

static double x0[6], dx0[6];

static void start() {
  for (int i = 0; i < 6; i++) {
    x0[i] = 0.1 * i + 0.2;
    dx0[i] = 0;
  }
}

static void check(const char *name, double (*obj)(const double *)) {
  char what[64];
  for (int k = 0; k < 6; k++) {
    snprintf(what, sizeof what, "%s d/dx[%d]", name, k);
    lt_check(what, dx0[k], lt_fd_at(obj, x0, k), 1e-6, 1e-8);
  }
}

int main() {
  start();
  __enzyme_autodiff((void *)inline_push, enzyme_dup, x0, dx0);
  check("push_back", inline_push);
  start();
  __enzyme_autodiff((void *)helper_push, enzyme_dup, x0, dx0);
  check("push_back in a kept helper", helper_push);
  start();
  __enzyme_autodiff((void *)holder_push, enzyme_dup, x0, dx0);
  check("push_back through a holder", holder_push);
  start();
  __enzyme_autodiff((void *)insert_mid, enzyme_dup, x0, dx0);
  check("insert and erase", insert_mid);
  start();
  __enzyme_autodiff((void *)insert_full, enzyme_dup, x0, dx0);
  check("insert into a full vector (kept push)", insert_full);
  start();
  __enzyme_autodiff((void *)insert_full_inline, enzyme_dup, x0, dx0);
  check("insert into a full vector", insert_full_inline);
  start();
  __enzyme_autodiff((void *)insert_second, enzyme_dup, x0, dx0);
  check("insert at begin() + 1 into a full vector (kept push)", insert_second);
  start();
  __enzyme_autodiff((void *)insert_second_inline, enzyme_dup, x0, dx0);
  check("insert at begin() + 1 into a full vector", insert_second_inline);
  return lt_done();
}
