; IR form: the first argument is only a declaration.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}first argument must be a function defined in this module
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

declare double @ext(double)

define double @test(double %x) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @ext, double %x)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
