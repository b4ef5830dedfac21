// A double-buffered nonlinear 2-D diffusion over `double *` with a row
// length n known only at run time (u <- u + 0.1 (1 + u^2) lap u, then the
// buffers swap), as issue 17's time-loop example writes it. Its reverse
// loop adds into the shadow's elements j-1, j, j+1 of row i and j of rows
// i-1 and i+1, while what the step cached is read from the time loop's
// record (the swapped buffers' shadows): gen/gather.c rewrites the row's
// additions once LICM has hoisted those reads out of the loop; the forward
// loop, which caches two values per point, runs vectorised (scopes.c
// lt_scope_forward). Checked against central differences for every element
// of both buffers: plain pointers and restrict, n from 3 to 12, and the
// plain kernel called with one buffer for both (an in-place update, where
// the run-time tests that the rewrites rest on fail), at -O0..-O3.
// RUN: %ltclang -O0 %s -o %t0 -lm && %t0
// RUN: %ltclang -O1 %s -o %t1 -lm && %t1
// RUN: %ltclang -O2 %s -o %t2 -lm && %t2
// RUN: %ltclang -O3 -march=x86-64-v3 %s -o %t3 -lm && %t3

#include "check.h"
#include "testutil.h"
#include <leantape.h>
#include <string.h>

#define NI __attribute__((noinline))

#define DIFFUSE(NAME, QUAL)                                                    \
  NI double NAME(double *QUAL u, double *QUAL v, int n, int steps) {           \
    double *a = u, *b = v;                                                     \
    for (int t = 0; t < steps; t++) {                                          \
      for (int i = 1; i < n - 1; i++)                                          \
        for (int j = 1; j < n - 1; j++) {                                      \
          double c = a[i * n + j];                                             \
          double lap = a[(i - 1) * n + j] + a[(i + 1) * n + j] +               \
                       a[i * n + j - 1] + a[i * n + j + 1] - 4 * c;            \
          b[i * n + j] = c + 0.1 * (1 + c * c) * lap;                          \
        }                                                                      \
      double *tmp = a;                                                         \
      a = b;                                                                   \
      b = tmp;                                                                 \
    }                                                                          \
    double s = 0;                                                              \
    for (int i = 0; i < n * n; i++)                                            \
      s += a[i] * a[i];                                                        \
    return s;                                                                  \
  }
DIFFUSE(plain, )
DIFFUSE(restricted, restrict)

#define MAXN 12
#define STEPS 3
static double U[MAXN * MAXN], V[MAXN * MAXN], DU[MAXN * MAXN], DV[MAXN * MAXN];
static int kern, n; /* kern: 0 plain, 1 restrict, 2 plain in place */

/* u's first n*n elements then v's (in place: u's only) */
static double objective(const double *x) {
  int ne = n * n;
  memcpy(U, x, ne * sizeof *x);
  memcpy(V, x + ne, ne * sizeof *x);
  if (kern == 0)
    return plain(U, V, n, STEPS);
  if (kern == 1)
    return restricted(U, V, n, STEPS);
  return plain(U, U, n, STEPS);
}

static const char *names[] = {"plain", "restrict", "in place"};

static void run(int k, int nn) {
  kern = k, n = nn;
  int ne = n * n, nx = k == 2 ? ne : 2 * ne;
  static double x[2 * MAXN * MAXN];
  for (int i = 0; i < 2 * ne; i++)
    x[i] = lt_vd(0.5 + 0.3 * sin(0.7 * i + n));
  memcpy(U, x, ne * sizeof *x);
  memcpy(V, x + ne, ne * sizeof *x);
  memset(DU, 0, sizeof DU);
  memset(DV, 0, sizeof DV);
  if (k == 0)
    __enzyme_autodiff((void *)plain, enzyme_dup, U, DU, enzyme_dup, V, DV, enzyme_const, n,
                      enzyme_const, STEPS);
  else if (k == 1)
    __enzyme_autodiff((void *)restricted, enzyme_dup, U, DU, enzyme_dup, V, DV, enzyme_const,
                      n, enzyme_const, STEPS);
  else
    __enzyme_autodiff((void *)plain, enzyme_dup, U, DU, enzyme_dup, U, DU, enzyme_const, n,
                      enzyme_const, STEPS);
  for (int i = 0; i < nx; i++) {
    double fd = lt_fd_at(objective, x, i);
    char what[96];
    snprintf(what, sizeof what, "%s n=%d d/d%s[%d]", names[k], n, i < ne ? "u" : "v", i % ne);
    lt_check(what, i < ne ? DU[i] : DV[i - ne], fd, 1e-6, 1e-7);
  }
}

int main(void) {
  for (int k = 0; k < 3; k++)
    for (int nn = 3; nn <= MAXN; nn += nn < 6 ? 1 : 3)
      run(k, nn);
  return lt_done();
}
