// C++ declarations of the entry points, one style per variant (one
// translation unit cannot declare the same name both extern "C" and with C++
// linkage):
//   EXTERN_C  extern "C" double __enzyme_autodiff(void *, ...), markers
//             extern "C" int enzyme_dup; plus an extern "C" noexcept
//             declaration and a C++-linkage (mangled) suffixed name
//             __enzyme_autodiff_cxx(void *, ...) in the same TU.
//   MANGLED   double __enzyme_autodiff(void *, ...) without extern "C"
//             (mangled _Z17__enzyme_autodiffPvz), same for augmentfwd and
//             reverse, plus a mangled noexcept suffixed name.
//   TEMPLATE  Enzyme's documented style: template <typename R, typename...
//             T> R __enzyme_autodiff(void *, T...) with `int enzyme_dup;`
//             etc. defined in this TU; the call is not variadic, arguments
//             keep their types (a float stays float). __enzyme_augmentfwd
//             and __enzyme_reverse are templates of the form R f(T...).
// In every variant the entry point is also called inside a try block and in
// a function with a std::vector local (both make clang emit `invoke` for
// the entry point call; the IR RUN lines check that, before the plugin).
// With -fno-exceptions the try blocks are compiled out and all calls are
// plain calls.
//
// RUN: %ltclangxx -DEXTERN_C -O0 %s -o %t.c0 -lm && %t.c0
// RUN: %ltclangxx -DEXTERN_C -O2 %s -o %t.c2 -lm && %t.c2
// RUN: %ltclangxx -DEXTERN_C -O3 %s -o %t.c3 -lm && %t.c3
// RUN: %ltclangxx -DEXTERN_C -O2 -fno-exceptions %s -o %t.c2n -lm && %t.c2n
// RUN: %ltclangxx -DMANGLED -O0 %s -o %t.m0 -lm && %t.m0
// RUN: %ltclangxx -DMANGLED -O1 %s -o %t.m1 -lm && %t.m1
// RUN: %ltclangxx -DMANGLED -O2 %s -o %t.m2 -lm && %t.m2
// RUN: %ltclangxx -DMANGLED -O0 -fno-exceptions %s -o %t.m0n -lm && %t.m0n
// RUN: %ltclangxx -DTEMPLATE -O0 %s -o %t.t0 -lm && %t.t0
// RUN: %ltclangxx -DTEMPLATE -O2 %s -o %t.t2 -lm && %t.t2
// RUN: %ltclangxx -DTEMPLATE -O3 %s -o %t.t3 -lm && %t.t3
// RUN: %ltclangxx -DTEMPLATE -O2 -fno-exceptions %s -o %t.t2n -lm && %t.t2n
//
// The test really exercises invokes of the entry points (IR before any pass):
// RUN: %clang -x c++ -std=c++17 -DEXTERN_C -O0 -S -emit-llvm -Xclang -disable-llvm-passes %s -o - | FileCheck %s --check-prefix=IR
// RUN: %clang -x c++ -std=c++17 -DMANGLED -O0 -S -emit-llvm -Xclang -disable-llvm-passes %s -o - | FileCheck %s --check-prefix=IR
// RUN: %clang -x c++ -std=c++17 -DTEMPLATE -O0 -S -emit-llvm -Xclang -disable-llvm-passes %s -o - | FileCheck %s --check-prefix=IR
// IR-DAG: invoke {{.*}}__enzyme_autodiff
// IR-DAG: invoke {{.*}}__enzyme_augmentfwd
// IR-DAG: invoke {{.*}}__enzyme_reverse
// And no entry point call survives the plugin:
// RUN: %ltclangxx -DTEMPLATE -O2 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOCALL
// RUN: %ltclangxx -DMANGLED -O0 -S -emit-llvm %s -o - | FileCheck %s --check-prefix=NOCALL
// NOCALL-NOT: {{(call|invoke) .*}}__enzyme_

#include "check.h"
#include "testutil.h"
#include <cmath>
#include <vector>

#if defined(EXTERN_C)
extern "C" {
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
double __enzyme_autodiff_nx(void *, ...) noexcept;
}
double __enzyme_autodiff_cxx(void *, ...); // C++ linkage: mangled
#define AD __enzyme_autodiff
#define ADF __enzyme_autodiff
#define AD_NX __enzyme_autodiff_nx
#define AD_2 __enzyme_autodiff_cxx
#define AUG __enzyme_augmentfwd
#define REV __enzyme_reverse
#elif defined(MANGLED)
extern int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
double __enzyme_autodiff(void *, ...);
void *__enzyme_augmentfwd(void *, ...);
void __enzyme_reverse(void *, ...);
double __enzyme_autodiff_nx(void *, ...) noexcept;
#define AD __enzyme_autodiff
#define ADF __enzyme_autodiff
#define AD_NX __enzyme_autodiff_nx
#define AD_2 __enzyme_autodiff
#define AUG __enzyme_augmentfwd
#define REV __enzyme_reverse
#elif defined(TEMPLATE)
int enzyme_dup, enzyme_dupnoneed, enzyme_const, enzyme_out;
template <typename R, typename... T> R __enzyme_autodiff(void *, T...);
template <typename R, typename... T>
R __enzyme_autodiff_nx(void *, T...) noexcept;
template <typename R, typename... T> R __enzyme_augmentfwd(T...);
template <typename R, typename... T> R __enzyme_reverse(T...);
#define AD __enzyme_autodiff<double>
#define ADF __enzyme_autodiff<float>
#define AD_NX __enzyme_autodiff_nx<double>
#define AD_2 __enzyme_autodiff<double>
#define AUG __enzyme_augmentfwd<void *>
#define REV __enzyme_reverse<void>
#else
#error define EXTERN_C, MANGLED or TEMPLATE
#endif

double sq_sin(double x) { return x * x * std::sin(x); }
static double d_sq_sin(double x) {
  return 2 * x * std::sin(x) + x * x * std::cos(x);
}
float cubef(float x) { return x * x * x + 2.0f * x; }
static float cubef_p(float x) { return cubef(x); }

/* y0 = x0 x1 ; ret = sin(x0) + x1^2 */
double split_f(const double *x, double *y) {
  y[0] = x[0] * x[1];
  return std::sin(x[0]) + x[1] * x[1];
}

/* sum of squares through a pointer; gradient 2 x */
double sumsq(const double *x, int n) {
  double s = 0;
  for (int i = 0; i < n; i++)
    s += x[i] * x[i];
  return s;
}

static void check_sq_sin(const char *what, double x, double g) {
  lt_grad(what, x, g, d_sq_sin(x), lt_fd(sq_sin, x), 1e-12, 1e-6);
}

/* The std::vector locals have destructors, so every call in this function
 * that may throw (the entry points included) is an invoke with a cleanup. */
static void with_vector_local(double x0) {
  std::vector<double> v = {lt_vd(x0), lt_vd(-0.5), lt_vd(2.0)};
  std::vector<double> dv(v.size(), 0.0);
  AD((void *)sumsq, enzyme_dup, v.data(), dv.data(), enzyme_const,
     (int)v.size());
  for (size_t i = 0; i < v.size(); i++)
    lt_check("vector local: d sumsq", dv[i], 2 * v[i], 1e-14, 0);
  double g = AD((void *)sq_sin, enzyme_out, v[0]);
  check_sq_sin("vector local: sq_sin", v[0], g);
}

/* dx is a std::vector, so the split calls are invokes too. */
static void split(double a, double b, double dret) {
  double x[2] = {lt_vd(a), lt_vd(b)};
  std::vector<double> dxv(2, 0.0);
  double *dx = dxv.data();
  double y[1] = {0}, dy[1] = {lt_vd(3.0)};
  void *tape = AUG((void *)split_f, enzyme_dup, (const double *)x, dx,
                   enzyme_dup, y, dy);
  lt_check("split fwd primal", y[0], x[0] * x[1], 1e-15, 0);
  REV((void *)split_f, enzyme_dup, (const double *)x, dx, enzyme_dup, y, dy,
      dret, tape);
  lt_check("split dx0", dx[0], 3.0 * x[1] + dret * std::cos(x[0]), 1e-12,
           1e-13);
  lt_check("split dx1", dx[1], 3.0 * x[0] + dret * 2 * x[1], 1e-12, 1e-13);
  lt_check("split dy consumed", dy[0], 0.0, 0, 0);
}

int main() {
  const double xs[] = {0.7, -1.3};
  for (double x0 : xs) {
    double x = lt_vd(x0);
    check_sq_sin("plain", x, AD((void *)sq_sin, enzyme_out, x));
    check_sq_sin("unmarked", x, AD((void *)sq_sin, x));
    check_sq_sin("noexcept", x, AD_NX((void *)sq_sin, enzyme_out, x));
    check_sq_sin("second name", x, AD_2((void *)sq_sin, enzyme_out, x));

    /* float: variadic calls promote to double (so the declared return is
     * double); the template call passes and returns float. */
    float xf = lt_vf((float)x0);
    double gf = ADF((void *)cubef, enzyme_out, xf);
    lt_grad("float", xf, gf, 3.0 * xf * xf + 2.0, lt_fdf(cubef_p, xf), 1e-6,
            1e-3);

#if defined(__cpp_exceptions)
    try {
      double g = AD((void *)sq_sin, enzyme_out, x);
      check_sq_sin("in try", x, g);
      split(x0, 0.4, lt_vd(2.5));
    } catch (...) {
      lt_check("in try: no exception", 1, 0, 0, 0);
    }
#endif
    split(x0, -1.2, lt_vd(-4.0));
    with_vector_local(x0);
  }
  return lt_done();
}
