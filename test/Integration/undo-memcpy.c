// The undo log saves the destination of a memcpy, memmove or memset as a
// block (analysis/overwrite.c, gen/undo.c): a time loop that copies its
// new state back with memcpy(u, t, n) keeps the state it overwrites, 8
// bytes a point and step, and the reverse pass re-reads u, where before
// it taped the step's loads of u (16 bytes a point and step, 7.6 times the
// primal against 4 at 4000 points). Shapes, with plain pointers, each
// gradient against central differences at -O0, -O2 and -O3:
//  - a nonlinear 1-D diffusion step into t, then memcpy(u + 1, t + 1, ...)
//    (the copy's length from n);
//  - the same with memmove and t = u + 2 (one buffer: the step writes
//    what it reads two points on, and the copy overlaps itself);
//  - a window shifted by memmove(w, w + 1, ...) each step, its last element
//    new, read nonlinearly before and after (the copy overlaps itself);
//  - an accumulator array read nonlinearly, cleared by memset, summed into
//    again, in a loop;
//  - the library's memcpy by name (-fno-builtin keeps the call).
// At -O2 the diffusion's stencil loop caches nothing per iteration
// (FileCheck on the remarks: the loads of u are re-read, not taped).
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Rpass-analysis=leantape 2>%t.rem && %t.O2
// RUN: FileCheck %s --check-prefix=REM < %t.rem
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %ltclang -O2 -fno-builtin %s -o %t.nb -lm && %t.nb

#include "loopcheck.h"
#include <stdio.h>
#include <string.h>

#define N 24
#define STEPS 7

// REM: remark: loop (depth 2) in 'diffuse': caches nothing per iteration
double diffuse(double *u, double *t, int n, int steps) {
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++)
      t[i] = u[i] + 0.2 * (1 + u[i] * u[i]) * (u[i - 1] - 2 * u[i] + u[i + 1]);
    memcpy(u + 1, t + 1, (size_t)(n - 2) * sizeof *u);
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i] * (1 + 0.1 * i);
  return e;
}

double diffuse_move(double *u, double *t, int n, int steps) {
  for (int s = 0; s < steps; s++) {
    for (int i = 1; i < n - 1; i++)
      t[i] = u[i] + 0.15 * sin(u[i - 1] - 2 * u[i] + u[i + 1]);
    memmove(u + 1, t + 1, (size_t)(n - 2) * sizeof *u);
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * (1 + 0.1 * i) + 0.3 * u[i] * u[i];
  return e;
}

double shift(double *w, const double *x, int n, int steps) {
  double e = 0;
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      e += sin(w[i] * (1 + 0.05 * i)) * w[i];
    memmove(w, w + 1, (size_t)(n - 1) * sizeof *w);
    w[n - 1] = tanh(x[s] + 0.5 * w[n - 2]);
  }
  for (int i = 0; i < n; i++)
    e += w[i] * w[i];
  return e;
}

double clear(double *a, const double *x, int n, int steps) {
  double e = 0;
  for (int s = 0; s < steps; s++) {
    for (int i = 0; i < n; i++)
      e += a[i] * a[i] * a[i];
    memset(a, 0, (size_t)n * sizeof *a);
    for (int i = 0; i < n; i++)
      a[i] += sin(x[(i + s) % n]) * x[i];
  }
  for (int i = 0; i < n; i++)
    e += exp(0.3 * a[i]);
  return e;
}

/* z: 2 n + 1 doubles; the shapes' arguments are views of a copy */
static double run(int shape, double *z) {
  switch (shape) {
  case 0: return diffuse(z, z + N, N, STEPS);
  case 1: return diffuse_move(z, z + 2, N, STEPS); /* t overlaps u */
  case 2: return shift(z, z + N, N, STEPS);
  default: return clear(z, z + N, N, STEPS);
  }
}

#define M (2 * N + 1)
struct ctx { int shape; };

static double fd_obj(double *v, void *p) {
  const struct ctx *cx = p;
  double z[M];
  memcpy(z, v, sizeof z);
  return run(cx->shape, z);
}

int main(void) {
  for (int shape = 0; shape <= 3; shape++) {
    double z[M], g[M] = {0}, fd[M];
    struct ctx cx = {shape};
    lt_data(z, M, shape == 3 ? -0.6 : -0.9, shape == 3 ? 0.7 : 0.8, shape + 11);
    lt_fd_grad(fd_obj, z, M, &cx, fd);
    double *u = z, *t = z + N, *du = g, *dt = g + N;
    switch (shape) {
    case 0:
      __enzyme_autodiff((void *)diffuse, enzyme_dup, u, du, enzyme_dup, t, dt, enzyme_const, N,
                        enzyme_const, STEPS);
      break;
    case 1:
      __enzyme_autodiff((void *)diffuse_move, enzyme_dup, u, du, enzyme_dup, z + 2, g + 2,
                        enzyme_const, N, enzyme_const, STEPS);
      break;
    case 2:
      __enzyme_autodiff((void *)shift, enzyme_dup, u, du, enzyme_dup, t, dt, enzyme_const, N,
                        enzyme_const, STEPS);
      break;
    default:
      __enzyme_autodiff((void *)clear, enzyme_dup, u, du, enzyme_dup, t, dt, enzyme_const, N,
                        enzyme_const, STEPS);
    }
    char what[32];
    snprintf(what, sizeof what, "shape %d", shape);
    lt_gradv(what, M, g, fd, NULL, 1e-6, 1e-6);
  }
  return lt_done();
}
