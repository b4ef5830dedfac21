; IR form: a loop in the differentiated function.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: {{.*}}loops are not supported yet
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump

define double @f(double %x, i32 %n) {
entry:
  br label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %s = phi double [ 0.0, %entry ], [ %s1, %loop ]
  %t = fmul double %s, %x
  %s1 = fadd double %t, 1.0
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %loop, label %exit

exit:
  ret double %s1
}

define double @test(double %x, i32 %n) {
entry:
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, double %x, i32 %n)
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)
