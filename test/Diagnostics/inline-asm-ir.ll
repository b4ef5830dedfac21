; IR form: inline assembly on an active value.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}inline assembly
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

define double @f(double %x) {
entry:
  %a = call double asm "", "=x,0"(double %x)
  %m = fmul double %a, %a
  ret double %m
}

define double @test(double %x) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
