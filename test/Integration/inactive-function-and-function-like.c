// Inactive functions and __enzyme_function_like:
//  - `void *__enzyme_inactivefn_logger = (void *)logger;`: the call stays
//    in the primal (it runs exactly once per call of the differentiated
//    function, incrementing a global counter) and contributes nothing to
//    the derivative, though its return value depends on x and is used;
//  - `__enzyme_inactivefn` as an array of two functions, one taking an
//    active (dup) pointer and recording what it reads, one in a loop;
//  - `void *__enzyme_function_like[2] = {(void *)mylog1p, "log1p"};`:
//    mylog1p's body computes 2a, but calls to it are differentiated as
//    log1p (derivative 1/(1 + a)), alone and in a loop.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* ---- an inactive logger ---------------------------------------------- */
static int n_logged;
static double last_logged;
double logger(double v) {
  n_logged++;
  last_logged = v;
  return 3.0 * v;
}
void *__enzyme_inactivefn_logger = (void *)logger;

/* x^2 + logger(x): the derivative is 2x, not 2x + 3 */
double with_logger(double x) { return x * x + logger(x); }

/* ---- an array of inactive functions ----------------------------------- */
static int n_recorded, n_ticks;
static double recorded[4];
void record(const double *p, int n) {
  n_recorded++;
  for (int i = 0; i < n && i < 4; i++)
    recorded[i] = p[i];
}
double tick(double v) {
  n_ticks++;
  return v * v;
}
void *__enzyme_inactivefn_list[2] = {(void *)record, (void *)tick};

/* s = sum_i x_i^3 (+ the inactive tick(x_i), counted n times) */
double with_list(const double *x, int n) {
  record(x, n);
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * x[i] + tick(x[i]);
  return s;
}

/* ---- function_like ----------------------------------------------------- */
static int n_like;
double mylog1p(double a) {
  n_like++;
  return 2.0 * a;
}
void *__enzyme_function_like[2] = {(void *)mylog1p, "log1p"};

double like_one(double a) { return mylog1p(a) * 3.0; }
double like_loop(const double *a, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += mylog1p(a[i] * a[i]);
  return s;
}

int main(void) {
  /* logger */
  {
    double x = lt_vd(1.25);
    n_logged = 0;
    double dx = __enzyme_autodiff((void *)with_logger, enzyme_out, x);
    lt_check("logger: no derivative through its return", dx, 2 * x, 1e-15, 0);
    lt_check("logger: ran once", n_logged, 1, 0, 0);
    lt_check("logger: saw the primal argument", last_logged, x, 0, 0);
    dx = __enzyme_autodiff((void *)with_logger, enzyme_out, lt_vd(-0.5));
    lt_check("logger: second call", dx, -1.0, 1e-15, 0);
    lt_check("logger: ran once per call", n_logged, 2, 0, 0);
  }
  /* array of inactive functions */
  {
    double x[4] = {lt_vd(0.5), lt_vd(-1.5), lt_vd(2.0), lt_vd(0.25)};
    double dx[4] = {0};
    n_recorded = n_ticks = 0;
    __enzyme_autodiff((void *)with_list, enzyme_dup, x, dx, enzyme_const,
                      lt_vi(4));
    for (int i = 0; i < 4; i++) {
      lt_check("list: dx (no contribution from tick)", dx[i], 3 * x[i] * x[i],
               1e-15, 0);
      lt_check("list: record read the primal", recorded[i], x[i], 0, 0);
    }
    lt_check("list: record ran once", n_recorded, 1, 0, 0);
    lt_check("list: tick ran once per iteration", n_ticks, 4, 0, 0);
  }
  /* function_like */
  {
    double a = lt_vd(0.6);
    n_like = 0;
    double da = __enzyme_autodiff((void *)like_one, enzyme_out, a);
    lt_check("like log1p: derivative 3/(1+a), not 6", da, 3.0 / (1.0 + a),
             1e-15, 0);
    lt_check("like log1p: primal body unchanged", like_one(a), 6.0 * a, 1e-15,
             0);
    double v[3] = {lt_vd(0.5), lt_vd(-0.3), lt_vd(1.2)}, dv[3] = {0};
    __enzyme_autodiff((void *)like_loop, enzyme_dup, v, dv, enzyme_const,
                      lt_vi(3));
    for (int i = 0; i < 3; i++)
      lt_check("like log1p in a loop: dv", dv[i],
               2 * v[i] / (1.0 + v[i] * v[i]), 1e-15, 0);
  }
  return lt_done();
}
