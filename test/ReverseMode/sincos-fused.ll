; On a Linux target, a sin and a cos of one value in a block of generated
; code become one call of the C library's sincos (sincos.c): here the
; combined-mode gradient of sin(x) * x recomputes sin(x) for the partial
; of x and needs cos(x) for that of sin: one sincos, no sin or cos call
; left. Without a target triple whose C library has sincos (the other
; tests), the two calls stay. main checks the gradient with lli.
; RUN: %ltopt -passes=leantape %s -S | FileCheck %s
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll

target triple = "x86_64-pc-linux-gnu"

define double @f(double %x) {
entry:
  %s = call double @llvm.sin.f64(double %x)
  %r = fmul double %s, %x
  ret double %r
}

; CHECK-LABEL: define internal double @f.lt.grad(
; CHECK: alloca double
; CHECK: alloca double
; CHECK-NOT: call double @llvm.sin.f64
; CHECK-NOT: call double @llvm.cos.f64
; CHECK: call void @sincos(double %x, ptr
; CHECK-NOT: call double @llvm.sin.f64
; CHECK-NOT: call double @llvm.cos.f64
; CHECK: ret double

; d/dx sin(x) x = cos(x) x + sin(x); at 0.7: 1.179607218336833
define i32 @main() {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 0.7)
  %d = fsub double %g, 0x3FF2DFABD18E1D9C
  %a = call double @llvm.fabs.f64(double %d)
  %bad = fcmp ogt double %a, 1.0e-14
  %rc = zext i1 %bad to i32
  ret i32 %rc
}

declare double @llvm.sin.f64(double)
declare double @llvm.fabs.f64(double)
declare double @__enzyme_autodiff(ptr, ...)
