// An exception caught inside the differentiated code (a try/catch in the
// differentiated function, or in a helper it calls) is an error at the
// throwing call: catching is not supported there. (Cleanup-only unwind
// paths, e.g. destructors of std::vector locals, are fine: see
// Integration/cpp-vector-temporaries.cpp.)
// RUN: not %ltclangxx -O0 -g -DDIRECT -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=DIRECT,NOCRASH
// RUN: not %ltclangxx -O2 -g -DDIRECT -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=DIRECT,NOCRASH
// RUN: not %ltclangxx -O0 -g -DHELPER -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=HELPER,NOCRASH
// RUN: not %ltclangxx -O2 -g -DHELPER -c %s -o /dev/null 2>&1 | FileCheck %s --check-prefixes=HELPER,NOCRASH
// NOCRASH-NOT: PLEASE submit a bug report
// NOCRASH-NOT: Stack dump

#include <cmath>
#include <leantape.h>
#include <stdexcept>

__attribute__((noinline)) double checked_sqrt(double x) {
  if (x < 0)
    throw std::domain_error("negative");
  return std::sqrt(x);
}

#if defined(DIRECT)
double f(double x) {
  try {
    // DIRECT: cpp-catch-in-differentiated.cpp:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}is caught inside the differentiated code
    return checked_sqrt(x) * x;
  } catch (const std::domain_error &) {
    return 0.0;
  }
}
#else
static double safe_sqrt(double x) {
  try {
    // HELPER: cpp-catch-in-differentiated.cpp:[[@LINE+1]]:{{[0-9]+}}: error: leantape: {{.*}}is caught inside the differentiated code
    return checked_sqrt(x);
  } catch (...) {
    return 0.0;
  }
}
double f(double x) { return safe_sqrt(x) * x; }
#endif

double g(double x) { return __enzyme_autodiff((void *)f, enzyme_out, x); }
