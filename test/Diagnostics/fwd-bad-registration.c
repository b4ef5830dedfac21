// Forward-derivative registrations that cannot be used are compile errors
// naming the registration (one case per prefix):
//  SHADOW  the registered derivative misses the tangent of x (it must take
//          each argument followed by its shadow); the error points at the
//          call of the registered function;
//  NOT2    __enzyme_register_derivative_<name> holds one function, not two.
// The well-formed registration compiles (GOOD).
// RUN: not %ltclang -O0 -g -c -DSHADOW %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHADOW
// RUN: not %ltclang -O2 -g -c -DSHADOW %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=SHADOW
// RUN: not %ltclang -O0 -g -c -DNOT2 %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=NOT2
// RUN: %ltclang -O0 -g -c -DGOOD %s -o /dev/null
// RUN: %ltclang -O2 -g -c -DGOOD %s -o /dev/null

double __enzyme_fwddiff(void *, ...);
typedef struct {
  double r, t;
} RT;

double sig(double x) { return x * x; }
#ifdef SHADOW
RT sig_fwd(double x) {
  RT r = {x * x, 2 * x};
  return r;
}
#else
RT sig_fwd(double x, double dx) {
  RT r = {x * x, 2 * x * dx};
  return r;
}
#endif
#ifdef NOT2
// NOT2: error: leantape: '__enzyme_register_derivative_sig' must hold two functions {function, forward derivative}
void *__enzyme_register_derivative_sig[1] = {(void *)sig};
#else
void *__enzyme_register_derivative_sig[2] = {(void *)sig, (void *)sig_fwd};
#endif

// SHADOW: fwd-bad-registration.c:[[@LINE+1]]:{{[0-9]+}}: error: leantape: the forward derivative registered by '__enzyme_register_derivative_sig' has the wrong type
double use(double x) { return sig(x) * 3; }
double d_use(double x) { return __enzyme_fwddiff((void *)use, x, 1.0); }

// SHADOW-NOT: PLEASE submit a bug report
// NOT2-NOT: PLEASE submit a bug report
