// enzyme_width 4 returns four tangents: a call declared to return one
// double (DOUBLE), or a struct of three doubles (THREE), is an error that
// says what the call gives; four doubles compile (GOOD). A function that
// returns a struct through a hidden pointer, at width 2, declared to return
// one such struct (SRET), is an error that gives the sizes.
// RUN: not %ltclang -O0 -g -c -DDOUBLE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOUBLE
// RUN: not %ltclang -O2 -g -c -DDOUBLE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=DOUBLE
// RUN: not %ltclang -O0 -g -c -DTHREE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: not %ltclang -O2 -g -c -DTHREE %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=THREE
// RUN: not %ltclang -O0 -g -c -DSRET %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SRET
// RUN: not %ltclang -O2 -g -c -DSRET %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SRET
// RUN: %ltclang -O0 -g -c -DGOOD %s -o /dev/null
// RUN: %ltclang -O2 -g -c -DGOOD %s -o /dev/null
// The error points at the __enzyme_fwddiff call (CHECK just above it).

extern int enzyme_width;
double f(double x, double y) { return x * y; }

#ifdef DOUBLE
double __enzyme_fwddiff(void *, ...);
double t(double x, double y) {
  // DOUBLE: fwd-width-return-type.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: the declared return type of this __enzyme_fwddiff call does not match what 'f' gives: one tangent per direction
  return __enzyme_fwddiff((void *)f, enzyme_width, 4, x, 1.0, 0.0, 0.0, 0.0, y, 0.0, 1.0, 0.0, 0.0);
}
#endif
#ifdef THREE
typedef struct {
  double a, b, c;
} D3;
D3 __enzyme_fwddiff3(void *, ...);
D3 t(double x, double y) {
  // THREE: fwd-width-return-type.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: the declared return type of this __enzyme_fwddiff call does not match what 'f' gives: one tangent per direction
  return __enzyme_fwddiff3((void *)f, enzyme_width, 4, x, 1.0, 0.0, 0.0, 0.0, y, 0.0, 1.0, 0.0, 0.0);
}
#endif
#ifdef SRET
typedef struct {
  double a, b, c;
} D3;
D3 g(double x) {
  D3 r = {x, x * x, -x};
  return r;
}
D3 __enzyme_fwddiff3(void *, ...);
D3 t(double x) {
  // SRET: fwd-width-return-type.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: 'g' returns a 24-byte struct through a hidden pointer; declare this __enzyme_fwddiff call to return 2 of them (48 bytes, not 24): one tangent per direction
  return __enzyme_fwddiff3((void *)g, enzyme_width, 2, x, 1.0, 2.0);
}
#endif
#ifdef GOOD
typedef struct {
  double v[4];
} D4;
D4 __enzyme_fwddiff4(void *, ...);
D4 t(double x, double y) {
  return __enzyme_fwddiff4((void *)f, enzyme_width, 4, x, 1.0, 0.0, 0.0, 0.0, y, 0.0, 1.0, 0.0, 0.0);
}
#endif
// DOUBLE-NOT: PLEASE submit a bug report
// THREE-NOT: PLEASE submit a bug report
