// C++ form of unsupported-entry-points.c: unsupported Enzyme entry points
// declared with C++ linkage (mangled, e.g. _Z17__enzyme_fwdsplitPvz), as
// Enzyme-style templates (template <typename R, typename... T>
// R __enzyme_fwdsplit(T...), markers defined as `int enzyme_dup;`), and
// called inside a try block (an invoke); an unknown __enzyme_foo template;
// and the marker enzyme_width through a template __enzyme_autodiff. Each is
// a compiler error at the call (file:line:col under -g), never a link error.
// RUN: not %ltclangxx -O0 -g -DMANGLED %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=MANGLED,NOCRASH
// RUN: not %ltclangxx -O2 -g -DMANGLED %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=MANGLED,NOCRASH
// RUN: not %ltclangxx -O0 -g -DTEMPLATE %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=TEMPLATE,NOCRASH
// RUN: not %ltclangxx -O2 -g -DTEMPLATE %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=TEMPLATE,NOCRASH
// RUN: not %ltclangxx -O2 -g -DTEMPLATE -fno-exceptions %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=TEMPLATE,NOCRASH
// RUN: not %ltclangxx -O0 -g -DINVOKE %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=INVOKE,NOCRASH
// RUN: not %ltclangxx -O2 -g -DINVOKE %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=INVOKE,NOCRASH
// RUN: not %ltclangxx -O0 -g -DFOO %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=FOO,NOCRASH
// RUN: not %ltclangxx -O0 -g -DWIDTH %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=WIDTH,NOCRASH
// RUN: not %ltclangxx -O2 -g -DWIDTH %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=WIDTH,NOCRASH
// NOCRASH-NOT: undefined reference
// NOCRASH-NOT: PLEASE submit a bug report
// NOCRASH-NOT: Stack dump
// NOCRASH-NOT: linker command failed

int enzyme_dup, enzyme_const, enzyme_out, enzyme_width;
template <typename R, typename... T> R __enzyme_autodiff(void *, T...);
#if defined(MANGLED) || defined(INVOKE)
double __enzyme_fwdsplit(void *, ...);
#else
template <typename R, typename... T> R __enzyme_fwdsplit(T...);
#endif
template <typename R, typename... T> R __enzyme_foo(T...);

double sq(double x) { return x * x; }

int main() {
  volatile double x = 1.5, dx = 1.0;
  double r = __enzyme_autodiff<double>((void *)sq, enzyme_out, (double)x);
#if defined(MANGLED)
  // MANGLED: unsupported-entry-points.cpp:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_fwdsplit' (split forward mode) is not supported
  r += __enzyme_fwdsplit((void *)sq, enzyme_dup, (double)x, (double)dx);
#elif defined(TEMPLATE)
  // TEMPLATE: unsupported-entry-points.cpp:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_fwdsplit' (split forward mode) is not supported
  r += __enzyme_fwdsplit<double>((void *)sq, enzyme_dup, (double)x, (double)dx);
#elif defined(INVOKE)
  try {
    // INVOKE: unsupported-entry-points.cpp:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_fwdsplit' (split forward mode) is not supported
    r += __enzyme_fwdsplit((void *)sq, enzyme_dup, (double)x, (double)dx);
  } catch (...) {
    r = -1;
  }
#elif defined(FOO)
  // FOO: unsupported-entry-points.cpp:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '{{.*}}__enzyme_foo{{.*}}' is not an entry point Leantape knows
  r += __enzyme_foo<double>((void *)sq, (double)x);
#elif defined(WIDTH)
  // WIDTH: unsupported-entry-points.cpp:[[@LINE+1]]:{{[0-9]+}}: error: leantape: 'enzyme_width' is for forward mode (__enzyme_fwddiff)
  r += __enzyme_autodiff<double>((void *)sq, enzyme_width, 2, enzyme_out, (double)x);
#endif
  return r > 0;
}
