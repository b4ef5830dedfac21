; Tape shape of seed 002's normalize, whose O(n) loop calls mag and nested
; (both inlined by preprocessing). Combined mode, all pointers noalias, x
; never written: mag's reduction caches nothing per iteration (x[i] re-loaded)
; and its exit value %s is ONE double per normalize iteration, so the mag part
; of the tape is O(n), never O(n^2) (seed 002: 2 GB at n = 16000 when every
; iteration of the running sum was kept). nested's outer loop legitimately
; keeps its exit value per (normalize, outer) iteration pair, preallocated once;
; no inner loop caches anything, nothing grows.
;
; (Parameter attributes such as noalias must survive preprocessing for
; this; the test guards that.)
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -pass-remarks-analysis=leantape -disable-output %s 2>&1 | FileCheck %s --check-prefix=REMARK

declare double @llvm.sqrt.f64(double)

define double @mag(ptr noalias %x, i64 %n) {
entry:
  br label %loop

loop:
  %i = phi i64 [ 0, %entry ], [ %inc, %body ]
  %s = phi double [ 0.000000e+00, %entry ], [ %add, %body ]
  %cmp = icmp slt i64 %i, %n
  br i1 %cmp, label %body, label %exit

body:
  %gep = getelementptr inbounds double, ptr %x, i64 %i
  %ld = load double, ptr %gep, align 8
  %mul = fmul double %ld, %ld
  %add = fadd double %s, %mul
  %inc = add nuw nsw i64 %i, 1
  br label %loop

exit:
  %r = call double @llvm.sqrt.f64(double %s)
  ret double %r
}
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
define void @normalize(ptr noalias %out2, ptr noalias %out, ptr noalias %x, i64 %n) {
entry:
  br label %loop

loop:
  %j = phi i64 [ 0, %entry ], [ %j.next, %loop ]
  %m = call double @mag(ptr %x, i64 %n)
  call void @nested(ptr %out2, ptr %x, i64 %n)
  %xj.p = getelementptr inbounds double, ptr %x, i64 %j
  %xj = load double, ptr %xj.p, align 8
  %div = fdiv double %xj, %m
  %o.p = getelementptr inbounds double, ptr %out, i64 %j
  store double %div, ptr %o.p, align 8
  %j.next = add nuw nsw i64 %j, 1
  %cmp = icmp slt i64 %j.next, %n
  br i1 %cmp, label %loop, label %exit

exit:
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)

define void @g_normalize(ptr %out2, ptr %dout2, ptr %out, ptr %dout, ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @normalize, metadata !"enzyme_dup", ptr %out2, ptr %dout2, metadata !"enzyme_dup", ptr %out, ptr %dout, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  ret void
}

; Exactly two allocations, both in the entry, from the arena: the normalize loop's cache
; (trip * 8: mag's exit value) and nested's outer cache (trip * trip * record).
; CHECK-LABEL: define internal void @normalize.lt.grad(
; CHECK-NEXT:  lt.pre:
; CHECK-NEXT:    call void @lt.arena.enter(ptr {{.*}}@lt.arena.hint.
; CHECK-NEXT:    %lt.dist = add i64 %n, -1
; CHECK-NEXT:    %lt.iters = call i64 @llvm.smax.i64(i64 %lt.dist, i64 0)
; CHECK-NEXT:    %lt.trip = add nuw i64 %lt.iters, 1
; CHECK-NEXT:    %lt.cachesize = shl i64 %lt.trip, 3
; CHECK-NEXT:    [[MAGBUF:%.+]] = call ptr @lt.arena.push(i64 %lt.cachesize)
; CHECK-NEXT:    [[NN:%.+]] = mul i64 %lt.trip, %lt.trip
; CHECK-NEXT:    [[SZ:%.+]] = mul i64 [[NN]], {{[0-9]+}}
; CHECK-NEXT:    [[NESTBUF:%.+]] = call ptr @lt.arena.push(i64 [[SZ]])
; CHECK-NEXT:    br label
; CHECK-NOT:     @malloc
; CHECK-NOT:     @lt.tape.grow
; Released last in first out (gen/arena.c), then the gradient's own size
; hint for the arena's next first chunk.
; CHECK:         call void @lt.arena.pop(ptr [[NESTBUF]])
; CHECK-NEXT:    call void @lt.arena.pop(ptr [[MAGBUF]])
; CHECK-NEXT:    call void @lt.arena.leave(ptr {{.*}}@lt.arena.hint.normalize.lt.grad)
; CHECK-NOT:     @malloc
; CHECK:       }
; CHECK-NOT: @lt.tape.grow

; REMARK: derivative of 'normalize' (combined mode): 0 bytes of values outside loops
; REMARK-SAME: 4 loop(s)
; REMARK-NEXT: loop {{.*}} (depth 1) in 'normalize': caches 8 bytes per iteration: %s.lcssa (double);
; REMARK-SAME: cache preallocated once from the trip count
; REMARK-NEXT: loop %loop2 (depth 2) in 'normalize': caches nothing per iteration;
; REMARK-NEXT: loop %outer (depth 2) in 'normalize': caches {{[0-9]+}} bytes per iteration:
; REMARK-SAME: cache preallocated once from the trip count
; REMARK-NEXT: loop %inner (depth 3) in 'normalize': caches nothing per iteration;
; REMARK-NOT: grows
