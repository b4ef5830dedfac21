; IR form: enzyme_out on an integer.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}enzyme_out requires a floating-point argument
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

define double @f(double %x, i32 %n) {
entry:
  %c = sitofp i32 %n to double
  %m = fmul double %x, %c
  ret double %m
}

define double @test(double %x, i32 %n) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, metadata !"enzyme_out", i32 %n)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
