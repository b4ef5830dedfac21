; IR form: a dup pointer whose shadow is missing.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}too few arguments
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

define double @f(double %y, ptr %p) {
entry:
  %v = load double, ptr %p
  %m = fmul double %v, %y
  ret double %m
}

define double @test(double %y, ptr %p) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %y, metadata !"enzyme_dup", ptr %p)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
