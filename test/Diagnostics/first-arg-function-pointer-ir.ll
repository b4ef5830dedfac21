; IR form: the first argument is a function pointer parameter.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}first argument must be a function defined in this module
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

define double @test(ptr %fp, double %x) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr %fp, double %x)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
