; IR form: enzyme_dup on a double.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}enzyme_dup requires a pointer argument
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

define double @sq(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}

define double @test(double %x, double %dx) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @sq, metadata !"enzyme_dup", double %x, double %dx)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
