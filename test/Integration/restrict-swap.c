// Double-buffered time loops whose step is a restrict function inlined
// into the loop body, the buffers swapped after each step (legal C: the
// restrict parameters are new in each call). Once inlined, the two
// buffers are PHIs of the time loop, and LLVM's alias analysis compares
// two PHIs of one block incoming value by incoming value: apart within an
// iteration, which says nothing across iterations, where the next step
// writes the buffer this one read. The overwrite analysis took that for
// "never written after it is read" and the reverse pass read the later
// step's values: dA off by 0.7%, silently, at -O1..-O3
// (lib/plugin.cpp hostMayAlias now asks such pairs as one pointer). Each
// gradient is checked against central differences:
//  - heat2d: u <- u + c (1 + u^2) lap u on a 24 x 24 grid, 12 steps;
//  - burgers1d: a nonlinear 1-D step through out = f(in), 20 steps, the
//    swap written with a temporary, and an odd step count (the result in
//    the second buffer).
// RUN: %ltclang %ltload -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang %ltload -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang %ltload -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang %ltload -O3 %s -o %t.O3 -lm && %t.O3
#include "check.h"
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

enum { M = 24, S = 12, L = 40, T1 = 21 };

static inline void heat_step(const double *restrict u, double *restrict v, int n) {
  for (int i = 1; i < n - 1; i++)
    for (int j = 1; j < n - 1; j++) {
      double x = u[i * n + j];
      double lap = u[(i - 1) * n + j] + u[(i + 1) * n + j] + u[i * n + j - 1] +
                   u[i * n + j + 1] - 4 * x;
      v[i * n + j] = x + 0.1 * (1 + x * x) * lap;
    }
}

double heat2d(double *u, double *v, int n, int steps) {
  for (int t = 0; t < steps; t++) {
    heat_step(u, v, n);
    double *w = u;
    u = v;
    v = w;
  }
  double e = 0;
  for (int i = 0; i < n * n; i++)
    e += u[i] * u[i];
  return e;
}

static inline void burgers_step(const double *restrict in, double *restrict out, int n) {
  for (int i = 1; i < n - 1; i++)
    out[i] = in[i] - 0.2 * in[i] * (in[i + 1] - in[i - 1]) +
             0.05 * (in[i + 1] - 2 * in[i] + in[i - 1]);
}

double burgers1d(double *a, double *b, int n, int steps) {
  double *cur = a, *next = b;
  for (int t = 0; t < steps; t++) {
    burgers_step(cur, next, n);
    double *tmp = cur;
    cur = next;
    next = tmp;
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += sin(cur[i]) * cur[i];
  return e;
}

static double u0[M * M], v0[M * M], a0[L], b0[L];

static void init(void) {
  for (int i = 0; i < M * M; i++)
    u0[i] = 0.3 * sin(0.37 * i) + 0.1 * cos(1.3 * i), v0[i] = 0;
  for (int i = 0; i < L; i++)
    a0[i] = 0.5 + 0.3 * sin(0.7 * i), b0[i] = a0[i];
}

static double heat_at(int k, double h) {
  double u[M * M], v[M * M];
  memcpy(u, u0, sizeof u);
  memcpy(v, v0, sizeof v);
  u[k] += h;
  return heat2d(u, v, M, S);
}

static double burgers_at(int k, double h) {
  double a[L], b[L];
  memcpy(a, a0, sizeof a);
  memcpy(b, b0, sizeof b);
  a[k] += h;
  return burgers1d(a, b, L, T1);
}

int main(void) {
  init();
  double u[M * M], v[M * M], du[M * M] = {0}, dv[M * M] = {0};
  memcpy(u, u0, sizeof u);
  memcpy(v, v0, sizeof v);
  __enzyme_autodiff((void *)heat2d, enzyme_dup, u, du, enzyme_dup, v, dv, enzyme_const, M,
                    enzyme_const, S);
  int hk[5] = {M + 1, 5 * M + 7, 12 * M + 12, 20 * M + 3, M * M - M - 2};
  for (int q = 0; q < 5; q++) {
    int k = hk[q];
    double h = 1e-6, fd = (heat_at(k, h) - heat_at(k, -h)) / (2 * h);
    char w[80];
    snprintf(w, sizeof w, "heat2d: du[%d] vs central difference", k);
    lt_check(w, du[k], fd, 1e-6, 1e-8);
  }
  double a[L], b[L], da[L] = {0}, db[L] = {0};
  memcpy(a, a0, sizeof a);
  memcpy(b, b0, sizeof b);
  __enzyme_autodiff((void *)burgers1d, enzyme_dup, a, da, enzyme_dup, b, db, enzyme_const, L,
                    enzyme_const, T1);
  for (int k = 1; k < L - 1; k += 3) {
    double h = 1e-6, fd = (burgers_at(k, h) - burgers_at(k, -h)) / (2 * h);
    char w[80];
    snprintf(w, sizeof w, "burgers1d: da[%d] vs central difference", k);
    lt_check(w, da[k], fd, 1e-6, 1e-8);
  }
  return lt_done();
}
