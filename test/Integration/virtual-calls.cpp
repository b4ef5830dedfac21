// Virtual calls on active objects whose dynamic type is known only at run
// time (prep/indirect.c): a pure virtual base with overrides reading
// members, a second base (a thunk adjusts `this`), and a virtual call
// inside a loop over a heterogeneous array; combined reverse, split and
// forward mode, against central differences. The shadow objects are built
// as Enzyme's users write them, with __enzyme_virtualreverse installing a
// "shadow vtable" (here the primal's: Leantape finds the derivative by the
// primal pointer), and also without it.
// RUN: %ltclangxx -O0 %s -o %t.O0 && %t.O0
// RUN: %ltclangxx -O2 %s -o %t.O2 && %t.O2
// RUN: %ltclangxx -O2 %enzymecxxflags %s -o %t.O2e && %t.O2e
// RUN: %ltclangxx -O2 -c %s -o /dev/null -Rpass-analysis=leantape 2>&1 | FileCheck %s
// CHECK: remark: a call through a vtable dispatched over {{[0-9]+}} functions of the module:{{.*}}_ZN6Square4evalEd{{.*}}_ZN4Wave4evalEd

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>
#include <string.h>

extern "C" double __enzyme_fwddiff(void *, ...);
template <typename T> T __enzyme_virtualreverse(T);

struct Shape {
  virtual double eval(double x) = 0;
  virtual double weight() { return 1.0; }
  virtual ~Shape() {}
};
struct Square : Shape {
  double a;
  Square(double a) : a(a) {}
  double eval(double x) override { return a * x * x; }
};
struct Wave : Shape {
  double k, w;
  Wave(double k, double w) : k(k), w(w) {}
  double eval(double x) override { return sin(k * x); }
  double weight() override { return w * w; }
};
struct Named {
  virtual const char *name() { return "named"; }
  virtual ~Named() {}
};
/* second base: Shape's methods through a Named-first object need a thunk */
struct Both : Named, Shape {
  double c;
  Both(double c) : c(c) {}
  double eval(double x) override { return exp(c * x); }
};

__attribute__((noinline)) double total(Shape **s, int n, double x) {
  double t = 0;
  for (int i = 0; i < n; i++)
    t += s[i]->weight() * s[i]->eval(x + i);
  return t;
}

__attribute__((noinline)) double one(Shape *s, double x) { return x * s->eval(x); }

static Shape *make(int kind, const double *p) {
  switch (kind) {
  case 0:
    return new Square(p[0]);
  case 1:
    return new Wave(p[1], p[2]);
  default:
    return new Both(p[3]);
  }
}

static const int kinds[4] = {1, 0, 2, 1};
static double total_of(const double *p) {
  Shape *s[4];
  for (int i = 0; i < 4; i++)
    s[i] = make(kinds[i], p);
  double t = total(s, 4, 0.3);
  for (int i = 0; i < 4; i++)
    delete s[i];
  return t;
}

/* the members of the shadows, back into a gradient */
static void gather(Shape **ds, double *g) {
  for (int i = 0; i < 4; i++) {
    if (Square *q = dynamic_cast<Square *>(ds[i]))
      g[0] += q->a;
    else if (Wave *w = dynamic_cast<Wave *>(ds[i]))
      g[1] += w->k, g[2] += w->w;
    else if (Both *b = dynamic_cast<Both *>(ds[i]))
      g[3] += b->c;
  }
}

int main() {
  double p0[4] = {0.7, 1.3, 0.9, -0.4}, p[4];
  lt_fill(p, p0, 4);
  double zero[4] = {0, 0, 0, 0};
  Shape *s[4], *ds[4];
  for (int i = 0; i < 4; i++) {
    s[i] = make(lt_vi(kinds[i]), p);
    ds[i] = make(kinds[i], zero);
    if (i % 2) /* Enzyme's way; the others keep the primal vtable */
      *(void **)ds[i] = __enzyme_virtualreverse(*(void **)ds[i]);
  }
  double x = lt_vd(0.3);
  double dx = __enzyme_autodiff((void *)total, enzyme_dup, s, ds, enzyme_const,
                                4, enzyme_out, x);
  double g[4] = {0, 0, 0, 0};
  gather(ds, g);
  for (int k = 0; k < 4; k++)
    lt_check("total: dp", g[k], lt_fd_arr(total_of, p, 4, k), 1e-6, 1e-8);
  double h = 1e-6;
  lt_check("total: dx", dx, (total(s, 4, x + h) - total(s, 4, x - h)) / (2 * h), 1e-6, 1e-8);

  /* split mode, seed 2 */
  Shape *es[4];
  for (int i = 0; i < 4; i++)
    es[i] = make(kinds[i], zero);
  void *tape = __enzyme_augmentfwd((void *)total, enzyme_dup, s, es,
                                   enzyme_const, 4, enzyme_const, x);
  __enzyme_reverse((void *)total, enzyme_dup, s, es, enzyme_const, 4,
                   enzyme_const, x, lt_vd(2.0), tape);
  double e[4] = {0, 0, 0, 0};
  gather(es, e);
  for (int k = 0; k < 4; k++)
    lt_check("total, split: dp", e[k], 2 * g[k], 1e-12, 1e-12);

  /* forward mode: tangent of each member in turn */
  for (int k = 0; k < 4; k++) {
    double dir[4] = {0, 0, 0, 0};
    dir[k] = 1;
    Shape *ts[4];
    for (int i = 0; i < 4; i++)
      ts[i] = make(kinds[i], dir);
    double t = __enzyme_fwddiff((void *)total, enzyme_dup, s, ts, enzyme_const,
                                4, enzyme_const, x);
    lt_check("total, forward: dp", t, g[k], 1e-10, 1e-12);
    for (int i = 0; i < 4; i++)
      delete ts[i];
  }

  /* one object through a pointer to its second base */
  Both b(lt_vd(0.6)), db(0);
  double dxb = __enzyme_autodiff((void *)one, enzyme_dup, (Shape *)&b,
                                 (Shape *)&db, enzyme_out, x);
  lt_check("second base: dc", db.c, x * x * exp(0.6 * x), 1e-12, 1e-14);
  lt_check("second base: dx", dxb, exp(0.6 * x) * (1 + 0.6 * x), 1e-12, 1e-14);
  for (int i = 0; i < 4; i++) {
    delete s[i];
    delete ds[i];
    delete es[i];
  }
  return lt_done();
}
