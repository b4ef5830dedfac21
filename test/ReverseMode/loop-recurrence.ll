; Tape shape of a loop-carried nonlinear recurrence s = sin(s) * x[i]
; (combined mode): the reverse needs s once per iteration and nothing else
; (sin(s) and cos(s) are recomputed from it, x[i] is re-loaded, indices come
; from the counters), so the loop cache holds exactly one double per header
; execution, allocated once before the loop from the trip count: no
; lt.tape.grow, no allocation in the loop. main checks the gradient.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll

define double @rec(ptr noalias %x, double %a, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inc, %loop ]
  %s = phi double [ %a, %entry ], [ %m, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %sn = call double @sin(double %s)
  %m = fmul double %sn, %v
  %inc = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %inc, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %m
}
declare double @sin(double)
declare double @__enzyme_autodiff(ptr, ...)

define double @g_rec(ptr %x, ptr %dx, double %a, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @rec, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_out", double %a, i64 %n)
  ret double %r
}

; One allocation of n * 8 bytes (trip count * record size) before the loop.
; CHECK-LABEL: define internal double @rec.lt.grad(
; CHECK-NEXT:  lt.pre:
; CHECK-NEXT:    call void @lt.arena.enter(ptr {{.*}}@lt.arena.hint.
; CHECK-NEXT:    %lt.dist = add i64 %n, -1
; CHECK-NEXT:    %lt.iters = call i64 @llvm.smax.i64(i64 %lt.dist, i64 0)
; CHECK-NEXT:    %lt.trip = shl i64 %lt.iters, 3
; CHECK-NEXT:    %lt.cachesize = add i64 %lt.trip, 8
; CHECK-NEXT:    [[BUF:%.+]] = call ptr @lt.arena.push(i64 %lt.cachesize)
; CHECK-NEXT:    br label %loop
; The loop stores %s, and only %s, at record size 8; nothing is called but sin.
; CHECK:       loop:
; CHECK-NOT:     call
; CHECK:         [[OFF:%.+]] = shl i64 %lt.n.0, 3
; CHECK-NEXT:    [[SLOT:%.+]] = getelementptr i8, ptr [[BUF]], i64 [[OFF]]
; CHECK-NEXT:    store double %s, ptr [[SLOT]]
; CHECK-NOT:     store
; CHECK-NOT:     @malloc
; CHECK:         call double @sin(double %s)
; CHECK-NOT:     store
; CHECK-NOT:     call
; CHECK:         br i1 %c, label %loop, label %[[REV:.+]]
; The reverse declares its alias scopes (gen/scopes.c: primal, shadow,
; tape) and nothing else before its loop.
; CHECK:       [[REV]]:
; CHECK-NEXT:    call void @llvm.experimental.noalias.scope.decl(
; CHECK-NEXT:    call void @llvm.experimental.noalias.scope.decl(
; CHECK-NEXT:    call void @llvm.experimental.noalias.scope.decl(
; CHECK-NEXT:    br label %rev.loop
; The reverse reads the record back, re-loads x[i], recomputes sin/cos.
; CHECK:       rev.loop:
; CHECK:         %lt.reload = load double
; CHECK:         %lt.cache = load double
; CHECK-NEXT:    call double @sin(double %lt.cache)
; CHECK:         call double @llvm.cos.f64(double %lt.cache)
; CHECK:         call void @lt.arena.pop(ptr [[BUF]])
; CHECK-NOT:     @malloc
; CHECK:       }
; CHECK-NOT: @lt.tape.grow

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

; x = {0.5, -1.25, 2}, a = 0.7, n = 3 (gradients computed by hand with the
; chain rule in double precision):
;   d/dx2 = sin s2, d/dx1 = x2 cos s2 sin s1, d/dx0 = x2 cos s2 x1 cos s1 sin s0,
;   d/da  = x2 cos s2 x1 cos s1 x0 cos s0
define i32 @main() {
entry:
  %x = alloca [3 x double]
  %dx = alloca [3 x double]
  %x1 = getelementptr double, ptr %x, i64 1
  %x2 = getelementptr double, ptr %x, i64 2
  %dx1 = getelementptr double, ptr %dx, i64 1
  %dx2 = getelementptr double, ptr %dx, i64 2
  store double 0.5, ptr %x
  store double -1.25, ptr %x1
  store double 2.0, ptr %x2
  store double 0.0, ptr %dx
  store double 0.0, ptr %dx1
  store double 0.0, ptr %dx2
  %da = call double @g_rec(ptr %x, ptr %dx, double 0.7, i64 3)
  %g0 = load double, ptr %dx
  %g1 = load double, ptr %dx1
  %g2 = load double, ptr %dx2
  %c0 = call i32 @check(double %g0, double 0xBFF68DF4A0C327DF)
  %c1 = call i32 @check(double %g1, double 0x3FE2B1D668600249)
  %c2 = call i32 @check(double %g2, double 0xBFD8AB6D0FE52ED0)
  %c3 = call i32 @check(double %da, double 0xBFEAC714E3AD8823)
  %s1 = add i32 %c0, %c1
  %s2 = add i32 %s1, %c2
  %s3 = add i32 %s2, %c3
  ret i32 %s3
}
