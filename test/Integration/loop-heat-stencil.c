// 1-D heat equation, explicit Euler with fixed (Dirichlet) ends:
//   u'[i] = u[i] + r (u[i-1] - 2 u[i] + u[i+1])  (0 < i < n-1),
// T time steps with two buffers whose pointers are swapped every step:
// local arrays (heat_local), malloc'd buffers (heat_malloc), and a version
// with compile-time n and T (heat_const). f = sum_i u_T[i]^2, gradient with
// respect to the initial condition u0. The step is linear, u_T = M^T u0, so
// the analytic gradient is the hand-written adjoint recurrence
//   g <- 2 u_T;  T times: g <- M^T g.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O1 %s -o %t.O1 -lm && %t.O1
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %ltclang -O3 %s -o %t.O3 -lm && %t.O3
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

#define NMAXH 40

double heat_local(const double *u0, int n, int T, double r) {
  double a[NMAXH], b[NMAXH];
  double *u = a, *v = b;
  for (int i = 0; i < n; i++)
    u[i] = u0[i];
  for (int t = 0; t < T; t++) {
    v[0] = u[0];
    v[n - 1] = u[n - 1];
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i] + r * (u[i - 1] - 2 * u[i] + u[i + 1]);
    double *tmp = u;
    u = v;
    v = tmp;
  }
  double f = 0;
  for (int i = 0; i < n; i++)
    f += u[i] * u[i];
  return f;
}

double heat_malloc(const double *u0, int n, int T, double r) {
  double *u = malloc(n * sizeof *u), *v = malloc(n * sizeof *v);
  for (int i = 0; i < n; i++)
    u[i] = u0[i];
  for (int t = 0; t < T; t++) {
    v[0] = u[0];
    v[n - 1] = u[n - 1];
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i] + r * (u[i - 1] - 2 * u[i] + u[i + 1]);
    double *tmp = u;
    u = v;
    v = tmp;
  }
  double f = 0;
  for (int i = 0; i < n; i++)
    f += u[i] * u[i];
  free(u);
  free(v);
  return f;
}

#define NC 16
#define TC 10
double heat_const(const double *u0) {
  double a[NC], b[NC];
  double *u = a, *v = b;
  for (int i = 0; i < NC; i++)
    u[i] = u0[i];
  for (int t = 0; t < TC; t++) {
    v[0] = u[0];
    v[NC - 1] = u[NC - 1];
    for (int i = 1; i < NC - 1; i++)
      v[i] = u[i] + 0.3 * (u[i - 1] - 2 * u[i] + u[i + 1]);
    double *tmp = u;
    u = v;
    v = tmp;
  }
  double f = 0;
  for (int i = 0; i < NC; i++)
    f += u[i] * u[i];
  return f;
}

typedef struct {
  int n, T, which;
  double r;
} ctx_t;
static double obj(double *u0, void *c) {
  ctx_t *k = c;
  return k->which == 0   ? heat_local(u0, k->n, k->T, k->r)
         : k->which == 1 ? heat_malloc(u0, k->n, k->T, k->r)
                         : heat_const(u0);
}

/* analytic: forward to u_T, then g = (M^T)^T 2 u_T by T adjoint steps */
static void heat_grad(const double *u0, int n, int T, double r, double *g) {
  double u[NMAXH], v[NMAXH];
  memcpy(u, u0, n * sizeof *u);
  for (int t = 0; t < T; t++) {
    v[0] = u[0];
    v[n - 1] = u[n - 1];
    for (int i = 1; i < n - 1; i++)
      v[i] = u[i] + r * (u[i - 1] - 2 * u[i] + u[i + 1]);
    memcpy(u, v, n * sizeof *u);
  }
  for (int i = 0; i < n; i++)
    g[i] = 2 * u[i];
  for (int t = 0; t < T; t++) {
    double h[NMAXH] = {0};
    h[0] += g[0];
    h[n - 1] += g[n - 1];
    for (int i = 1; i < n - 1; i++) {
      h[i] += (1 - 2 * r) * g[i];
      h[i - 1] += r * g[i];
      h[i + 1] += r * g[i];
    }
    memcpy(g, h, n * sizeof *g);
  }
}

int main(void) {
  int ns[3] = {lt_vi(5), lt_vi(16), lt_vi(40)};
  int Ts[3] = {lt_vi(3), lt_vi(25), lt_vi(60)};
  double r = lt_vd(0.3);
  for (int t = 0; t < 3; t++) {
    int n = ns[t], T = Ts[t];
    double u0[NMAXH], an[NMAXH], fd[NMAXH];
    lt_data(u0, n, -1.0, 2.0, 17);
    heat_grad(u0, n, T, r, an);
    printf("-- n = %d, T = %d\n", n, T);
    /* both calls unconditional: under a branch, -O2 merges the two call
     * sites into one call on a select of the two functions */
    double du[2][NMAXH] = {{0}};
    __enzyme_autodiff((void *)heat_local, enzyme_dup, u0, du[0], enzyme_const,
                      n, enzyme_const, T, enzyme_const, r);
    __enzyme_autodiff((void *)heat_malloc, enzyme_dup, u0, du[1], enzyme_const,
                      n, enzyme_const, T, enzyme_const, r);
    for (int which = 0; which < 2; which++) {
      ctx_t c = {n, T, which, r};
      lt_fd_grad(obj, u0, n, &c, fd);
      lt_gradv(which ? "heat_malloc" : "heat_local", n, du[which], an, fd,
               1e-10, 1e-6);
    }
  }
  double u0[NC], du[NC] = {0}, an[NC], fd[NC];
  lt_data(u0, NC, -1.0, 2.0, 18);
  heat_grad(u0, NC, TC, 0.3, an);
  __enzyme_autodiff((void *)heat_const, enzyme_dup, u0, du);
  ctx_t c = {NC, TC, 2, 0.3};
  lt_fd_grad(obj, u0, NC, &c, fd);
  printf("-- constant n = %d, T = %d\n", NC, TC);
  lt_gradv("heat_const", NC, du, an, fd, 1e-10, 1e-6);
  return lt_done();
}
