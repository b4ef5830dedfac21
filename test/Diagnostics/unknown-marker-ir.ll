; IR form: an unknown metadata marker.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}unknown marker 'enzyme_bogus'
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

define double @sq(double %x) {
entry:
  %m = fmul double %x, %x
  ret double %m
}

define double @test(double %x) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @sq, metadata !"enzyme_bogus", double %x)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
