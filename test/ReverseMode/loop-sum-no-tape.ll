; Tape shape of loops that need no tape at all (combined mode): a sum over an
; array, an in-place y[i] = y[i] + x[i], and a sum of sin(x[i]) whose x[i] is
; re-loaded in the reverse loop (x is noalias and never written). No .lt.grad
; allocates, grows or frees anything; indices come from the loop counters.
; main checks the gradients.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll

; CHECK-NOT: call {{.*}}@__enzyme_autodiff
; sum over an array: sum_i x[i]
define double @sum(ptr noalias %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inc, %loop ]
  %s = phi double [ 0.0, %entry ], [ %add, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %add = fadd double %s, %v
  %inc = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %inc, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %add
}
; in place: y[i] = y[i] + x[i]
define void @inplace(ptr noalias %y, ptr noalias %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inc, %loop ]
  %py = getelementptr inbounds double, ptr %y, i64 %i
  %px = getelementptr inbounds double, ptr %x, i64 %i
  %a = load double, ptr %py, align 8
  %b = load double, ptr %px, align 8
  %add = fadd double %a, %b
  store double %add, ptr %py, align 8
  %inc = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %inc, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}
; sum of sin(x[i])
define double @sumsin(ptr noalias %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inc, %loop ]
  %s = phi double [ 0.0, %entry ], [ %add, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %sv = call double @sin(double %v)
  %add = fadd double %s, %sv
  %inc = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %inc, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %add
}
declare double @sin(double)
declare double @cos(double)
declare double @llvm.fabs.f64(double)
declare void @__enzyme_autodiff(ptr, ...)

define void @g_sum(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @sum, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  ret void
}
define void @g_inplace(ptr %y, ptr %dy, ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @inplace, metadata !"enzyme_dup", ptr %y, ptr %dy, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  ret void
}
define void @g_sumsin(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @sumsin, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @sum.lt.grad(
; CHECK-NOT:     @malloc
; CHECK-NOT:     @lt.tape.grow
; CHECK-NOT:     alloca
; CHECK:       rev.loop:
; CHECK-NEXT:    %lt.riv.0 = phi i64
; CHECK-NEXT:    getelementptr double, ptr %0, i64 %lt.riv.0
; CHECK-NOT:     @free
; CHECK:         ret void

; CHECK-LABEL: define internal void @inplace.lt.grad(
; CHECK-NOT:     @malloc
; CHECK-NOT:     @lt.tape.grow
; CHECK-NOT:     alloca
; CHECK:       rev.loop:
; CHECK-NOT:     @free
; CHECK:         ret void

; sin(x[i]) needs x[i] in the reverse: re-loaded at the counter-recomputed
; address, not cached.
; CHECK-LABEL: define internal void @sumsin.lt.grad(
; CHECK-NOT:     @malloc
; CHECK-NOT:     @lt.tape.grow
; CHECK-NOT:     alloca
; CHECK:       rev.loop:
; CHECK-NEXT:    %lt.riv.0 = phi i64
; CHECK-NEXT:    [[P:%.+]] = getelementptr inbounds double, ptr %x, i64 %lt.riv.0
; CHECK-NEXT:    %lt.reload = load double, ptr [[P]]
; CHECK-NEXT:    call double @llvm.cos.f64(double %lt.reload)
; CHECK-NOT:     @free
; CHECK:         ret void

; No grow helper is emitted into the module at all.
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

; x = {0.5, -1.25, 2}, dx starts at {1, 0, 0}, y = {3, 4, 5}, dy = {1, 2, 3}
;  sum:     dx += 1                -> {2, 1, 1}
;  sumsin:  dx += cos(x[i])        -> {2 + cos .5, 1 + cos -1.25, 1 + cos 2}
;  inplace: dx += dy, dy unchanged -> {3 + cos .5, 3 + cos -1.25, 4 + cos 2}
;           y = {3.5, 2.75, 7}
define i32 @main() {
entry:
  %x = alloca [3 x double]
  %dx = alloca [3 x double]
  %y = alloca [3 x double]
  %dy = alloca [3 x double]
  %x1 = getelementptr double, ptr %x, i64 1
  %x2 = getelementptr double, ptr %x, i64 2
  %dx1 = getelementptr double, ptr %dx, i64 1
  %dx2 = getelementptr double, ptr %dx, i64 2
  %y1 = getelementptr double, ptr %y, i64 1
  %y2 = getelementptr double, ptr %y, i64 2
  %dy1 = getelementptr double, ptr %dy, i64 1
  %dy2 = getelementptr double, ptr %dy, i64 2
  store double 0.5, ptr %x
  store double -1.25, ptr %x1
  store double 2.0, ptr %x2
  store double 1.0, ptr %dx
  store double 0.0, ptr %dx1
  store double 0.0, ptr %dx2
  store double 3.0, ptr %y
  store double 4.0, ptr %y1
  store double 5.0, ptr %y2
  store double 1.0, ptr %dy
  store double 2.0, ptr %dy1
  store double 3.0, ptr %dy2
  call void @g_sum(ptr %x, ptr %dx, i64 3)
  %a0 = load double, ptr %dx
  %a1 = load double, ptr %dx1
  %a2 = load double, ptr %dx2
  %c0 = call i32 @check(double %a0, double 2.0)
  %c1 = call i32 @check(double %a1, double 1.0)
  %c2 = call i32 @check(double %a2, double 1.0)
  call void @g_sumsin(ptr %x, ptr %dx, i64 3)
  call void @g_inplace(ptr %y, ptr %dy, ptr %x, ptr %dx, i64 3)
  %k0 = call double @cos(double 0.5)
  %k1 = call double @cos(double -1.25)
  %k2 = call double @cos(double 2.0)
  %w0 = fadd double %k0, 3.0
  %w1 = fadd double %k1, 3.0
  %w2 = fadd double %k2, 4.0
  %b0 = load double, ptr %dx
  %b1 = load double, ptr %dx1
  %b2 = load double, ptr %dx2
  %c3 = call i32 @check(double %b0, double %w0)
  %c4 = call i32 @check(double %b1, double %w1)
  %c5 = call i32 @check(double %b2, double %w2)
  %v0 = load double, ptr %y
  %v1 = load double, ptr %y1
  %v2 = load double, ptr %y2
  %c6 = call i32 @check(double %v0, double 3.5)
  %c7 = call i32 @check(double %v1, double 2.75)
  %c8 = call i32 @check(double %v2, double 7.0)
  %e0 = load double, ptr %dy
  %e1 = load double, ptr %dy1
  %e2 = load double, ptr %dy2
  %c9 = call i32 @check(double %e0, double 1.0)
  %c10 = call i32 @check(double %e1, double 2.0)
  %c11 = call i32 @check(double %e2, double 3.0)
  %s1 = add i32 %c0, %c1
  %s2 = add i32 %s1, %c2
  %s3 = add i32 %s2, %c3
  %s4 = add i32 %s3, %c4
  %s5 = add i32 %s4, %c5
  %s6 = add i32 %s5, %c6
  %s7 = add i32 %s6, %c7
  %s8 = add i32 %s7, %c8
  %s9 = add i32 %s8, %c9
  %s10 = add i32 %s9, %c10
  %s11 = add i32 %s10, %c11
  ret i32 %s11
}
