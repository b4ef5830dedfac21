; IR form: a self-recursive function (non-tail).
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}recursive
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

declare double @llvm.sin.f64(double)

define double @f(double %x, i32 %n) {
entry:
  %z = icmp sle i32 %n, 0
  br i1 %z, label %base, label %rec

base:
  ret double %x

rec:
  %n1 = sub i32 %n, 1
  %c = call double @f(double %x, i32 %n1)
  %s = call double @llvm.sin.f64(double %x)
  %m = fmul double %s, %c
  ret double %m
}

define double @test(double %x, i32 %n) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %n)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
