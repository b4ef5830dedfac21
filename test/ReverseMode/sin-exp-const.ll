; Calls to llvm.sin.f64 and llvm.exp.f64, with an enzyme_const double.
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s --check-prefix=NOCALL
; lli is that of the plugin's LLVM (lit puts its bin directory first on PATH).
; FileCheck: the call site and the shape of the generated gradient (below);
; lli: main returns 1 on a mismatch with the hand-computed analytic gradient.
; NOCALL-NOT: call {{.*}}@__enzyme_autodiff

; f(x, c) = sin(x) * exp(c x), c const
; df/dx = exp(c x) (cos(x) + c sin(x))
;   x = 0.5, c = 2.0  : 4.991944190333126
;   x = 0.8, c = -1.5 : -0.11425122543258653

define double @f(double %x, double %c) {
entry:
  %s = call double @llvm.sin.f64(double %x)
  %cx = fmul double %c, %x
  %e = call double @llvm.exp.f64(double %cx)
  %r = fmul double %s, %e
  ret double %r
}

; c is const: the gradient returns d/dx only, computes exp(c x) once (shared
; by the primal product and the derivative) and cos(x) for sin's
; derivative; no tape, no memory.
; CHECK-LABEL: define double @test(double %x, double %c)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[G:%.+]] = call double @f.lt.grad(double %x, double %c, double 1.000000e+00)
; CHECK-NEXT:    ret double [[G]]
; CHECK-LABEL: define internal double @f.lt.grad(double %x, double %c, double %0)
; CHECK-NOT:     {{alloca|load|store|br }}
; CHECK:         [[CX:%.+]] = fmul double %c, %x
; CHECK-NEXT:    call double @llvm.exp.f64(double [[CX]])
; CHECK-NOT:     call double @llvm.exp.f64
; CHECK:         call double @llvm.cos.f64(double %x)
; CHECK-NOT:     {{alloca|load|store|br |call}}
; CHECK:         ret double
; CHECK-NEXT:  }
define double @test(double %x, double %c) {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, metadata !"enzyme_const", double %c)
  ret double %g
}

define i32 @main() {
entry:
  %g1 = call double @test(double 0.5, double 2.0)
  %c1 = call i32 @check(double %g1, double 4.991944190333126)
  %g2 = call double @test(double 0.8, double -1.5)
  %c2 = call i32 @check(double %g2, double -0.11425122543258653)
  %s = add i32 %c1, %c2
  %bad = icmp ne i32 %s, 0
  %r = zext i1 %bad to i32
  ret i32 %r
}

declare double @llvm.sin.f64(double)
declare double @llvm.exp.f64(double)

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
