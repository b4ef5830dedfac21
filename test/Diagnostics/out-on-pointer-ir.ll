; IR form: enzyme_out on a pointer.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}enzyme_out requires a floating-point argument
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

define double @f(ptr %p) {
entry:
  %v = load double, ptr %p
  %m = fmul double %v, %v
  ret double %m
}

define double @test(ptr %p) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_out", ptr %p)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
