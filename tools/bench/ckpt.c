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
 * Columns: the budget, peak RSS (ru_maxrss) of the process, which runs the
 * primal once and the gradient once (wall clock, CLOCK_MONOTONIC: a long
 * single run, not batches), gradient/primal, the steps run again (from the
 * run-time report, LEANTAPE_REPORT=1, read back through a pipe: run.sh),
 * and a checksum of the gradient (sum of du_i (1 + i / N)) that must be
 * the same in every row: the gradients are bitwise equal. */
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

static double wall(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return t.tv_sec + 1e-9 * t.tv_nsec;
}

static void init(double *u) {
  for (int i = 0; i < NX; i++)
    u[i] = sin(2 * M_PI * i / NX) + 0.5;
}

int main(int argc, char **argv) {
  if (argc > 1 && !strcmp(argv[1], "--header")) {
    printf("Checkpointing (issue 20): in-place viscous Burgers, N = %d, T = %d, gradient "
           "with respect to the initial state, -mllvm -leantape-checkpoint; one process per "
           "budget (peak RSS is the process's: primal, gradient and the program's arrays); "
           "wall clock, one run each:\n\n", NX, NT);
    printf("| tape budget | peak RSS MB | primal s | gradient s | grad/primal | steps run "
           "again | gradient checksum (equal in every row) |\n");
    printf("|---|---|---|---|---|---|---|\n");
    return 0;
  }
  double *u = malloc(NX * sizeof *u), *tmp = calloc(NX, sizeof *tmp);
  double *du = calloc(NX, sizeof *du), *dtmp = calloc(NX, sizeof *dtmp);
  init(u);
  double t0 = wall();
  volatile double e = burgers(u, tmp, NX, NT);
  double t1 = wall();
  (void)e;
  init(u);
  __enzyme_autodiff((void *)burgers, enzyme_dup, u, du, enzyme_dup, tmp, dtmp, enzyme_const,
                    NX, enzyme_const, NT);
  double t2 = wall();
  double sum = 0;
  for (int i = 0; i < NX; i++)
    sum += du[i] * (1 + (double)i / NX);
  struct rusage ru;
  getrusage(RUSAGE_SELF, &ru);
  const char *b = getenv("LEANTAPE_TAPE_BUDGET");
  /* the steps run again: run.sh fills the column from the report */
  printf("| %s | %.1f | %.3f | %.3f | %.2f | @AGAIN@ | %.17g |\n", b && *b ? b : "none",
         ru.ru_maxrss / 1024.0, t1 - t0, t2 - t1, (t2 - t1) / (t1 - t0), sum);
  free(u);
  free(tmp);
  free(du);
  free(dtmp);
  return isfinite(sum) ? 0 : 1;
}
