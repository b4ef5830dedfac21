// enzyme_dupnoneed with a null primal output pointer: the primal result is
// not needed, so `enzyme_dupnoneed, (double *)0, d_out` is legal when the
// function only writes the output (never reads it back); only the shadow
// d_out is used (as the seed, consumed). Scalar stores, stores in a loop,
// and split mode (__enzyme_augmentfwd / __enzyme_reverse). The variant with
// a normal buffer also reads the output back inside the function.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <math.h>

/* out0 = x0 x1 ; out1 = sin(x0) */
void two(const double *x, double *out) {
  out[0] = x[0] * x[1];
  out[1] = sin(x[0]);
}

/* out_i = exp(x_i) x_{i+1 mod n} */
void loop_out(int n, const double *x, double *out) {
  for (int i = 0; i < n; i++)
    out[i] = exp(x[i]) * x[(i + 1) % n];
}

/* out0 = x0^2 ; out1 = out0 x1 (reads out0 back) */
void readback(const double *x, double *out) {
  out[0] = x[0] * x[0];
  out[1] = out[0] * x[1];
}

int main(void) {
  const double x0[4] = {0.6, -1.4, 0.9, 2.1};
  double x[4];
  lt_fill(x, x0, 4);

  /* null primal, scalar stores, seeds (2, -3) */
  {
    double dx[2] = {0}, dout[2] = {lt_vd(2.0), lt_vd(-3.0)};
    __enzyme_autodiff((void *)two, enzyme_dup, x, dx, enzyme_dupnoneed,
                      (double *)0, dout);
    lt_check("null primal: dx0", dx[0], 2 * x[1] - 3 * cos(x[0]), 1e-12, 1e-14);
    lt_check("null primal: dx1", dx[1], 2 * x[0], 1e-12, 1e-14);
    lt_check("null primal: dout0 consumed", dout[0], 0, 0, 0);
    lt_check("null primal: dout1 consumed", dout[1], 0, 0, 0);
  }
  /* null primal, stores in a loop, seeds all 1 */
  {
    double dx[4] = {0}, dout[4] = {1, 1, 1, 1};
    __enzyme_autodiff((void *)loop_out, enzyme_const, lt_vi(4), enzyme_dup, x,
                      dx, enzyme_dupnoneed, (double *)0, dout);
    for (int j = 0; j < 4; j++) {
      int p = (j + 3) % 4;
      double an = exp(x[j]) * x[(j + 1) % 4] + exp(x[p]);
      double h = 1e-6, xs[4], o[4], sp = 0, sm = 0;
      for (int k = 0; k < 4; k++)
        xs[k] = x[k];
      xs[j] = x[j] + h;
      loop_out(4, xs, o);
      for (int k = 0; k < 4; k++)
        sp += o[k];
      xs[j] = x[j] - h;
      loop_out(4, xs, o);
      for (int k = 0; k < 4; k++)
        sm += o[k];
      lt_grad("null primal loop: dx", x[j], dx[j], an, (sp - sm) / (2 * h),
              1e-12, 1e-6);
    }
  }
  /* null primal in split mode */
  {
    double dx[2] = {0}, dout[2] = {lt_vd(0.5), lt_vd(4.0)};
    void *tape = __enzyme_augmentfwd((void *)two, enzyme_dup, x, dx,
                                     enzyme_dupnoneed, (double *)0, dout);
    __enzyme_reverse((void *)two, enzyme_dup, x, dx, enzyme_dupnoneed,
                     (double *)0, dout, tape);
    lt_check("null primal split: dx0", dx[0], 0.5 * x[1] + 4 * cos(x[0]),
             1e-12, 1e-14);
    lt_check("null primal split: dx1", dx[1], 0.5 * x[0], 1e-12, 1e-14);
  }
  /* normal buffer, output read back inside the function */
  {
    double dx[2] = {0}, out[2] = {0}, dout[2] = {lt_vd(1.5), lt_vd(-0.5)};
    __enzyme_autodiff((void *)readback, enzyme_dup, x, dx, enzyme_dupnoneed,
                      out, dout);
    /* d/dx0 = 1.5 * 2 x0 - 0.5 * 2 x0 x1 ; d/dx1 = -0.5 x0^2 */
    lt_check("buffer readback: dx0", dx[0],
             1.5 * 2 * x[0] - 0.5 * 2 * x[0] * x[1], 1e-12, 1e-14);
    lt_check("buffer readback: dx1", dx[1], -0.5 * x[0] * x[0], 1e-12, 1e-14);
    double dy[2] = {0}, o2[2] = {0}, d2[2] = {lt_vd(2.0), lt_vd(-3.0)};
    __enzyme_autodiff((void *)two, enzyme_dup, x, dy, enzyme_dupnoneed, o2,
                      d2);
    lt_check("buffer: dx0", dy[0], 2 * x[1] - 3 * cos(x[0]), 1e-12, 1e-14);
    lt_check("buffer: dx1", dy[1], 2 * x[0], 1e-12, 1e-14);
  }
  return lt_done();
}
