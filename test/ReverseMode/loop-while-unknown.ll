; Tape shape of a while loop with a data-dependent exit (Newton iteration for
; sqrt(a)): the carried y is needed in every reverse iteration and the trip
; count is only known at exit, so the cache (one record of 8 bytes per
; iteration) starts with as many records as the last call needed, from the
; arena, and lt.cache.reserve in the header grows it past them; the reverse
; loop starts from the forward count. main checks the gradient.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s --check-prefix=GROW
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s --check-prefix=NEST
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
; CHECK:         [[HINT:%.+]] = load i64, ptr @lt.cache.hint.newton.lt.aug.0
; CHECK:         call ptr @lt.arena.push(
; CHECK:       loop:
; CHECK-NOT:     @malloc
; CHECK:         %lt.buf.0 = phi ptr [ {{%.+}}, %lt.pre ], [ [[BUF:%.+]], %loop ]
; CHECK:         %lt.iv = phi i64 [ 0, %lt.pre ], [ %lt.iv.next, %loop ]
; CHECK:         [[N:%.+]] = add i64 %lt.n.0, 1
; CHECK-NEXT:    [[BUF]] = call ptr @lt.cache.reserve(ptr %lt.buf.0, i64 [[N]], i64 8)
; CHECK-NEXT:    [[OFF:%.+]] = shl i64 %lt.n.0, 3
; CHECK-NEXT:    [[SLOT:%.+]] = getelementptr i8, ptr [[BUF]], i64 [[OFF]]
; CHECK-NEXT:    store double %y, ptr [[SLOT]]
; CHECK-NOT:     store
; CHECK:         br i1 %c, label %loop, label %exit
; CHECK:       exit:
; CHECK-NEXT:    call void @lt.cache.note(ptr [[BUF]], ptr nonnull @lt.cache.hint.newton.lt.aug.0)
; CHECK:       rev.loop:
; CHECK:         %lt.riv.0 = phi i64 {{.*}}[ %lt.iv, %exit ]
; CHECK:         %lt.cache = load double
; CHECK:       rev.enter:
; CHECK-NEXT:    call void @lt.cache.release(ptr [[BUF]])
; CHECK-NOT:     @free
; CHECK:       }

; The cache takes the last call's records (and an eighth more) from the
; arena; past them it moves to the heap (malloc, then realloc), keeping the
; arena block in its header for lt.cache.release.
; GROW-LABEL: define internal ptr @lt.cache.reserve(
; GROW:         call ptr @malloc(
; GROW:         call void @llvm.memcpy
; GROW:         call ptr @realloc(
; GROW-LABEL: define internal void @lt.cache.release(
; GROW:         call void @free(
; GROW:         call void @lt.arena.pop(
; GROW:         call void @lt.arena.pop(

; A loop with a known trip count inside a while loop: its cache reserves
; room for the whole run in its preheader (the header executions so far plus
; its trip count), so no call is left in its iterations.
define double @relax(ptr %x, i64 %n) {
entry:
  br label %outer
outer:
  %s = phi double [ 0.0, %entry ], [ %s2, %latch ]
  br label %inner
inner:
  %i = phi i64 [ 0, %outer ], [ %i1, %inner ]
  %acc = phi double [ %s, %outer ], [ %acc2, %inner ]
  %p = getelementptr double, ptr %x, i64 %i
  %v = load double, ptr %p
  %sv = call double @llvm.sin.f64(double %v)
  %m = fmul double %sv, %acc
  %acc2 = fadd double %acc, %m
  %i1 = add i64 %i, 1
  %c = icmp slt i64 %i1, %n
  br i1 %c, label %inner, label %latch
latch:
  %s2 = fadd double %acc2, 1.0e-1
  %done = fcmp ogt double %s2, 1.0
  br i1 %done, label %exit, label %outer
exit:
  ret double %s2
}
declare double @llvm.sin.f64(double)
define double @g_relax(ptr %x, ptr %dx, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @relax, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_const", i64 %n)
  ret double %r
}

; NEST-LABEL: define internal void @relax.lt.grad(
; NEST:         call ptr @lt.arena.push(
; NEST:       outer:
; NEST:         %lt.trip{{[0-9]*}} = add nuw i64 %lt.iters, 1
; NEST-NEXT:    [[NEED:%.+]] = add i64 %lt.n{{[0-9]*}}.0, %lt.trip{{[0-9]*}}
; NEST-NEXT:    [[BUF:%.+]] = call ptr @lt.cache.reserve(ptr %lt.buf{{[0-9]*}}.0, i64 [[NEED]], i64 8)
; NEST-NEXT:    br label %inner
; NEST:       inner:
; NEST-NOT:     call
; NEST:         store double %acc, ptr
; NEST-NOT:     @lt.cache
; NEST:         br i1 %c, label %inner, label %latch
; NEST:       exit:
; NEST-NEXT:    call void @lt.cache.note(ptr [[BUF]]
; NEST:         call void @lt.cache.release(ptr [[BUF]])

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
