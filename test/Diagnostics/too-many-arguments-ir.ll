; IR form: more values than parameters.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}too many arguments
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

define double @sq(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}

define double @test(double %x, double %y) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @sq, double %x, metadata !"enzyme_const", double %y)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
