/* ckpt.c: the checkpointing rows of the benchmark (issue 20).
 *
 * An in-place viscous Burgers' equation (N = 4000 points, T = 20000
 * steps, through a scratch row), its gradient with respect to the initial
 * state, compiled with -mllvm -leantape-checkpoint; run.sh runs this
 * program once per tape budget (LEANTAPE_TAPE_BUDGET unset, 64M, 4M), each
 * a fresh process, so that its peak RSS is that gradient's:
 *
 *   ckptbench [--header]   one table row for the current budget
 *
 *   ckptbench --ode [--header]   the same for an adaptive-step ODE
 *
 *   ckptbench --diffusion [--header]   the same for issue 17's time loop,
 *   a double-buffered nonlinear 2-D diffusion (below)
 *
 *   ckptbench --memcpy [--header]   the Burgers step copied back by memcpy
 *
 * The ODE: y' = p sin(y reversed) - 0.3 y^3 for N = 2000 components by
 * Ralston's third-order Runge-Kutta method with an embedded error estimate
 * and step-size control, `while (t < t_end)` (483 steps: online
 * checkpointing, the number of steps known only when the loop ends);
 * gradient with respect to y(0) and p.
 *
 * Columns: the budget, peak RSS (ru_maxrss) of the process, which runs the
 * primal and the gradient in turn CKPT_REPS times (default 11: the
 * diffusion's 20 ms gradient moved its median of 5 by a tenth between
 * runs; wall clock, CLOCK_MONOTONIC: long single runs, not batches; each
 * call alone, its inputs set up before the clock starts), the fastest
 * primal and gradient, gradient/primal as the median of the rounds' own
 * ratios (each round's gradient over the primal just before it) beside
 * their min-max
 * (the ratio of the fastest runs, from 3 rounds, moved by a fifth between
 * two quiet reports at 4M), the steps run again (one gradient's) and the
 * tape memory the schedule held (from the run-time report,
 * LEANTAPE_REPORT=1, read back through a pipe: run.sh), and a checksum of
 * the gradient (sum of du_i (1 + i / N)) that must be the same in every
 * row: the gradients are equal. */
#include <leantape.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#define NX 4000
#define NT 20000

__attribute__((noinline)) double burgers(double *u, double *tmp, int n, int steps) {
  const double dx = 1.0 / n, dt = 0.1 * dx, nu = 0.001;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] - dt * u[i] * (u[i + 1] - u[i - 1]) / (2 * dx) +
               nu * dt * (u[i + 1] - 2 * u[i] + u[i - 1]) / (dx * dx);
    for (int i = 1; i < n - 1; i++)
      u[i] = tmp[i];
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i];
  return e;
}

/* The same step copied back by memcpy (as much C does): the undo log
 * saves the copy's destination as a block (issue 17). */
__attribute__((noinline)) double burgers_mc(double *u, double *tmp, int n, int steps) {
  const double dx = 1.0 / n, dt = 0.1 * dx, nu = 0.001;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      tmp[i] = u[i] - dt * u[i] * (u[i + 1] - u[i - 1]) / (2 * dx) +
               nu * dt * (u[i + 1] - 2 * u[i] + u[i - 1]) / (dx * dx);
    memcpy(u + 1, tmp + 1, (size_t)(n - 2) * sizeof *u);
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i];
  return e;
}

/* Issue 17's time loop: u <- u + 0.1 (1 + u^2) lap u on a 300 x 300 grid,
 * 50 steps, double-buffered through plain pointers (the buffers swap);
 * the state history is 50 x 300 x 300 x 8 bytes, 36 MB. */
#define DN 300
#define DT 50

__attribute__((noinline)) double diffuse(double *u, double *v, int n, int steps) {
  double *a = u, *b = v;
  for (int t = 0; t < steps; t++) {
    for (int i = 1; i < n - 1; i++)
      for (int j = 1; j < n - 1; j++) {
        double c = a[i * n + j];
        double lap = a[(i - 1) * n + j] + a[(i + 1) * n + j] + a[i * n + j - 1] +
                     a[i * n + j + 1] - 4 * c;
        b[i * n + j] = c + 0.1 * (1 + c * c) * lap;
      }
    double *t2 = a;
    a = b;
    b = t2;
  }
  double e = 0;
  for (int i = 0; i < n * n; i++)
    e += a[i] * a[i];
  return e;
}

#define ON 2000

/* y' = p * sin(reversed y) - 0.3 y^3, Ralston's third-order method, its
 * error estimated against the midpoint rule's; w: scratch (4 n) */
__attribute__((noinline)) double ode(double *y, const double *p, double *w, int n,
                                     double t_end) {
  double t = 0, h = 0.01, *k1 = w, *k2 = w + n, *k3 = w + 2 * n, *yt = w + 3 * n;
  const double tol = 1e-7;
  while (t < t_end) {
    if (h > t_end - t)
      h = t_end - t;
    for (int i = 0; i < n; i++)
      k1[i] = p[i] * sin(y[n - 1 - i]) - 0.3 * y[i] * y[i] * y[i];
    for (int i = 0; i < n; i++)
      yt[i] = y[i] + 0.5 * h * k1[i];
    for (int i = 0; i < n; i++)
      k2[i] = p[i] * sin(yt[n - 1 - i]) - 0.3 * yt[i] * yt[i] * yt[i];
    for (int i = 0; i < n; i++)
      yt[i] = y[i] + 0.75 * h * k2[i];
    for (int i = 0; i < n; i++)
      k3[i] = p[i] * sin(yt[n - 1 - i]) - 0.3 * yt[i] * yt[i] * yt[i];
    double err = 0;
    for (int i = 0; i < n; i++) {
      double e = h * (2.0 / 9 * k1[i] - 2.0 / 3 * k2[i] + 4.0 / 9 * k3[i]);
      err += e * e;
    }
    err = sqrt(err / n) + 1e-12;
    double ok = err <= tol ? 1.0 : 0.0; /* a rejected step moves nothing */
    for (int i = 0; i < n; i++)
      y[i] += ok * h * (2.0 / 9 * k1[i] + 1.0 / 3 * k2[i] + 4.0 / 9 * k3[i]);
    t += ok * h;
    h = h * fmin(2.0, fmax(0.2, 0.9 * cbrt(tol / err)));
  }
  double e = 0;
  for (int i = 0; i < n; i++)
    e += y[i] * y[i];
  return e;
}

static double wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void init(double *u) {
  for (int i = 0; i < NX; i++)
    u[i] = sin(2 * M_PI * i / NX) + 0.5;
}

static void diffuse_init(double *u, double *v) {
  for (int i = 0; i < DN * DN; i++)
    u[i] = v[i] = 0.5 + 0.3 * sin(0.013 * i) * cos(0.7 * (i % DN));
}

static void ode_init(double *y, double *p) {
  for (int i = 0; i < ON; i++)
    y[i] = 0.5 + 0.4 * sin(0.37 * i), p[i] = 1.0 + 0.5 * cos(0.11 * i);
}

static int reps(void) {
  const char *r = getenv("CKPT_REPS");
  int k = r && *r ? atoi(r) : 11;
  return k < 1 ? 1 : k > 20 ? 20 : k;
}

enum { BURGERS, ODE, DIFFUSION, MEMCPY };

static void print_header(int mode) {
  if (mode == ODE)
    printf("Online checkpointing (issue 20): an adaptive-step Runge-Kutta 2(3) integrator, "
           "N = %d components, while (t < t_end), 483 steps; gradient with respect to "
           "y(0) and p, -mllvm -leantape-checkpoint; one process per budget, wall clock, the "
           "fastest of %d runs of each (grad/primal: the median (min-max) of the runs' "
           "ratios):\n\n", ON,
           reps());
  else if (mode == DIFFUSION)
    printf("Time loop (issue 17): a double-buffered nonlinear 2-D diffusion, u <- u + 0.1 (1 "
           "+ u^2) lap u, %d x %d, %d steps, plain pointers (state history %.1f MB), gradient "
           "with respect to both buffers, -mllvm -leantape-checkpoint; one process per "
           "budget, wall clock, the fastest of %d runs of each (grad/primal: the median "
           "(min-max) of the runs' ratios):\n\n", DN, DN, DT,
           (double)DT * DN * DN * sizeof(double) / 1048576, reps());
  else if (mode == MEMCPY)
    printf("Time loop copied back by memcpy (issue 17): the Burgers step above with "
           "memcpy(u + 1, tmp + 1, ...) for its copy back (state history %.0f MB), not "
           "checkpointed; wall clock, the fastest of %d runs of each (grad/primal: the median "
           "(min-max) of the runs' ratios):\n\n",
           (double)NT * NX * sizeof(double) / 1048576, reps());
  else
    printf("Checkpointing (issue 20): in-place viscous Burgers, N = %d, T = %d, gradient "
           "with respect to the initial state, -mllvm -leantape-checkpoint; one process per "
           "budget (peak RSS is the process's: primal, gradient and the program's arrays); "
           "wall clock, the fastest of %d runs of each (grad/primal: the median (min-max) of "
           "the runs' ratios):\n\n", NX, NT, reps());
  printf("| tape budget | peak RSS MB | primal s | gradient s | grad/primal | steps run "
         "again | tape memory held MB (report) | gradient checksum (equal in every row) |\n");
  printf("|---|---|---|---|---|---|---|---|\n");
}

int main(int argc, char **argv) {
  int mode = BURGERS, header = 0;
  for (int a = 1; a < argc; a++) {
    if (!strcmp(argv[a], "--ode"))
      mode = ODE;
    else if (!strcmp(argv[a], "--diffusion"))
      mode = DIFFUSION;
    else if (!strcmp(argv[a], "--memcpy"))
      mode = MEMCPY;
    header |= !strcmp(argv[a], "--header");
  }
  if (header) {
    print_header(mode);
    return 0;
  }
  int n = mode == ODE ? ON : mode == DIFFUSION ? DN * DN : NX;
  double *u = malloc(4 * n * sizeof *u), *tmp = calloc(4 * n, sizeof *tmp);
  double *du = calloc(4 * n, sizeof *du), *dtmp = calloc(4 * n, sizeof *dtmp);
  double *p = malloc(n * sizeof *p), *dp = calloc(n, sizeof *dp);
  const double t_end = 10.0;
  double tp = 1e300, tg = 1e300, q[20];
  for (int k = 0; k < reps(); k++) {
    if (mode == ODE)
      ode_init(u, p);
    else if (mode == DIFFUSION)
      diffuse_init(u, tmp);
    else
      init(u);
    double t0 = wall();
    volatile double e = mode == ODE         ? ode(u, p, tmp, n, t_end)
                        : mode == DIFFUSION ? diffuse(u, tmp, DN, DT)
                        : mode == MEMCPY    ? burgers_mc(u, tmp, n, NT)
                                            : burgers(u, tmp, n, NT);
    double t1 = wall();
    (void)e;
    q[k] = t1 - t0;
    memset(du, 0, 4 * n * sizeof *du);
    memset(dtmp, 0, 4 * n * sizeof *dtmp);
    memset(dp, 0, n * sizeof *dp);
    if (mode == ODE)
      ode_init(u, p);
    else if (mode == DIFFUSION)
      diffuse_init(u, tmp);
    else
      init(u);
    t1 = wall(); /* the gradient's time: the call alone, as the primal's */
    if (mode == ODE) {
      __enzyme_autodiff((void *)ode, enzyme_dup, u, du, enzyme_dup, p, dp, enzyme_dup, tmp,
                        dtmp, enzyme_const, n, enzyme_const, t_end);
    } else if (mode == DIFFUSION) {
      __enzyme_autodiff((void *)diffuse, enzyme_dup, u, du, enzyme_dup, tmp, dtmp,
                        enzyme_const, DN, enzyme_const, DT);
    } else {
      __enzyme_autodiff((void *)(mode == MEMCPY ? burgers_mc : burgers), enzyme_dup, u, du,
                        enzyme_dup, tmp, dtmp, enzyme_const, n, enzyme_const, NT);
    }
    double t2 = wall();
    tp = q[k] < tp ? q[k] : tp;
    q[k] = (t2 - t1) / q[k];
    tg = t2 - t1 < tg ? t2 - t1 : tg;
  }
  int nq = reps();
  for (int a = 1; a < nq; a++) /* sorted: the median and the spread */
    for (int k = a; k > 0 && q[k - 1] > q[k]; k--) {
      double t = q[k];
      q[k] = q[k - 1], q[k - 1] = t;
    }
  double med = nq % 2 ? q[nq / 2] : (q[nq / 2 - 1] + q[nq / 2]) / 2;
  double sum = 0;
  for (int i = 0; i < n; i++)
    sum += (du[i] + dp[i] + (mode == DIFFUSION ? dtmp[i] : 0)) * (1 + (double)i / n);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  const char *b = getenv("LEANTAPE_TAPE_BUDGET");
  /* the steps run again and the memory held: run.sh fills the columns
   * from the report */
  printf("| %s | %.1f | %.3f | %.3f | %.2f (%.2f-%.2f) | @AGAIN@ | @HELD@ | %.17g |\n",
         b && *b ? b : "none", ru.ru_maxrss / 1024.0, tp, tg, med, q[0], q[nq - 1], sum);
  free(u);
  free(tmp);
  free(du);
  free(dtmp);
  free(p);
  free(dp);
  return isfinite(sum) ? 0 : 1;
}
