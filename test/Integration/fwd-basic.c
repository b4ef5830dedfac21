// Forward mode (__enzyme_fwddiff, Enzyme's interface): float arguments
// followed by their tangents (marked enzyme_dup or unmarked), enzyme_const,
// pointers with tangent memory (enzyme_dup, enzyme_dupnoneed), a loop, the
// primal returned with enzyme_primal_return, and enzyme_width 4 with
// enzyme_dup (four tangents each) and enzyme_dupv (one pointer, a stride).
// Every tangent against central finite differences along its direction.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O2 -Rpass-analysis=leantape -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=REMARK
// REMARK-DAG: remark: derivative of 'f' (forward mode): tangents, no tape
// REMARK-DAG: remark: derivative of 'f' (forward mode, width 4): tangents, no tape
// REMARK-DAG: remark: derivative of 'g' (forward mode, width 4): tangents, no tape

#include "check.h"
#include "testutil.h"
#include <math.h>
#include <string.h>

extern int enzyme_dup, enzyme_const, enzyme_dupnoneed, enzyme_width,
    enzyme_dupv, enzyme_primal_return;
double __enzyme_fwddiff(void *, ...);
typedef struct { double v[4]; } D4;
D4 __enzyme_fwddiff4(void *, ...);
typedef struct { double p, t; } PT;
PT __enzyme_fwddiff_pr(void *, ...);
void __enzyme_fwddiff_v(void *, ...);

double f(double x, double y) { return x * y + sin(x) / y + exp(-x * y); }

/* out[i] = exp(x[i]) * (x[0]^2 + .. + x[i]^2) */
void g(const double *x, double *out, int n) {
  double s = 0;
  for (int i = 0; i < n; i++) {
    s += x[i] * x[i];
    out[i] = exp(x[i]) * s;
  }
}

static double X = 0.7, Y = 1.3;
static double fxy(double t) { return f(X + t, Y); }
static double fyx(double t) { return f(X, Y + t); }

int main(void) {
  double x = lt_vd(X), y = lt_vd(Y);
  lt_check("df/dx (unmarked)", __enzyme_fwddiff((void *)f, x, 1.0, y, 0.0),
           lt_fd(fxy, 0), 1e-6, 1e-9);
  lt_check("df/dy (enzyme_dup)",
           __enzyme_fwddiff((void *)f, enzyme_dup, x, 0.0, enzyme_dup, y, 1.0),
           lt_fd(fyx, 0), 1e-6, 1e-9);
  lt_check("df/dx (y enzyme_const)",
           __enzyme_fwddiff((void *)f, x, 1.0, enzyme_const, y), lt_fd(fxy, 0),
           1e-6, 1e-9);
  PT pt = __enzyme_fwddiff_pr((void *)f, enzyme_primal_return, x, 1.0, y, 0.0);
  lt_check("primal (enzyme_primal_return)", pt.p, f(x, y), 1e-15, 0);
  lt_check("tangent (enzyme_primal_return)", pt.t, lt_fd(fxy, 0), 1e-6, 1e-9);

  /* width 4: directions (1,0), (0,1), (2,0), (1,1) */
  D4 r = __enzyme_fwddiff4((void *)f, enzyme_width, 4, x, 1.0, 0.0, 2.0, 1.0, y,
                           0.0, 1.0, 0.0, 1.0);
  double dx = lt_fd(fxy, 0), dy = lt_fd(fyx, 0);
  lt_check("width 4 lane 0", r.v[0], dx, 1e-6, 1e-9);
  lt_check("width 4 lane 1", r.v[1], dy, 1e-6, 1e-9);
  lt_check("width 4 lane 2", r.v[2], 2 * dx, 1e-6, 1e-9);
  lt_check("width 4 lane 3", r.v[3], dx + dy, 1e-6, 1e-9);

  /* memory: a direction through the array, outputs through dupnoneed */
  enum { N = 5 };
  double a[N], da[N], out[N], dout[N], ref[N], p[N], m[N], op[N], om[N];
  for (int i = 0; i < N; i++) {
    a[i] = lt_vd(0.3 + 0.25 * i);
    da[i] = 0.5 - 0.2 * i;
  }
  __enzyme_fwddiff((void *)g, enzyme_dup, a, da, enzyme_dupnoneed, out, dout,
                   enzyme_const, N);
  double h = 1e-6;
  for (int i = 0; i < N; i++) {
    p[i] = a[i] + h * da[i];
    m[i] = a[i] - h * da[i];
  }
  g(p, op, N);
  g(m, om, N);
  for (int i = 0; i < N; i++) {
    char w[40];
    snprintf(w, sizeof w, "d out[%d]", i);
    lt_check(w, dout[i], (op[i] - om[i]) / (2 * h), 1e-6, 1e-9);
  }
  /* width 4 with enzyme_dupv: four direction arrays, N doubles apart */
  double dirs[4][N], touts[4][N];
  for (int k = 0; k < 4; k++)
    for (int i = 0; i < N; i++)
      dirs[k][i] = (i == k) ? 1.0 : 0.1 * k;
  __enzyme_fwddiff_v((void *)g, enzyme_width, 4, enzyme_dupv, sizeof dirs[0], a,
                     dirs, enzyme_dupv, sizeof touts[0], out, touts,
                     enzyme_const, N);
  for (int k = 0; k < 4; k++) {
    double one[N];
    __enzyme_fwddiff((void *)g, enzyme_dup, a, dirs[k], enzyme_dup, out, one,
                     enzyme_const, N);
    for (int i = 0; i < N; i++) {
      char w[48];
      snprintf(w, sizeof w, "dupv lane %d out[%d]", k, i);
      lt_check(w, touts[k][i], one[i], 1e-14, 1e-15);
    }
  }
  return lt_done();
}
