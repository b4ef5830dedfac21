; Tape shape of calls that stay calls (combined mode):
; (a) @rec is recursive, so its call from @f inside a counted loop is kept:
;     @rec gets its own augmented forward @rec.lt.aug and reverse
;     @rec.lt.rev. In @f.lt.grad the loop cache is allocated once before
;     the loop from the trip count (no malloc inside the loop) and each
;     iteration's record holds @rec's tape in place (a pointer into the
;     cache, not a heap block of its own, and no free inside the reverse
;     loop); the cache is freed once. Inside @rec the recursive call's tape
;     is a pointer slot: taken from the last-in first-out arena in
;     @rec.lt.aug before the recursive call (under __enzyme_autodiff the
;     reverse pass releases tapes in the opposite order, so no malloc per
;     activation), stored in the tape, loaded, passed on and given back to
;     the arena in @rec.lt.rev.
; (b) @cg has a registered custom gradient whose augmented function
;     returns {[2 x double] tape, double result}: a fixed-size tape. In
;     @h (straight-line) it stays in registers and is passed to @cg_grad by
;     value, no allocation; in the loop of @hl it is stored into the
;     preallocated per-iteration record and loaded back in the reverse
;     loop.
; main checks the gradients (the custom gradient reads the tape, so a
; wrong delivery shows in the values).
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -disable-output -pass-remarks-analysis=leantape %s 2>&1 | FileCheck %s --check-prefix=REMARK
; RUN: %ltopt -passes=leantape %s -S -o %t.ll && lli %t.ll

; CHECK-NOT: call {{.*}}@__enzyme_autodiff

; rec(x, k) = k <= 0 ? x : x * rec(x, k - 1)
define double @rec(double %x, i32 %k) {
entry:
  %c = icmp sle i32 %k, 0
  br i1 %c, label %base, label %step
base:
  ret double %x
step:
  %k1 = sub i32 %k, 1
  %r = call double @rec(double %x, i32 %k1)
  %m = fmul double %x, %r
  ret double %m
}

; f(x, n) = sum_i rec(x[i], 2) = sum_i x[i]^3
define double @f(ptr noalias %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inc, %loop ]
  %s = phi double [ 0.0, %entry ], [ %add, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %r = call double @rec(double %v, i32 2)
  %add = fadd double %s, %r
  %inc = add nuw nsw i64 %i, 1
  %cmp = icmp slt i64 %inc, %n
  br i1 %cmp, label %loop, label %exit
exit:
  ret double %add
}

; cg(x) = x^2; the augmented function keeps {x, x} on its tape and the
; gradient returns (tape[0] + tape[1]) * dret = 2x dret.
%aug.ret = type { [2 x double], double }
define double @cg(double %x) {
  %m = fmul double %x, %x
  ret double %m
}
define %aug.ret @cg_aug(double %x) {
  %m = fmul double %x, %x
  %t0 = insertvalue [2 x double] poison, double %x, 0
  %t1 = insertvalue [2 x double] %t0, double %x, 1
  %r0 = insertvalue %aug.ret poison, [2 x double] %t1, 0
  %r1 = insertvalue %aug.ret %r0, double %m, 1
  ret %aug.ret %r1
}
define double @cg_grad(double %x, double %dret, [2 x double] %tape) {
  %a = extractvalue [2 x double] %tape, 0
  %b = extractvalue [2 x double] %tape, 1
  %s = fadd double %a, %b
  %d = fmul double %s, %dret
  ret double %d
}
@__enzyme_register_gradient_cg = global [3 x ptr] [ptr @cg, ptr @cg_aug, ptr @cg_grad]

; h(x) = sin(cg(x))
define double @h(double %x) {
  %a = call double @cg(double %x)
  %b = call double @sin(double %a)
  ret double %b
}
; hl(x, n) = sum_i sin(cg(x[i]))
define double @hl(ptr noalias %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inc, %loop ]
  %s = phi double [ 0.0, %entry ], [ %add, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %a = call double @cg(double %v)
  %b = call double @sin(double %a)
  %add = fadd double %s, %b
  %inc = add nuw nsw i64 %i, 1
  %cmp = icmp slt i64 %inc, %n
  br i1 %cmp, label %loop, label %exit
exit:
  ret double %add
}
declare double @sin(double)
declare double @cos(double)
declare double @llvm.fabs.f64(double)
declare double @__enzyme_autodiff(ptr, ...)

define void @g_f(ptr %x, ptr %dx, i64 %n) {
  call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  ret void
}
define double @g_h(double %x) {
  %d = call double (ptr, ...) @__enzyme_autodiff(ptr @h, double %x)
  ret double %d
}
define void @g_hl(ptr %x, ptr %dx, i64 %n) {
  call double (ptr, ...) @__enzyme_autodiff(ptr @hl, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  ret void
}

; (a) the recursive callee: its recursive call's tape is an arena block
; whose pointer is kept in a tape slot.
; CHECK-LABEL: define internal double @rec.lt.aug(double %x, i32 %k, ptr %tape)
; CHECK-NOT:     @malloc
; CHECK:         [[SUB:%.+]] = call ptr @lt.arena.push(i64
; CHECK-NEXT:    [[PSLOT:%.+]] = getelementptr i8, ptr %tape, i64 {{[0-9]+}}
; CHECK-NEXT:    store ptr [[SUB]], ptr [[PSLOT]]
; CHECK-NEXT:    call double @rec.lt.aug(double %x, i32 {{%.+}}, ptr [[SUB]])
; CHECK-NOT:     @free
; CHECK-LABEL: define internal double @rec.lt.rev(double %x, i32 %k, double %0, ptr %tape)
; CHECK-NOT:     @malloc
; CHECK:         [[Q:%.+]] = getelementptr i8, ptr %tape, i64 {{[0-9]+}}
; CHECK-NEXT:    [[SUBR:%.+]] = load ptr, ptr [[Q]]
; CHECK:         call double @rec.lt.rev(double %x, i32 {{%.+}}, double {{%.+}}, ptr [[SUBR]])
; CHECK-NEXT:    call void @lt.arena.pop(ptr [[SUBR]])

; (a) the caller: one allocation before the loop, none inside; @rec's
; tape in place in the per-iteration record, which holds nothing else:
; x[i] is read again in the reverse loop, since @rec writes no memory
; (purity.c) and nothing else after the load writes x; one free after
; the reverse.
; CHECK-LABEL: define internal void @f.lt.grad(
; CHECK-NEXT:  lt.pre:
; CHECK:         [[CACHE:%.+]] = call ptr @lt.arena.push(i64 %lt.cachesize)
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NOT:     @malloc
; CHECK-NOT:     @lt.tape.grow
; CHECK-NOT:     store
; CHECK:         [[OFF:%.+]] = shl i64 {{%.+}}, 4
; CHECK-NEXT:    [[SLOT:%.+]] = getelementptr i8, ptr [[CACHE]], i64 [[OFF]]
; CHECK-NEXT:    call double @rec.lt.aug(double %v, i32 2, ptr [[SLOT]])
; CHECK-NOT:     @malloc
; CHECK-NOT:     store
; CHECK:       rev.loop:
; CHECK-NOT:     @free
; CHECK:         [[RV:%.+]] = load double, ptr {{%.+}}
; CHECK:         [[RSLOT:%.+]] = getelementptr i8, ptr [[CACHE]], i64 {{%.+}}
; CHECK-NEXT:    call double @rec.lt.rev(double [[RV]], i32 2, double %1, ptr [[RSLOT]])
; CHECK-NOT:     @free
; CHECK:       rev.enter:
; CHECK-NEXT:    call void @lt.arena.pop(ptr [[CACHE]])
; CHECK-NEXT:    call void @lt.arena.leave(ptr {{.*}}@lt.arena.hint.f.lt.grad)
; CHECK-NEXT:    ret void

; (b) straight-line: the fixed-size custom tape goes from @cg_aug to
; @cg_grad in registers.
; CHECK-LABEL: define internal double @h.lt.grad(double %x, double %0)
; CHECK-NOT:     @malloc
; CHECK-NOT:     alloca
; CHECK:         [[AUG:%.+]] = call %aug.ret @cg_aug(double %x)
; CHECK-NEXT:    [[T:%.+]] = extractvalue %aug.ret [[AUG]], 0
; CHECK-NOT:     store
; CHECK:         call double @cg_grad(double %x, double {{%.+}}, [2 x double] [[T]])
; CHECK-NOT:     @free
; CHECK:         ret double

; (b) in a loop: the tape goes into the preallocated record (both of its
; doubles) and comes back from it.
; CHECK-LABEL: define internal void @hl.lt.grad(
; CHECK-NEXT:  lt.pre:
; CHECK:         [[HC:%.+]] = call ptr @lt.arena.push(i64 %lt.cachesize)
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NOT:     @malloc
; CHECK:         [[HA:%.+]] = call %aug.ret @cg_aug(double %v)
; CHECK-NEXT:    [[HT:%.+]] = extractvalue %aug.ret [[HA]], 0
; CHECK-NOT:     @malloc
; CHECK:         [[E0:%.+]] = extractvalue [2 x double] [[HT]], 0
; CHECK-NEXT:    store double [[E0]], ptr
; CHECK:         [[E1:%.+]] = extractvalue [2 x double] [[HT]], 1
; CHECK-NEXT:    store double [[E1]], ptr
; CHECK-NOT:     @malloc
; CHECK:       rev.loop:
; CHECK-NOT:     @free
; CHECK:         call double @cg_grad(double {{%.+}}, double {{%.+}}, [2 x double] {{%.+}})
; CHECK-NOT:     @free
; CHECK:       rev.enter:
; CHECK-NEXT:    call void @lt.arena.pop(ptr [[HC]])
; CHECK-NEXT:    call void @lt.arena.leave(ptr {{.*}}@lt.arena.hint.hl.lt.grad)
; CHECK-NEXT:    ret void

; The remarks say the same.
; REMARK: derivative of 'rec' ({{[a-z]+}} mode): {{.*}}tape of the call to 'rec' (a pointer to it on the heap)
; REMARK: loop %loop (depth 1) in 'f': caches {{[0-9]+}} bytes per iteration: {{.*}}tape of the call to 'rec' (16 bytes in place){{.*}}; cache preallocated once from the trip count
; REMARK: derivative of 'h' (combined mode): {{.*}}tape of the custom derivative of 'cg'
; REMARK: loop %loop (depth 1) in 'hl': caches {{[0-9]+}} bytes per iteration: {{.*}}tape of the custom derivative of 'cg'{{.*}}; cache preallocated once from the trip count

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

; x = {0.5, -1.25, 2}:
;   f:  dx_i = 3 x_i^2               = {0.75, 4.6875, 12}
;   h:  d/dx sin(x^2) at 0.7         = 1.4 cos(0.49)
;   hl: dx_i += 2 x_i cos(x_i^2) (on top of f's, dx not reset)
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
  call void @g_f(ptr %x, ptr %dx, i64 3)
  %a0 = load double, ptr %dx
  %a1 = load double, ptr %dx1
  %a2 = load double, ptr %dx2
  %c0 = call i32 @check(double %a0, double 0.75)
  %c1 = call i32 @check(double %a1, double 4.6875)
  %c2 = call i32 @check(double %a2, double 12.0)
  %dh = call double @g_h(double 0.7)
  %k = call double @cos(double 0.49)
  %wh = fmul double %k, 1.4
  %c3 = call i32 @check(double %dh, double %wh)
  call void @g_hl(ptr %x, ptr %dx, i64 3)
  %k0 = call double @cos(double 0.25)
  %k1 = call double @cos(double 1.5625)
  %k2 = call double @cos(double 4.0)
  %m0 = fmul double %k0, 1.0
  %m1 = fmul double %k1, -2.5
  %m2 = fmul double %k2, 4.0
  %w0 = fadd double %m0, 0.75
  %w1 = fadd double %m1, 4.6875
  %w2 = fadd double %m2, 12.0
  %b0 = load double, ptr %dx
  %b1 = load double, ptr %dx1
  %b2 = load double, ptr %dx2
  %c4 = call i32 @check(double %b0, double %w0)
  %c5 = call i32 @check(double %b1, double %w1)
  %c6 = call i32 @check(double %b2, double %w2)
  %s1 = add i32 %c0, %c1
  %s2 = add i32 %s1, %c2
  %s3 = add i32 %s2, %c3
  %s4 = add i32 %s3, %c4
  %s5 = add i32 %s4, %c5
  %s6 = add i32 %s5, %c6
  ret i32 %s6
}
