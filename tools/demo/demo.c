/* demo.c: Black–Scholes greeks by reverse-mode AD, checked against central
 * finite differences.
 *
 * bs_call prices a European call option (no dividends). Its partial
 * derivatives are the "greeks": delta (dC/dS), vega (dC/dsigma),
 * rho (dC/dr), minus theta (dC/dT) and the strike sensitivity dC/dK.
 * Leantape computes them with two __enzyme_autodiff calls that use all
 * three kinds of activity: enzyme_out (scalars whose gradient is returned),
 * enzyme_dup (a pointer whose shadow receives gradients) and enzyme_const.
 *
 *   clang-22 -O2 -fpass-plugin=build/lib/LLVMLeantape.so -Iinclude \
 *     tools/demo/demo.c -lm && ./a.out
 */
#include <leantape.h>
#include <math.h>
#include <stdio.h>

/* Market data that a desk would keep together: risk-free rate and time to
 * expiry (years). Passed by pointer so its gradient goes to a shadow. */
typedef struct {
  double r, T;
} Market;

/* Standard normal CDF. */
static double norm_cdf(double x) { return 0.5 * (1.0 + erf(x / sqrt(2.0))); }

/* Call price C(S, sigma, r, T; K). Straight-line code: no loops. */
double bs_call(double S, double sigma, const Market *m, double K) {
  double vol = sigma * sqrt(m->T);
  double d1 = (log(S / K) + (m->r + 0.5 * sigma * sigma) * m->T) / vol;
  double d2 = d1 - vol;
  return S * norm_cdf(d1) - K * exp(-m->r * m->T) * norm_cdf(d2);
}

/* Two enzyme_out arguments: the gradients come back as a struct of doubles
 * in argument order, so this call site declares its own entry point. */
typedef struct {
  double dS, dsigma;
} Grad2;
Grad2 __enzyme_autodiff2(void *, ...);

static int failures;

static void report(const char *name, double ad, double fd) {
  double err = fabs(ad - fd) / fmax(1.0, fabs(fd));
  int ok = err < 1e-6;
  failures += !ok;
  printf("  %-14s %18.10f %18.10f %10.2e  %s\n", name, ad, fd, err,
         ok ? "ok" : "MISMATCH");
}

/* Central difference of bs_call in one input, step relative to its size. */
static double fd(double S, double sigma, Market m, double K, int which) {
  double *x[] = {&S, &sigma, &m.r, &m.T, &K};
  double h = 1e-6 * fmax(1.0, fabs(*x[which])), x0 = *x[which];
  *x[which] = x0 + h;
  double up = bs_call(S, sigma, &m, K);
  *x[which] = x0 - h;
  double down = bs_call(S, sigma, &m, K);
  return (up - down) / (2.0 * h);
}

int main(void) {
  static const struct {
    double S, sigma, r, T, K;
  } cases[] = {
      {100.0, 0.20, 0.05, 1.00, 100.0}, /* at the money */
      {120.0, 0.35, 0.01, 0.25, 100.0}, /* in the money, short expiry */
      {80.0, 0.15, 0.03, 2.00, 95.0},   /* out of the money, long expiry */
  };
  for (unsigned i = 0; i < sizeof cases / sizeof cases[0]; i++) {
    double S = cases[i].S, sigma = cases[i].sigma, K = cases[i].K;
    Market m = {cases[i].r, cases[i].T}, dm = {0.0, 0.0};

    /* S and sigma active (returned), market dup (into dm), K constant. */
    Grad2 g = __enzyme_autodiff2((void *)bs_call, enzyme_out, S, enzyme_out,
                                 sigma, enzyme_dup, &m, &dm, enzyme_const, K);
    /* Only the strike active. */
    double dK =
        __enzyme_autodiff((void *)bs_call, enzyme_const, S, enzyme_const, sigma,
                          enzyme_const, &m, enzyme_out, K);

    printf("S=%g sigma=%g r=%g T=%g K=%g  price=%.10f\n", S, sigma, m.r, m.T, K,
           bs_call(S, sigma, &m, K));
    printf("  %-14s %18s %18s %10s\n", "d price /", "AD", "central FD",
           "rel.err");
    report("dS (delta)", g.dS, fd(S, sigma, m, K, 0));
    report("dsigma (vega)", g.dsigma, fd(S, sigma, m, K, 1));
    report("dr (rho)", dm.r, fd(S, sigma, m, K, 2));
    report("dT (-theta)", dm.T, fd(S, sigma, m, K, 3));
    report("dK", dK, fd(S, sigma, m, K, 4));
  }
  if (failures) {
    printf("%d gradient(s) disagree with finite differences\n", failures);
    return 1;
  }
  printf("all gradients agree with finite differences\n");
  return 0;
}
