; Tape shape of a triangular nest (inner trip count i + 1 depends on the outer
; counter) with a value cached per inner iteration (the carried t of
; t = sin(t) * x[j]): the inner cache is allocated ONCE in the outermost
; preheader, for the iterations the nest runs: a loop before the nest sums
; the inner trip count i + 1 over the outer counter (n (n + 1) / 2 records
; of 8 bytes, where the product of the largest trip counts is n * n), and
; the allocation takes the least of the two. No lt.tape.grow, no allocation
; and no bounds check in either loop.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output

define double @tri(ptr noalias %x, i64 %n) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %acc = phi double [ 0.0, %entry ], [ %acc.next, %outer.latch ]
  %pi = getelementptr inbounds double, ptr %x, i64 %i
  %xi = load double, ptr %pi, align 8
  %i.next = add nuw nsw i64 %i, 1
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %t = phi double [ %xi, %outer ], [ %tn, %inner ]
  %pj = getelementptr inbounds double, ptr %x, i64 %j
  %xj = load double, ptr %pj, align 8
  %st = call double @sin(double %t)
  %tn = fmul double %st, %xj
  %j.next = add nuw nsw i64 %j, 1
  %cj = icmp ult i64 %j.next, %i.next
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %acc.next = fadd double %acc, %tn
  %ci = icmp ult i64 %i.next, %n
  br i1 %ci, label %outer, label %exit
exit:
  ret double %acc.next
}
declare double @sin(double)
declare void @__enzyme_autodiff(ptr, ...)

define void @g_tri(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @tri, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  ret void
}

; CHECK-LABEL: define internal void @tri.lt.grad(
; CHECK-NEXT:  lt.pre:
; CHECK-NEXT:    call void @lt.arena.enter(ptr {{.*}}@lt.arena.hint.
; CHECK:         [[PROD:%.+]] = mul i64 [[T1:%lt.trip[0-9]*]], [[T0:%lt.trip[0-9]*]]
; CHECK-NEXT:    br label %[[CNT:lt.count[0-9]*]]
; CHECK:       [[CNT]]:
; CHECK-NEXT:    [[SUM:%.+]] = phi i64 [ 0, %lt.pre ], [ [[NSUM:%.+]], %[[CNT]] ]
; CHECK-NEXT:    [[I:%.+]] = phi i64 [ 0, %lt.pre ], [ [[INEXT:%.+]], %[[CNT]] ]
; CHECK-NEXT:    [[INEXT]] = add i64 [[I]], 1
; CHECK-NEXT:    [[IT:%.+]] = call i64 @llvm.smax.i64(i64 [[I]], i64 0)
; CHECK-NEXT:    [[TI:%.+]] = add nuw i64 [[IT]], 1
; CHECK-NEXT:    [[NSUM]] = add i64 [[SUM]], [[TI]]
; CHECK-NEXT:    [[C:%.+]] = icmp slt i64 [[INEXT]], [[T0]]
; CHECK-NEXT:    br i1 [[C]], label %[[CNT]], label %[[DONE:.+]]
; CHECK:       [[DONE]]:
; CHECK-NEXT:    [[N:%.+]] = call i64 @llvm.umin.i64(i64 [[NSUM]], i64 [[PROD]])
; CHECK-NEXT:    %lt.cachesize = shl i64 [[N]], 3
; CHECK-NEXT:    [[BUF:%.+]] = call ptr @lt.arena.push(i64 %lt.cachesize)
; CHECK-NOT:     @malloc
; CHECK:         br label %outer
; CHECK:       outer:
; CHECK-NOT:     call
; CHECK:       inner:
; CHECK:         [[SLOT:%.+]] = getelementptr i8, ptr [[BUF]], i64
; CHECK-NEXT:    store double %t, ptr [[SLOT]]
; CHECK-NOT:     store
; CHECK-NOT:     @malloc
; CHECK-NOT:     @lt.tape.grow
; CHECK:         call double @sin(double %t)
; CHECK-NOT:     call
; CHECK:       outer.latch:
; CHECK-NOT:     call
; CHECK:         call void @llvm.experimental.noalias.scope.decl(
; CHECK-NEXT:    call void @llvm.experimental.noalias.scope.decl(
; CHECK-NEXT:    call void @llvm.experimental.noalias.scope.decl(
; CHECK-NOT:     call
; CHECK:       rev.outer.latch:
; CHECK-NOT:     @malloc
; CHECK-NOT:     @lt.tape.grow
; CHECK:         call void @lt.arena.pop(ptr [[BUF]])
; CHECK-NOT:     @malloc
; CHECK:       }
; CHECK-NOT: @lt.tape.grow
