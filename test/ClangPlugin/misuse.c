// REQUIRES: clang-plugin
// Misused attributes are clang errors (or warnings) at their line, through
// clang's own diagnostics, never ignored silently: the wrong kind of
// declaration, arguments where none are taken and none where one is,
// function_like without a name, a shadow that is not another global of
// the same type, function_like on a function this file only declares, and
// Enzyme's hints that Leantape has no use for (a warning).
// RUN: not %fpluginclang -fsyntax-only %s 2>&1 | FileCheck %s --implicit-check-not=error: --implicit-check-not=warning:
// RUN: not %fpluginclang -fsyntax-only -DEXTERNAL %s 2>&1 | FileCheck %s --check-prefix=EXT --implicit-check-not=error:

double dg;
float df;
const double cg = 1;

#ifndef EXTERNAL

// CHECK: misuse.c:[[@LINE+1]]:16: warning: 'enzyme_inactive' attribute only applies to functions and global variables
__attribute__((enzyme_inactive)) typedef double real;
struct S {
  // CHECK: misuse.c:[[@LINE+1]]:14: warning: '{{(enzyme::)?}}inactive' attribute only applies to functions and global variables
  double x [[enzyme::inactive]];
};
// CHECK: misuse.c:[[@LINE+1]]:16: error: 'enzyme_inactive' attribute takes no arguments
__attribute__((enzyme_inactive(1))) void log1(double);
// CHECK: misuse.c:[[@LINE+1]]:16: error: 'enzyme_function_like' attribute takes one argument
__attribute__((enzyme_function_like)) double f1(double);
// CHECK: misuse.c:[[@LINE+1]]:16: error: 'enzyme_function_like' takes the name of a function as a string, as in enzyme_function_like("log1p")
__attribute__((enzyme_function_like(3))) double f2(double);
// CHECK: misuse.c:[[@LINE+1]]:16: error: 'enzyme_function_like' takes the name of a function as a string
__attribute__((enzyme_function_like(""))) double f3(double);
// CHECK: misuse.c:[[@LINE+1]]:26: warning: 'enzyme_function_like' attribute only applies to functions
double v1 __attribute__((enzyme_function_like("log1p")));
// CHECK: misuse.c:[[@LINE+1]]:16: warning: 'enzyme_shadow' attribute only applies to global variables
__attribute__((enzyme_shadow(dg))) double f4(double);
// CHECK: misuse.c:[[@LINE+1]]:26: error: 'enzyme_shadow' takes another global variable of the same type, not const
double g1 __attribute__((enzyme_shadow(df)));
// CHECK: misuse.c:[[@LINE+1]]:26: error: 'enzyme_shadow' takes another global variable of the same type, not const
double g2 __attribute__((enzyme_shadow(cg)));
// CHECK: misuse.c:[[@LINE+1]]:26: error: 'enzyme_shadow' takes another global variable of the same type, not const
double g3 __attribute__((enzyme_shadow(g3)));
// CHECK: misuse.c:[[@LINE+1]]:26: error: 'enzyme_shadow' takes another global variable of the same type, not const
double g4 __attribute__((enzyme_shadow(2.0)));
// CHECK: misuse.c:[[@LINE+1]]:16: warning: 'enzyme_nofree' has no effect with Leantape (accepted as Enzyme's hint)
__attribute__((enzyme_nofree)) void f5(double *);
// CHECK: misuse.c:[[@LINE+1]]:16: warning: 'enzyme_sparse_accumulate' has no effect with Leantape
__attribute__((enzyme_sparse_accumulate)) void f6(double *);
// CHECK: misuse.c:[[@LINE+1]]:16: warning: 'enzyme_no_escaping_allocation' has no effect with Leantape
__attribute__((enzyme_no_escaping_allocation)) void f6b(double *);
// CHECK: misuse.c:[[@LINE+1]]:3: warning: unknown attribute 'function_like' ignored
[[function_like("log1p")]] double f7(double);

#else
// EXT: misuse.c:[[@LINE+1]]:55: error: 'enzyme_function_like' on a declaration this file does not define: define the function in this file, or register it with __enzyme_function_like (README)
__attribute__((enzyme_function_like("log1p"))) double external_like(double);
double use(double x) { return external_like(x); }
// declared, defined elsewhere, unused: nothing to register, no error
__attribute__((enzyme_function_like("log1p"))) double external_unused(double);
// EXT: misuse.c:[[@LINE+1]]:15: error: 'enzyme_shadow' on a declaration this file does not define: put the attribute on the definition of the global
extern double external_g __attribute__((enzyme_shadow(dg)));
double use_g(void) { return external_g; }
#endif
