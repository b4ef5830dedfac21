// A loop that stores x[j] and reads x[j - k] (k >= 1) reads only what it
// wrote itself earlier in the run: after the run, memory holds what each
// iteration read. So the undo log may save the store's range as one block
// (gen/undoblock.c) and the reverse pass re-read the recurrence's loads
// from memory (analysis/owchoice.c lt_load_behind), where before the
// recurrence taped its load and a later loop reading the same row taped
// it again (PolyBench's adi: p[i][j - 1] in the forward sweep, p[i][j] in
// the back substitution, 16 bytes a point where the row is 8). Shapes, with
// plain pointers, each gradient against central differences:
//  - ADI's column and row sweeps (PolyBench's shape, a run-time n), time
//    stepped, the arrays apart and, for the second pointer of a pair, at
//    placements that overlap the first;
//  - a Thomas tridiagonal solve per step, in place in cp, dp and x;
//  - lag-2 recurrences up and a lag-1 recurrence down in place;
//  - loads that read ahead (x[j + 1] in an upward loop: the old value),
//    which a block restored at the loop's end would get wrong, and one
//    whose product comes after a store over it in the same iteration.
// At -O2 the ADI gradient's tape (malloc wrapped) is under 56 bytes a
// point and step (48: the sweeps' quotients and v, and the rows of p and
// u as blocks; the log's entries and table about 2 more at n = 130; 64
// before).
// RUN: %ltclang -O0 %s -o %t.O0 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm -Wl,--wrap=malloc,--wrap=free,--wrap=realloc && %t.O3

#include "loopcheck.h"
#include <stdint.h>
#include <stdio.h>

#include "heapcount.h"

#define AN 7
#define AT 3

/* PolyBench's adi with the arrays as flat plain pointers (n x n) */
double adi(double *u, double *v, double *p, double *q, int n, int tsteps) {
  double DX = 1.0 / n, DY = 1.0 / n, DT = 1.0 / tsteps;
  double mul1 = 2.0 * DT / (DX * DX), mul2 = 1.0 * DT / (DY * DY);
  double a = -mul1 / 2.0, b = 1.0 + mul1, c = a;
  double d = -mul2 / 2.0, e = 1.0 + mul2, f = d;
  for (int t = 1; t <= tsteps; t++) {
    for (int i = 1; i < n - 1; i++) {
      v[0 * n + i] = 1.0;
      p[i * n + 0] = 0.0;
      q[i * n + 0] = v[0 * n + i];
      for (int j = 1; j < n - 1; j++) {
        p[i * n + j] = -c / (a * p[i * n + j - 1] + b);
        q[i * n + j] = (-d * u[j * n + i - 1] + (1.0 + 2.0 * d) * u[j * n + i] -
                        f * u[j * n + i + 1] - a * q[i * n + j - 1]) /
                       (a * p[i * n + j - 1] + b);
      }
      v[(n - 1) * n + i] = 1.0;
      for (int j = n - 2; j >= 1; j--)
        v[j * n + i] = p[i * n + j] * v[(j + 1) * n + i] + q[i * n + j];
    }
    for (int i = 1; i < n - 1; i++) {
      u[i * n + 0] = 1.0;
      p[i * n + 0] = 0.0;
      q[i * n + 0] = u[i * n + 0];
      for (int j = 1; j < n - 1; j++) {
        p[i * n + j] = -f / (d * p[i * n + j - 1] + e);
        q[i * n + j] = (-a * v[(i - 1) * n + j] + (1.0 + 2.0 * a) * v[i * n + j] -
                        c * v[(i + 1) * n + j] - d * q[i * n + j - 1]) /
                       (d * p[i * n + j - 1] + e);
      }
      u[i * n + n - 1] = 1.0;
      for (int j = n - 2; j >= 1; j--)
        u[i * n + j] = p[i * n + j] * u[i * n + j + 1] + q[i * n + j];
    }
  }
  double s = 0;
  for (int i = 0; i < n * n; i++)
    s += u[i] * u[i] * (1 + 0.01 * i) + 0.1 * p[i] * q[i];
  return s;
}

/* a Thomas solve of the tridiagonal (a, b, c) for d per step, the right
 * side then moved nonlinearly by the solution */
double thomas(const double *a, const double *b, const double *c, double *d, double *cp,
              double *dp, double *x, int n, int steps) {
  for (int s = 0; s < steps; s++) {
    cp[0] = c[0] / b[0];
    dp[0] = d[0] / b[0];
    for (int i = 1; i < n; i++) {
      double m = b[i] - a[i] * cp[i - 1];
      cp[i] = c[i] / m;
      dp[i] = (d[i] - a[i] * dp[i - 1]) / m;
    }
    x[n - 1] = dp[n - 1];
    for (int i = n - 2; i >= 0; i--)
      x[i] = dp[i] - cp[i] * x[i + 1];
    for (int i = 0; i < n; i++)
      d[i] = x[i] + 0.2 * sin(x[i]) * cp[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += d[i] * (1 + 0.1 * i) + x[i] * x[i];
  return e;
}

/* lag-2 upwards and lag-1 downwards, in place, then read again */
double lags(double *x, const double *w, int n, int steps) {
  double e = 0;
  for (int s = 0; s < steps; s++) {
    for (int j = 2; j < n; j++)
      x[j] = 0.5 * x[j - 2] * w[j] + sin(x[j - 1]);
    for (int j = n - 2; j >= 0; j--)
      x[j] = tanh(x[j + 1]) * w[j] + 0.3 * x[j];
    for (int j = 0; j < n; j++)
      e += x[j] * x[j] * w[(j + s) % n];
  }
  return e;
}

/* reads ahead: x[j + 1] is the value from before the loop */
double ahead(double *x, const double *w, int n, int steps) {
  double e = 0;
  for (int s = 0; s < steps; s++) {
    for (int j = 0; j < n - 1; j++)
      x[j] = sin(x[j + 1]) * w[j] + 0.2 * x[j] * x[j];
    for (int j = 1; j < n - 1; j++)
      x[j] = cos(x[j + 1] - x[j - 1]) + 0.1 * x[j];
    for (int j = 0; j < n - 1; j++) { /* o's product after a store over it */
      double o = x[j], *y = x + 1;
      y[j - 1] = 0.5 * sin(x[j + 1]) + 0.1 * o;
      e += o * o * w[j] + x[j];
    }
    for (int j = 0; j < n; j++)
      e += x[j] * x[j] * w[j];
  }
  return e;
}

#define TN 9
#define TS 3
/* buffer: the shapes' arguments are views of it */
#define S (4 * AN * AN + 4 * AN * AN)
#define BASE (AN * AN)

struct ctx { int shape, off; };

/* the arguments of shape at placement off (the second pointer of a pair
 * moved by off elements) */
static double run(int shape, double *z, int off) {
  int nn = AN * AN;
  switch (shape) {
  case 0: return adi(z, z + 2 * nn, z + 4 * nn, z + 6 * nn, AN, AT);
  case 1: return adi(z, z + 2 * nn, z + 4 * nn, z + 4 * nn + off, AN, AT); /* p, q */
  case 2: return adi(z + BASE, z + BASE + off, z + 4 * nn, z + 6 * nn, AN, AT); /* u, v */
  case 3:
    return thomas(z, z + TN, z + 2 * TN, z + 3 * TN, z + 5 * TN, z + 5 * TN + off, z + 7 * TN,
                  TN, TS);
  case 4: return lags(z, z + 2 * TN, 2 * TN, TS);
  default: return ahead(z, z + 2 * TN, 2 * TN, TS);
  }
}

static double fd_obj(double *v, void *p) {
  const struct ctx *cx = p;
  double z[S];
  memcpy(z, v, sizeof z);
  return run(cx->shape, z, cx->off);
}

/* the gradient over the buffer through the same views */
static void grad(int shape, const double *z0, int off, double *g, long long *tape) {
  static double z[S];
  int nn = AN * AN;
  memcpy(z, z0, sizeof z);
  memset(g, 0, S * sizeof *g);
  counting = 1;
  live = peak = 0;
  switch (shape) {
  case 0:
    __enzyme_autodiff((void *)adi, enzyme_dup, z, g, enzyme_dup, z + 2 * nn, g + 2 * nn,
                      enzyme_dup, z + 4 * nn, g + 4 * nn, enzyme_dup, z + 6 * nn, g + 6 * nn,
                      enzyme_const, AN, enzyme_const, AT);
    break;
  case 1:
    __enzyme_autodiff((void *)adi, enzyme_dup, z, g, enzyme_dup, z + 2 * nn, g + 2 * nn,
                      enzyme_dup, z + 4 * nn, g + 4 * nn, enzyme_dup, z + 4 * nn + off,
                      g + 4 * nn + off, enzyme_const, AN, enzyme_const, AT);
    break;
  case 2:
    __enzyme_autodiff((void *)adi, enzyme_dup, z + BASE, g + BASE, enzyme_dup, z + BASE + off,
                      g + BASE + off, enzyme_dup, z + 4 * nn, g + 4 * nn, enzyme_dup,
                      z + 6 * nn, g + 6 * nn, enzyme_const, AN, enzyme_const, AT);
    break;
  case 3:
    __enzyme_autodiff((void *)thomas, enzyme_dup, z, g, enzyme_dup, z + TN, g + TN, enzyme_dup,
                      z + 2 * TN, g + 2 * TN, enzyme_dup, z + 3 * TN, g + 3 * TN, enzyme_dup,
                      z + 5 * TN, g + 5 * TN, enzyme_dup, z + 5 * TN + off, g + 5 * TN + off,
                      enzyme_dup, z + 7 * TN, g + 7 * TN, enzyme_const, TN, enzyme_const, TS);
    break;
  case 4:
    __enzyme_autodiff((void *)lags, enzyme_dup, z, g, enzyme_dup, z + 2 * TN, g + 2 * TN,
                      enzyme_const, 2 * TN, enzyme_const, TS);
    break;
  default:
    __enzyme_autodiff((void *)ahead, enzyme_dup, z, g, enzyme_dup, z + 2 * TN, g + 2 * TN,
                      enzyme_const, 2 * TN, enzyme_const, TS);
  }
  counting = 0;
  *tape = peak;
}

/* placements of the second pointer per shape (0: one run) */
static const int offs[][7] = {
    {0}, {1, 2, AN, AN * AN - 1, AN * AN, 2 * AN * AN}, {1, AN, AN * AN, 2 * AN * AN},
    {1, 2, TN - 1, TN, 2 * TN}, {0}, {0}};
static const int noffs[] = {1, 6, 4, 5, 1, 1};

int main(void) {
  static double z[S], fd[S], ad[S];
  for (int shape = 0; shape <= 5; shape++)
    for (int k = 0; k < noffs[shape]; k++) {
      int off = offs[shape][k];
      struct ctx cx = {shape, off};
      lt_data(z, S, shape == 3 ? 0.1 : -0.8, shape == 3 ? 0.4 : 0.9, 5 * shape + k + 3);
      if (shape == 3) /* a dominant diagonal */
        for (int i = 0; i < TN; i++)
          z[TN + i] = 2.5 + 0.1 * i;
      lt_fd_grad(fd_obj, z, S, &cx, fd);
      long long tape;
      grad(shape, z, off, ad, &tape);
      char what[48];
      snprintf(what, sizeof what, "shape %d offset %d", shape, off);
      lt_gradv(what, S, ad, fd, NULL, 1e-6, 1e-6);
    }
#if defined(__OPTIMIZE__)
  /* ADI apart at a size where the tape dwarfs the log's fixed costs: the
   * second of two gradients (the arena sizes a block from the last), no
   * chunk kept from the first (else its bytes are not counted) */
  setenv("LEANTAPE_ARENA_KEEP", "0", 1);
  enum { BN = 130, BT = 2 };
  static double u[4 * BN * BN], du[4 * BN * BN];
  for (int i = 0; i < 4 * BN * BN; i++)
    u[i] = 0.5 + 0.3 * sin(0.37 * i), du[i] = 0;
  long long tape = 0;
  for (int r = 0; r < 2; r++) {
    counting = 1;
    live = peak = 0;
    __enzyme_autodiff((void *)adi, enzyme_dup, u, du, enzyme_dup, u + BN * BN, du + BN * BN,
                      enzyme_dup, u + 2 * BN * BN, du + 2 * BN * BN, enzyme_dup,
                      u + 3 * BN * BN, du + 3 * BN * BN, enzyme_const, BN, enzyme_const, BT);
    counting = 0;
    tape = peak;
  }
  double per = (double)tape / ((BN - 2) * (BN - 2) * BT);
  printf("adi tape: %lld bytes, %.1f a point and step\n", tape, per);
  lt_check("adi: the rows of p and u kept as blocks (< 56 bytes a point and step)",
           per < 56, 1, 0, 0);
#endif
  return lt_done();
}
