/* checks.c: what the driver checks and measures outside the timed rounds:
 * the kernel table's lookup, each gradient against central finite
 * differences (and, for the ADBench objectives, against the hand-written
 * gradient and sixth-order differences), and peak RSS in a fresh process
 * (bench --rss). Compiled without the plugin. */
#define _GNU_SOURCE
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include "driver.h"
#include "measure.h"

/* kernels.c's table, then adbench.c's (weak: absent in the call-graph
 * benches) */
int nall(void) { return nkernels + (&nadbench ? nadbench : 0); }
const kernel_t *kat(int i) {
  return i < nkernels ? &kernels[i] : &adbench_kernels[i - nkernels];
}
const kernel_t *find(const char *name) {
  for (int i = 0; i < nall(); i++)
    if (!strcmp(kat(i)->name, name))
      return kat(i);
  return NULL;
}

/* central finite differences on up to 4 coordinates */
int check_grad(const kernel_t *k, const double *g, double *worst) {
  int n = k->nparam;
  double *P = k->param();
  int idx[4] = {0, n / 3, (2 * n) / 3, n - 1}, nc = n < 4 ? n : 4;
  if (n < 4)
    for (int i = 0; i < n; i++)
      idx[i] = i;
  double fd[4], gmax = 0;
  for (int c = 0; c < nc; c++) {
    int i = idx[c];
    double x = P[i], h = 1e-6 * fmax(1.0, fabs(x));
    volatile double xp = x + h, xm = x - h;
    P[i] = xp;
    double fp = k->loss();
    P[i] = xm;
    double fm = k->loss();
    P[i] = x;
    fd[c] = (fp - fm) / (xp - xm);
    gmax = fmax(gmax, fmax(fabs(fd[c]), fabs(g[i])));
  }
  int ok = 1;
  *worst = 0;
  for (int c = 0; c < nc; c++) {
    double err = fabs(g[idx[c]] - fd[c]) / (1e-3 * gmax + fabs(fd[c]) + 1e-12);
    if (err > *worst)
      *worst = err;
    if (!(err <= 1e-4)) {
      ok = 0;
      fprintf(stderr, "  %s: d/dP[%d]: AD %.12g vs FD %.12g\n", k->name,
              idx[c], g[idx[c]], fd[c]);
    }
  }
  return ok;
}

/* The ADBench objectives (kernels with a hand-written gradient): sixth-
 * order central differences (7-point stencil), step 4e-3 max(1, |p|) (the
 * loss's rounding error dominates at smaller steps), on the kernel's listed
 * coordinates, against both gradients (error relative to |fd| + 1e-3 max|g|
 * over the listed coordinates, tolerance 1e-6), and the two gradients
 * against each other on every coordinate (relative to |g_hand| + 1e-6
 * max|g_hand|, tolerance 1e-6). */
#ifndef FD_H
#define FD_H 4e-3
#endif
int check_hand(const kernel_t *k, const double *g, const double *gh,
                      double *efd, double *efdh, double *evs) {
  int n = k->nparam;
  double *P = k->param();
  double fd[64], gmax = 0;
  int nc = k->nfd < 64 ? k->nfd : 64;
  for (int c = 0; c < nc; c++) {
    int i = k->fdidx[c];
    double x = P[i], h = FD_H * fmax(1.0, fabs(x)), f[6];
    const double off[6] = {-3, -2, -1, 1, 2, 3};
    for (int m = 0; m < 6; m++) {
      P[i] = x + off[m] * h;
      f[m] = k->loss();
    }
    P[i] = x;
    fd[c] = (-f[0] + 9 * f[1] - 45 * f[2] + 45 * f[3] - 9 * f[4] + f[5]) / (60 * h);
    gmax = fmax(gmax, fmax(fabs(fd[c]), fmax(fabs(g[i]), fabs(gh[i]))));
  }
  int ok = 1;
  *efd = *efdh = *evs = 0;
  for (int c = 0; c < nc; c++) {
    int i = k->fdidx[c];
    double den = 1e-3 * gmax + fabs(fd[c]) + 1e-300;
    double e = fabs(g[i] - fd[c]) / den, eh = fabs(gh[i] - fd[c]) / den;
    *efd = fmax(*efd, e);
    *efdh = fmax(*efdh, eh);
    if (!(e <= HAND_TOL) || !(eh <= HAND_TOL)) {
      ok = 0;
      fprintf(stderr, "  %s: d/dP[%d]: Leantape %.15g hand %.15g FD %.15g\n",
              k->name, i, g[i], gh[i], fd[c]);
    }
  }
  double hmax = 0;
  for (int i = 0; i < n; i++)
    hmax = fmax(hmax, fabs(gh[i]));
  int bad = 0;
  for (int i = 0; i < n; i++) {
    double e = fabs(g[i] - gh[i]) / (fabs(gh[i]) + 1e-6 * hmax + 1e-300);
    *evs = fmax(*evs, e);
    if (!(e <= HAND_TOL)) {
      ok = 0;
      if (bad++ < 5)
        fprintf(stderr, "  %s: d/dP[%d]: Leantape %.15g vs hand %.15g\n",
                k->name, i, g[i], gh[i]);
    }
  }
  return ok;
}

/* fresh process: ru_maxrss (KB) after setup + K runs of primal or grad */
long rss_child(const char *self, const char *name, const char *mode,
                      long K, double *per_call) {
  char cmd[4096];
  snprintf(cmd, sizeof cmd, "'%s' --rss '%s' %s %ld", self, name, mode, K);
  FILE *p = popen(cmd, "r");
  long kb = -1;
  *per_call = NAN;
  if (!p || fscanf(p, "%ld %lf", &kb, per_call) != 2)
    kb = -1;
  if (p)
    pclose(p);
  return kb;
}

int rss_mode(const char *name, const char *mode, long K) {
  const kernel_t *k = find(name);
  if (!k)
    return 2;
  k->setup();
  void (*f)(void) = !strcmp(mode, "grad") ? k->grad : k->primal;
  double t0 = now();
  for (long i = 0; i < K; i++)
    f();
  double dt = (now() - t0) / K;
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  printf("%ld %.9g\n", ru.ru_maxrss, dt);
  return 0;
}
