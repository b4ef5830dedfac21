; On a Linux target, a sin and a cos of one value in a block of generated
; code become one call of the C library's sincos (sincos.c): here the
; combined-mode gradient of sin(x) * x recomputes sin(x) for the partial
; of x and needs cos(x) for that of sin: one sincos, no sin or cos call
; left. Without a target triple whose C library has sincos (the other
; tests), the two calls stay. @g: a loop's reverse recomputes the
; primal's sin and cos of x[i] (libm calls) and its rules ask for cos and
; sin of it again (intrinsics): one sincos in the reverse loop, not two
; (the bundle adjustment benchmark's reverse made two). main checks the
; gradients with lli.
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

define double @g(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p
  %s = call double @sin(double %v) #0
  %c = call double @cos(double %v) #0
  %sc = fmul double %s, %c
  %acc1 = fadd double %acc, %sc
  %i1 = add i64 %i, 1
  %done = icmp eq i64 %i1, %n
  br i1 %done, label %exit, label %loop
exit:
  ret double %acc1
}

; CHECK-LABEL: define internal void @g.lt.grad(
; CHECK: rev.loop:
; CHECK: call void @sincos(
; CHECK-NOT: call void @sincos(
; CHECK-NOT: call double @sin(
; CHECK-NOT: call double @cos(
; CHECK: ret void

; d/dx sin(x) x = cos(x) x + sin(x); at 0.7: 1.179607218336833
; d/dx_i of sum sin(x_i) cos(x_i) = cos(2 x_i); at 0.3 and 1.1:
; 0.8253356149096783 and -0.5885011172553458
define i32 @main() {
entry:
  %g = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double 0.7)
  %d = fsub double %g, 0x3FF2DFABD18E1D9C
  %a = call double @llvm.fabs.f64(double %d)
  %bad = fcmp ogt double %a, 1.0e-14
  %x = alloca [2 x double]
  %dx = alloca [2 x double]
  store double 0.3, ptr %x
  %x1 = getelementptr inbounds double, ptr %x, i64 1
  store double 1.1, ptr %x1
  store double 0.0, ptr %dx
  %dx1 = getelementptr inbounds double, ptr %dx, i64 1
  store double 0.0, ptr %dx1
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @g, ptr %x, ptr %dx, i64 2)
  %g0 = load double, ptr %dx
  %e0 = fsub double %g0, 0x3FEA69263C485B15
  %a0 = call double @llvm.fabs.f64(double %e0)
  %bad0 = fcmp ogt double %a0, 1.0e-14
  %g1 = load double, ptr %dx1
  %e1 = fsub double %g1, 0xBFE2D5004B88AD70
  %a1 = call double @llvm.fabs.f64(double %e1)
  %bad1 = fcmp ogt double %a1, 1.0e-14
  %b01 = or i1 %bad, %bad0
  %b = or i1 %b01, %bad1
  %rc = zext i1 %b to i32
  ret i32 %rc
}

declare double @sin(double)
declare double @cos(double)
attributes #0 = { nounwind }

declare double @llvm.sin.f64(double)
declare double @llvm.fabs.f64(double)
declare double @__enzyme_autodiff(ptr, ...)
