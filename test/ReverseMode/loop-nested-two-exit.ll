; Tape shape of seed 002's nested: an outer loop around an unrotated inner
; reduction loop with two exits (i == n, or x[i] < 0). Combined mode, x and
; out noalias: x[i] and x[j] must be re-loaded (x is never written), so the
; inner loop caches nothing per iteration and the outer loop caches the inner
; exit value %s (+ the inner exit iteration and which exit was taken) once
; per outer iteration: O(n), allocated once in the preheader from the outer
; trip count; no lt.tape.grow / realloc anywhere.
;
; (Parameter attributes such as noalias must survive preprocessing for
; this; the test guards that.)
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output

declare double @llvm.sqrt.f64(double)

define void @nested(ptr noalias %out, ptr noalias %x, i64 %n) {
entry:
  br label %outer

outer:
  %j = phi i64 [ 0, %entry ], [ %j.next, %outer.latch ]
  %xj.p = getelementptr inbounds double, ptr %x, i64 %j
  %xj = load double, ptr %xj.p, align 8
  br label %inner

inner:
  %i = phi i64 [ 0, %outer ], [ %inc, %body ]
  %s = phi double [ %xj, %outer ], [ %add, %body ]
  %cmp = icmp slt i64 %i, %n
  br i1 %cmp, label %check, label %outer.latch

check:
  %gep = getelementptr inbounds double, ptr %x, i64 %i
  %ld = load double, ptr %gep, align 8
  %neg = fcmp olt double %ld, 0.000000e+00
  br i1 %neg, label %outer.latch, label %body

body:
  %mul = fmul double %ld, %ld
  %add = fadd double %s, %mul
  %inc = add nuw nsw i64 %i, 1
  br label %inner

outer.latch:
  %sq = call double @llvm.sqrt.f64(double %s)
  %res = fmul double %xj, %sq
  %o.p = getelementptr inbounds double, ptr %out, i64 %j
  store double %res, ptr %o.p, align 8
  %j.next = add nuw nsw i64 %j, 1
  %cmp2 = icmp slt i64 %j.next, %n
  br i1 %cmp2, label %outer, label %exit

exit:
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

define void @g_nested(ptr %out, ptr %dout, ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @nested, metadata !"enzyme_dup", ptr %out, ptr %dout, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @nested.lt.grad(
; CHECK-NEXT:  lt.pre:
; CHECK:         %lt.iters = call i64 @llvm.smax.i64(
; CHECK:         [[BUF:%.+]] = call ptr @lt.arena.push(i64 %lt.cachesize)
; CHECK-NEXT:    br label %outer
; CHECK:       outer:
; CHECK-NOT:     call
; CHECK:       inner:
; CHECK-NOT:     call
; CHECK-NOT:     store
; CHECK:       check:
; CHECK-NOT:     call
; CHECK-NOT:     store
; CHECK:       body:
; CHECK-NOT:     call
; CHECK-NOT:     store
; CHECK:       outer.latch:
; CHECK:         store double %s, ptr
; CHECK:       rev.outer.latch:
; CHECK-NOT:     @malloc
; CHECK-NOT:     @lt.tape.grow
; CHECK:         %lt.reload = load double
; CHECK-NOT:     @malloc
; CHECK-NOT:     @lt.tape.grow
; CHECK:         call void @lt.arena.pop(ptr [[BUF]])
; CHECK-NOT:     call void @free
; CHECK:         ret void
; CHECK:       }
; CHECK-NOT: @lt.tape.grow
