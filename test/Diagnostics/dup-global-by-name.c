// A global passed as enzyme_dup that the function also uses by name: the
// use by name has no shadow, and its derivative would be lost silently
// (read: dg[i] came back gu[i-1] alone, not gu[i-1] + gu[i+1]). Refused at
// the call (front/dupglobal.c), in reverse and forward mode, when the name
// is in the function or in one it calls, at -O0 and -O2; a global passed
// as enzyme_dup and never named inside, or one declared inactive, is fine.
// RUN: not %ltclang -O0 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O2 -g -c %s -o /dev/null 2>&1 | FileCheck %s
// RUN: not %ltclang -O0 -g -c -DCALLEE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CALLEE
// RUN: not %ltclang -O2 -g -c -DCALLEE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=CALLEE
// RUN: not %ltclang -O0 -g -c -DFWD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD
// RUN: not %ltclang -O2 -g -c -DFWD %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=FWD
// RUN: %ltclang -O0 -DOK %s -o %t.ok -lm
// RUN: %t.ok | FileCheck %s --check-prefix=OK
// RUN: %ltclang -O2 -DOK %s -o %t.ok2 -lm
// RUN: %t.ok2 | FileCheck %s --check-prefix=OK
// CHECK: dup-global-by-name.c:{{[0-9]+}}:{{[0-9]+}}: error: leantape: the global 'gu' is passed as enzyme_dup (parameter 1 of 'f') and 'f' also uses it by name
// CALLEE: error: leantape: the global 'gu' is passed as enzyme_dup (parameter 1 of 'g') and 'h' also uses it by name
// FWD: error: leantape: the global 'gu' is passed as enzyme_dup (parameter 1 of 'f') and 'f' also uses it by name
// OK: ok 9 9

#include <leantape.h>
#include <stdio.h>

enum { N = 8 };
double gu[N], dgu[N], table[N];
double __enzyme_fwddiff(void *, ...);
void *__enzyme_inactive_global = &table;

double f(double *u, int n) {
  double e = 0;
  for (int i = 1; i < n; i++)
    e += u[i] * gu[i - 1];
  return e;
}

__attribute__((noinline)) double h(int i) { return gu[i] * gu[i]; }

double g(double *u, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * h(i);
  return e;
}

/* the global passed, never named; and a table declared inactive, named */
double k(double *u, int n) {
  double e = 0;
  for (int i = 0; i < n; i++)
    e += u[i] * u[i] * table[i];
  return e;
}

int main(void) {
#if defined(OK)
  for (int i = 0; i < N; i++)
    gu[i] = 1 + i, table[i] = 0.5;
  __enzyme_autodiff((void *)k, enzyme_dup, gu, dgu, enzyme_const, N);
  /* dk/du[i] = 2 u[i] table[i] = u[i] */
  int good = 0;
  for (int i = 0; i < N; i++)
    good += dgu[i] == gu[i];
  printf("ok %d %d\n", good + 1, N + 1);
#elif defined(CALLEE)
  __enzyme_autodiff((void *)g, enzyme_dup, gu, dgu, enzyme_const, N);
#elif defined(FWD)
  __enzyme_fwddiff((void *)f, enzyme_dup, gu, dgu, enzyme_const, N);
#else
  __enzyme_autodiff((void *)f, enzyme_dup, gu, dgu, enzyme_const, N);
#endif
  return 0;
}
