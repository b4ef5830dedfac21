/* burgers.h: the in-place viscous Burgers' step the checkpointing tests
 * share (u updated through the scratch row tmp each step; what a step
 * writes: both rows, at fixed places). BURGERS_NU: the viscosity. */
#ifndef LT_BURGERS_H
#define LT_BURGERS_H

#ifndef BURGERS_NU
#define BURGERS_NU 0.01
#endif

double burgers(double *u, double *tmp, int n, int steps) {
  const double dx = 1.0 / n, dt = 0.1 * dx, nu = BURGERS_NU;
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

#endif
