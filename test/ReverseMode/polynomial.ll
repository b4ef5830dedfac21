; A loop-free polynomial with fadd/fsub/fmul/fdiv/fneg, one active double.
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s --check-prefix=NOCALL
; lli is that of the plugin's LLVM (lit puts its bin directory first on PATH).
; FileCheck: the call site and the shape of the generated gradient (below);
; lli: main returns 1 on a mismatch with the hand-computed analytic gradient.
; NOCALL-NOT: call {{.*}}@__enzyme_autodiff

; f(x)  = 3x^3 - 2x^2 + x/4 - 7 + (-(-x))      (fneg twice)
; f'(x) = 9x^2 - 4x + 1/4 + 1
;   f'(1.5)  = 20.25 - 6 + 0.25 + 1 = 15.5
;   f'(-2.0) = 36 + 8 + 0.25 + 1    = 45.25

define double @f(double %x) {
entry:
  %x2 = fmul double %x, %x
  %x3 = fmul double %x2, %x
  %a = fmul double %x3, 3.0
  %b = fmul double %x2, 2.0
  %c = fsub double %a, %b
  %q = fdiv double %x, 4.0
  %d = fadd double %c, %q
  %e = fsub double %d, 7.0
  %n = fneg double %x
  %nn = fneg double %n
  %r = fadd double %e, %nn
  ret double %r
}

; The call becomes a call of the gradient with the seed 1; the gradient is
; straight-line arithmetic: no tape, no memory, no calls, no branch, and
; none of the primal's division or negations (x/4 is a product, -(-x) is x;
; the adjoint's sums are reassociable, so the two become one: d * 1.25).
; CHECK-LABEL: define double @test(double %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[G:%.+]] = call double @f.lt.grad(double %x, double 1.000000e+00)
; CHECK-NEXT:    ret double [[G]]
; CHECK-LABEL: define internal double @f.lt.grad(double %x, double %0)
; CHECK-NOT:     {{alloca|call|load|store|br |phi|fdiv|fneg}}
; CHECK:         fmul reassoc nsz double %0, 1.250000e+00
; CHECK-NOT:     {{alloca|call|load|store|br |phi|fdiv|fneg}}
; CHECK:         ret double
; CHECK-NEXT:  }
define double @test(double %x) {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %g
}

define i32 @main() {
entry:
  %g1 = call double @test(double 1.5)
  %c1 = call i32 @check(double %g1, double 15.5)
  %g2 = call double @test(double -2.0)
  %c2 = call i32 @check(double %g2, double 45.25)
  %s = add i32 %c1, %c2
  %bad = icmp ne i32 %s, 0
  %r = zext i1 %bad to i32
  ret i32 %r
}

; |got - want| <= 1e-12 |want| + 1e-14 (NaN fails); returns 1 on mismatch.
define internal i32 @check(double %got, double %want) {
entry:
  %d = fsub double %got, %want
  %a = call double @llvm.fabs.f64(double %d)
  %w = call double @llvm.fabs.f64(double %want)
  %t = fmul double %w, 1.0e-12
  %tol = fadd double %t, 1.0e-14
  %bad = fcmp ugt double %a, %tol
  %r = zext i1 %bad to i32
  ret i32 %r
}

declare double @llvm.fabs.f64(double)
declare double @__enzyme_autodiff(ptr, ...)
