; Tape shape of seed 002's mag: an unrotated reduction loop whose header PHI
; %s (the running sum) is used only after the loop exits. The reverse needs
; %s once (for sqrt'), never per iteration: it is a single value outside the
; loop (the last-iteration slot), stored once on exit.
;  - combined mode: x[i] is re-loaded, so the only tape value is that double,
;    which lives in registers: no malloc, no cache buffer, no lt.tape.grow.
;  - split mode: x may change between the halves, so x[i] cannot be re-loaded
;    and is cached per iteration (allocated once from the trip count); the
;    exit value %s still takes one 8-byte header slot, not a per-iteration one.
;    Header: loop count (8) + cache buffer (8) + %s (8) = 24 bytes.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output

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

declare double @__enzyme_autodiff(ptr, ...)
declare ptr @__enzyme_augmentfwd(ptr, ...)
declare void @__enzyme_reverse(ptr, ...)

define double @g_mag(ptr %x, ptr %dx, i64 %n) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @mag, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  ret double %r
}
; CHECK-LABEL: define ptr @a_mag(
; CHECK-NEXT:    [[T:%.+]] = call ptr @malloc(i64 24)
; CHECK-NEXT:    call void @mag.lt.aug{{.*}}(ptr %x, i64 %n, ptr %dx, ptr [[T]])
define ptr @a_mag(ptr %x, ptr %dx, i64 %n) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @mag, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  ret ptr %t
}
define void @r_mag(ptr %x, ptr %dx, i64 %n, ptr %t) {
  call void (ptr, ...) @__enzyme_reverse(ptr @mag, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n, double 1.0, ptr %t)
  ret void
}

; Combined: no allocation of any kind, x[i] re-loaded, sqrt(%s) from the
; forward's exit value.
; CHECK-LABEL: define internal void @mag.lt.grad(
; CHECK-NOT:     @malloc
; CHECK-NOT:     alloca
; CHECK-NOT:     @lt.tape.grow
; CHECK:       entry3:
; CHECK-NEXT:    call void @llvm.experimental.noalias.scope.decl(
; CHECK-NEXT:    call void @llvm.experimental.noalias.scope.decl(
; CHECK-NEXT:    call double @llvm.sqrt.f64(double %s)
; CHECK:       rev.back:
; CHECK:         %lt.reload = load double
; CHECK-NOT:     @free
; CHECK:         ret void
; CHECK-NEXT:  }

; Split, forward: one allocation in the entry ((n + 1) records of 8 bytes, one
; per header execution), only %ld stored in the loop; %s stored once at exit.
; CHECK-LABEL: define internal void @mag.lt.aug
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %lt.iters = call i64 @llvm.smax.i64(i64 %n, i64 0)
; CHECK-NEXT:    %lt.trip = shl i64 %lt.iters, 3
; CHECK-NEXT:    %lt.cachesize = add i64 %lt.trip, 8
; CHECK-NEXT:    [[BUF:%.+]] = call ptr @malloc(i64 %lt.cachesize)
; CHECK-NEXT:    br label %loop
; CHECK:       loop:
; CHECK-NOT:     store
; CHECK-NOT:     call
; CHECK:       body:
; CHECK:         store double %ld
; CHECK-NOT:     store
; CHECK:       exit:
; CHECK-NEXT:    [[SS:%.+]] = getelementptr i8, ptr %tape, i64 16
; CHECK-NEXT:    store double %s, ptr [[SS]]
; CHECK-NEXT:    store i64 {{%.+}}, ptr %tape
; CHECK-NEXT:    [[SB:%.+]] = getelementptr i8, ptr %tape, i64 8
; CHECK-NEXT:    store ptr [[BUF]], ptr [[SB]]
; CHECK-NEXT:    ret void

; Split, reverse: %s comes from the header, read once before the loop.
; CHECK-LABEL: define internal void @mag.lt.rev
; CHECK:         [[S:%.+]] = getelementptr i8, ptr %tape, i64 16
; CHECK-NEXT:    [[SV:%.+]] = load double, ptr [[S]]
; CHECK-NEXT:    call double @llvm.sqrt.f64(double [[SV]])
; CHECK:       rev.loop:
; CHECK-NOT:     %tape
; CHECK:       rev.enter:
; CHECK-NEXT:    call void @free(
; CHECK-NEXT:    call void @free(ptr nonnull %tape)
; CHECK-NOT: @lt.tape.grow
