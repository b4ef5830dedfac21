// Other loop forms:
//   dowhile:   do { s = 0.9 s + x_i^2; } while (++i < n)
//              -> df/dx_i = 2 x_i 0.9^(n-1-i)
//   countdown: for (i = n-1; i >= 0; i--) s = c s + sin(x_i)   (c = 0.8)
//              -> s = sum_i c^i sin(x_i), df/dx_i = c^i cos(x_i)
//   ucount:    for (unsigned k = n; k-- > 0;) s = s * 0.7 + x_k exp(x_k)
//              -> df/dx_k = 0.7^k (1 + x_k) exp(x_k)
//   step2:     for (i = 0; i + 1 < n; i += 2) s += x_i exp(x_{i+1})
//              -> even i: exp(x_{i+1}); odd i: x_{i-1} exp(x_i); the last
//                 element of an odd n is never read (0)
// n is a runtime value, odd and even.
// RUN: %ltclang -O0 %s -o %t.O0 -lm && %t.O0
// RUN: %ltclang -O2 %s -o %t.O2 -lm && %t.O2
// RUN: %clang -DNO_AD -O2 %s -o %t.noad -lm && %t.noad

#include "loopcheck.h"

double dowhile(const double *x, int n) {
  double s = 0;
  int i = 0;
  do {
    s = 0.9 * s + x[i] * x[i];
  } while (++i < n);
  return s;
}

double countdown(const double *x, int n) {
  double s = 0;
  for (int i = n - 1; i >= 0; i--)
    s = 0.8 * s + sin(x[i]);
  return s;
}

double ucount(const double *x, unsigned n) {
  double s = 0;
  for (unsigned k = n; k-- > 0;)
    s = s * 0.7 + x[k] * exp(x[k]);
  return s;
}

double step2(const double *x, int n) {
  double s = 0;
  for (int i = 0; i + 1 < n; i += 2)
    s += x[i] * exp(x[i + 1]);
  return s;
}

static int which_;
static double obj(double *x, void *c) {
  int n = *(int *)c;
  switch (which_) {
  case 0:
    return dowhile(x, n);
  case 1:
    return countdown(x, n);
  case 2:
    return ucount(x, (unsigned)n);
  default:
    return step2(x, n);
  }
}

int main(void) {
  enum { NMAX = 33 };
  int ns[4] = {lt_vi(1), lt_vi(6), lt_vi(13), lt_vi(33)};
  static const char *names[4] = {"dowhile", "countdown", "ucount", "step2"};
  for (int t = 0; t < 4; t++) {
    int n = ns[t];
    double x[NMAX], an[NMAX], fd[NMAX];
    lt_data(x, n, -1.3, 1.3, 24 + t);
    printf("-- n = %d\n", n);
    for (int w = 0; w < 4; w++) {
      double dx[NMAX] = {0};
      switch (w) {
      case 0:
        __enzyme_autodiff((void *)dowhile, enzyme_dup, x, dx, enzyme_const, n);
        for (int i = 0; i < n; i++)
          an[i] = 2 * x[i] * pow(0.9, n - 1 - i);
        break;
      case 1:
        __enzyme_autodiff((void *)countdown, enzyme_dup, x, dx, enzyme_const,
                          n);
        for (int i = 0; i < n; i++)
          an[i] = pow(0.8, i) * cos(x[i]);
        break;
      case 2:
        __enzyme_autodiff((void *)ucount, enzyme_dup, x, dx, enzyme_const,
                          (unsigned)n);
        for (int i = 0; i < n; i++)
          an[i] = pow(0.7, i) * (1 + x[i]) * exp(x[i]);
        break;
      default:
        __enzyme_autodiff((void *)step2, enzyme_dup, x, dx, enzyme_const, n);
        for (int i = 0; i < n; i++)
          an[i] = i + 1 < n && i % 2 == 0 ? exp(x[i + 1])
                  : i % 2 == 1            ? x[i - 1] * exp(x[i])
                                          : 0.0;
        break;
      }
      which_ = w;
      lt_fd_grad(obj, x, n, &n, fd);
      lt_gradv(names[w], n, dx, an, fd, 1e-10, 1e-6);
      if (w == 3 && n % 2 == 1)
        lt_check_ad("step2: last element unread", dx[n - 1], 0.0, 0, 0);
    }
  }
  return lt_done();
}
