/* lto-three-files.c: the callee of the differentiated function, in its own
 * translation unit. */
#include <math.h>
double lto_g(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i] * sin(x[(i + 1) % n]);
  return s + exp(x[0]);
}
