; IR form: an external call with no derivative rule on an active value.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}no derivative rule for 'mystery'
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

declare double @mystery(double)

define double @f(double %x) {
entry:
  %c = call double @mystery(double %x)
  %m = fmul double %c, %x
  ret double %m
}

define double @test(double %x) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
