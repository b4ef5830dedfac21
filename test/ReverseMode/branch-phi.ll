; A diamond with a phi of active values (both arms are tested).
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s --check-prefix=NOCALL
; lli is that of the plugin's LLVM (lit puts its bin directory first on PATH).
; FileCheck: the call site and the shape of the generated gradient (below);
; lli: main returns 1 on a mismatch with the hand-computed analytic gradient.
; NOCALL-NOT: call {{.*}}@__enzyme_autodiff

; p = x > 1 ? x^3 : 2x + 5 ; f = p * x
;   x > 1 : f = x^4       f' = 4x^3   f'(2)   = 32
;   else  : f = 2x^2 + 5x f' = 4x + 5 f'(0.5) = 7

define double @f(double %x) {
entry:
  %c = fcmp ogt double %x, 1.0
  br i1 %c, label %big, label %small

big:
  %x2 = fmul double %x, %x
  %x3 = fmul double %x2, %x
  br label %join

small:
  %t = fmul double %x, 2.0
  %u = fadd double %t, 5.0
  br label %join

join:
  %p = phi double [ %x3, %big ], [ %u, %small ]
  %r = fmul double %p, %x
  ret double %r
}

; The gradient has no branch: the diamond's phi becomes a select on the
; primal condition, and each arm's adjoint is selected by it too.
; CHECK-LABEL: define double @test(double %x)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    [[G:%.+]] = call double @f.lt.grad(double %x, double 1.000000e+00)
; CHECK-NEXT:    ret double [[G]]
; CHECK-LABEL: define internal double @f.lt.grad(double %x, double %0)
; CHECK-NOT:     {{alloca|call|load|store|br |phi}}
; CHECK:         [[C:%.+]] = fcmp ogt double %x, 1.000000e+00
; CHECK:         [[P:%.+]] = select i1 [[C]], double %x3, double %u
; (the operand order of the product differs between LLVM 19 and 22)
; CHECK:         fmul double {{(%0, )?}}[[P]]{{(, %0)?$}}
; CHECK:         select i1 [[C]], double 0.000000e+00,
; CHECK:         select i1 [[C]], double {{%.+}}, double 0.000000e+00
; CHECK-NOT:     {{alloca|call|load|store|br |phi}}
; CHECK:         ret double
; CHECK-NEXT:  }
define double @test(double %x) {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_out", double %x)
  ret double %g
}

define i32 @main() {
entry:
  %g1 = call double @test(double 2.0)
  %c1 = call i32 @check(double %g1, double 32.0)
  %g2 = call double @test(double 0.5)
  %c2 = call i32 @check(double %g2, double 7.0)
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
