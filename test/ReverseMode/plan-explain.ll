; -leantape-explain: besides the tape report, one remark per taped value,
; at the value, with the reason its plan record gives. Without the option
; there is none (the report alone).
;   - @inplace: x[i] is read, then overwritten by the same loop: taped per
;     iteration because its memory changes before the reverse pass;
;   - @rec: s = s * sin(x[i]), a PHI the reverse cannot redo: taped;
;   - @split: a read in split mode, and the caller writes x between the
;     halves.
; RUN: %ltopt -passes=leantape -leantape-explain -pass-remarks-analysis=leantape -disable-output %s 2>&1 | FileCheck %s
; RUN: %ltopt -passes=leantape -pass-remarks-analysis=leantape -disable-output %s 2>&1 | FileCheck %s --check-prefix=QUIET
; CHECK: remark: {{.*}}loop %loop (depth 1) in 'inplace': caches 8 bytes per iteration: %v (double)
; CHECK: remark: {{.*}}%v (double) is taped once per iteration of loop %loop in 'inplace': its memory may be written before the reverse pass reads it
; CHECK: remark: {{.*}}loop %loop (depth 1) in 'rec': caches 8 bytes per iteration: %s (double)
; CHECK: remark: {{.*}}%s (double) is taped once per iteration of loop %loop in 'rec': the reverse pass cannot compute it again (a PHI, or a call with effects)
; CHECK: remark: {{.*}}derivative of 'split' (split mode): 8 bytes of values outside loops: %v (double)
; CHECK: remark: {{.*}}%v (double) is taped once in 'split': split mode: the caller may write its memory between __enzyme_augmentfwd and __enzyme_reverse
; QUIET-NOT: is taped

define void @inplace(ptr %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inc, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %sq = fmul double %v, %v
  store double %sq, ptr %p, align 8
  %inc = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %inc, %n
  br i1 %c, label %loop, label %exit
exit:
  ret void
}

define double @rec(ptr noalias %x, i64 %n) {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %inc, %loop ]
  %s = phi double [ 1.0, %entry ], [ %m, %loop ]
  %p = getelementptr inbounds double, ptr %x, i64 %i
  %v = load double, ptr %p, align 8
  %sv = call double @llvm.sin.f64(double %v)
  %m = fmul double %s, %sv
  %inc = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %inc, %n
  br i1 %c, label %loop, label %exit
exit:
  ret double %m
}

define double @split(ptr %x) {
  %v = load double, ptr %x, align 8
  %sq = fmul double %v, %v
  ret double %sq
}

declare double @llvm.sin.f64(double)
declare void @__enzyme_autodiff(ptr, ...)
declare ptr @__enzyme_augmentfwd(ptr, ...)
declare double @__enzyme_reverse(ptr, ...)

define void @test(ptr %x, ptr %dx, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @inplace, ptr %x, ptr %dx, i64 %n)
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @rec, ptr %x, ptr %dx, i64 %n)
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @split, ptr %x, ptr %dx)
  store double 2.0, ptr %x, align 8
  call double (ptr, ...) @__enzyme_reverse(ptr @split, ptr %x, ptr %dx, double 1.0, ptr %t)
  ret void
}
