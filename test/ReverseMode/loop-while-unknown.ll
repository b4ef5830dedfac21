; Tape shape of a while loop with a data-dependent exit (Newton iteration for
; sqrt(a)): the carried y is needed in every reverse iteration and the trip
; count is only known at exit, so the cache grows geometrically through
; lt.tape.grow in the header (one record of 8 bytes per iteration), and the
; reverse loop starts from the forward count. main checks the gradient.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s --check-prefix=GROW
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll

; y <- (y + a/y)/2 until |y*y - a| <= 1e-12
define double @newton(double %a) {
entry:
  br label %loop
loop:
  %y = phi double [ %a, %entry ], [ %yn, %loop ]
  %q = fdiv double %a, %y
  %t = fadd double %y, %q
  %yn = fmul double %t, 5.0e-1
  %sq = fmul double %yn, %yn
  %d = fsub double %sq, %a
  %ad = call double @llvm.fabs.f64(double %d)
  %c = fcmp ogt double %ad, 1.0e-12
  br i1 %c, label %loop, label %exit
exit:
  ret double %yn
}
declare double @__enzyme_autodiff(ptr, ...)

define double @g_newton(double %a) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @newton, metadata !"enzyme_out", double %a)
  ret double %r
}

; CHECK-LABEL: define internal double @newton.lt.grad(
; CHECK-NOT:     @malloc
; CHECK:       loop:
; CHECK:         %lt.buf.0 = phi ptr [ null, %lt.pre ], [ [[BUF:%.+]], %loop ]
; CHECK:         %lt.iv = phi i64 [ 0, %lt.pre ], [ %lt.iv.next, %loop ]
; CHECK:         [[BUF]] = call ptr @lt.tape.grow(ptr %lt.buf.0, i64 %lt.n.0, i64 8)
; CHECK-NEXT:    [[OFF:%.+]] = shl i64 %lt.n.0, 3
; CHECK-NEXT:    [[SLOT:%.+]] = getelementptr i8, ptr [[BUF]], i64 [[OFF]]
; CHECK-NEXT:    store double %y, ptr [[SLOT]]
; CHECK-NOT:     store
; CHECK:         br i1 %c, label %loop, label %rev.loop
; The reverse count starts at the forward count.
; CHECK:       rev.loop:
; CHECK:         %lt.riv.0 = phi i64 [ {{%[0-9]+}}, %rev.back ], [ %lt.iv, %loop ]
; CHECK:         %lt.cache = load double
; CHECK:         call void @free(ptr [[BUF]])
; CHECK:       }

; The grow helper reallocates geometrically.
; GROW-LABEL: define internal ptr @lt.tape.grow(
; GROW:         call ptr @realloc(

define internal i32 @check(double %got, double %want) {
entry:
  %d = fsub double %got, %want
  %a = call double @llvm.fabs.f64(double %d)
  %w = call double @llvm.fabs.f64(double %want)
  %t = fmul double %w, 1.0e-12
  %tol = fadd double %t, 1.0e-14
  %bad = fcmp ugt double %a, %tol
  %r = zext i1 %bad to i32
  ret i32 %r
}
declare double @llvm.fabs.f64(double)

; a = 2: the derivative of the final iterate (5 Newton steps, computed by
; hand with dual numbers in double precision), ~ 1/(2 sqrt 2)
define i32 @main() {
entry:
  %g = call double @g_newton(double 2.0)
  %c = call i32 @check(double %g, double 0x3FD6A09E667F3BCD)
  ret i32 %c
}
