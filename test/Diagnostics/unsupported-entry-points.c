// Enzyme entry points and markers that Leantape does not implement are
// compiler errors at the call (file:line:col under -g), never calls left for
// the linker to fail on (the RUN lines link, and there is no undefined
// reference): __enzyme_fwdsplit (split forward mode), a suffixed
// __enzyme_fwdsplit_2, __enzyme_batch, an unknown __enzyme_foo, and the
// forward-mode marker enzyme_width in an otherwise valid __enzyme_autodiff
// call. A valid __enzyme_autodiff call in the same
// translation unit does not hide the error. With -DALL several errors in
// one TU are all reported.
// RUN: not %ltclang -O0 -g -DFWD %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=FWD,NOCRASH
// RUN: not %ltclang -O2 -g -DFWD %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=FWD,NOCRASH
// RUN: not %ltclang -O0 -g -DFWD2 %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=FWD2,NOCRASH
// RUN: not %ltclang -O0 -g -DFWDSPLIT %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=FWDSPLIT,NOCRASH
// RUN: not %ltclang -O2 -g -DBATCH %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=BATCH,NOCRASH
// RUN: not %ltclang -O0 -g -DFOO %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=FOO,NOCRASH
// RUN: not %ltclang -O2 -g -DFOO %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=FOO,NOCRASH
// RUN: not %ltclang -O0 -g -DWIDTH %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=WIDTH,NOCRASH
// RUN: not %ltclang -O2 -g -DWIDTH %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=WIDTH,NOCRASH
// RUN: not %ltclang -O0 -g -DALL %s -o %t -lm 2>&1 | FileCheck %s --check-prefixes=ALL,NOCRASH
// NOCRASH-NOT: undefined reference
// NOCRASH-NOT: PLEASE submit a bug report
// NOCRASH-NOT: Stack dump
// NOCRASH-NOT: linker command failed

#include <leantape.h>

double __enzyme_fwdsplit(void *, ...);
double __enzyme_fwdsplit_2(void *, ...);
double __enzyme_batch(void *, ...);
double __enzyme_foo(void *, ...);
extern int enzyme_width;

double sq(double x) { return x * x; }

int main(void) {
  volatile double x = 1.5, dx = 1.0;
  double r = __enzyme_autodiff((void *)sq, enzyme_out, x);
#if defined(FWD) || defined(ALL)
  // FWD: unsupported-entry-points.c:[[@LINE+2]]:{{[0-9]+}}: error: leantape: '__enzyme_fwdsplit' (split forward mode) is not supported
  // ALL: unsupported-entry-points.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_fwdsplit' (split forward mode) is not supported
  r += __enzyme_fwdsplit((void *)sq, enzyme_dup, x, dx);
#endif
#if defined(FWD2)
  // FWD2: unsupported-entry-points.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_fwdsplit' (split forward mode) is not supported
  r += __enzyme_fwdsplit_2((void *)sq, x, dx);
#endif
#if defined(FWDSPLIT)
  // FWDSPLIT: unsupported-entry-points.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_fwdsplit' (split forward mode) is not supported
  r += __enzyme_fwdsplit((void *)sq, x, dx);
#endif
#if defined(BATCH)
  // BATCH: unsupported-entry-points.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_batch' (batched evaluation) is not supported
  r += __enzyme_batch((void *)sq, x, dx);
#endif
#if defined(FOO) || defined(ALL)
  // FOO: unsupported-entry-points.c:[[@LINE+2]]:{{[0-9]+}}: error: leantape: '__enzyme_foo' is not an entry point Leantape knows; the entry points are __enzyme_autodiff, __enzyme_augmentfwd, __enzyme_reverse, __enzyme_augmentsize and __enzyme_fwddiff
  // ALL: unsupported-entry-points.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: '__enzyme_foo' is not an entry point Leantape knows
  r += __enzyme_foo((void *)sq, x);
#endif
#if defined(WIDTH) || defined(ALL)
  // WIDTH: unsupported-entry-points.c:[[@LINE+2]]:{{[0-9]+}}: error: leantape: 'enzyme_width' is for forward mode (__enzyme_fwddiff)
  // ALL: unsupported-entry-points.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: 'enzyme_width' is for forward mode (__enzyme_fwddiff)
  r += __enzyme_autodiff((void *)sq, enzyme_width, 2, enzyme_out, x);
#endif
  return r > 0;
}
