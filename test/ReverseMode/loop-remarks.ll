; The tape report (optimisation analysis remarks) for loops: a sum that
; caches nothing, seed 002's mag whose exit value is one double outside the
; loop, a recurrence that caches one double per iteration in a cache
; preallocated from the trip count, and a while loop whose cache grows.
; RUN: %ltopt -passes=leantape -pass-remarks-analysis=leantape -disable-output %s 2>&1 | FileCheck %s

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
declare double @sin(double)
declare double @llvm.sqrt.f64(double)
declare double @llvm.fabs.f64(double)
declare void @__enzyme_autodiff(ptr, ...)

define void @g(ptr %x, ptr %dx, double %a, i64 %n) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @sum, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  call void (ptr, ...) @__enzyme_autodiff(ptr @mag, metadata !"enzyme_dup", ptr %x, ptr %dx, i64 %n)
  call void (ptr, ...) @__enzyme_autodiff(ptr @rec, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_out", double %a, i64 %n)
  call void (ptr, ...) @__enzyme_autodiff(ptr @newton, metadata !"enzyme_out", double %a)
  ret void
}

; CHECK: remark: {{.*}}derivative of 'sum' (combined mode): 0 bytes of values outside loops; 0 recomputed, 0 re-loaded, 1 from loop counters; 1 loop(s)
; CHECK-NEXT: remark: {{.*}}loop %loop (depth 1) in 'sum': caches nothing per iteration; 0 recomputed, 0 re-loaded, 1 from loop counters{{$}}
; CHECK-NEXT: remark: {{.*}}derivative of 'mag' (combined mode): 8 bytes of values outside loops: %s.lcssa (double);
; CHECK-NEXT: remark: {{.*}}loop %loop (depth 1) in 'mag': caches nothing per iteration; 1 recomputed, 1 re-loaded, 1 from loop counters{{$}}
; CHECK-NEXT: remark: {{.*}}derivative of 'rec' (combined mode): 0 bytes of values outside loops;
; CHECK-NEXT: remark: {{.*}}loop %loop (depth 1) in 'rec': caches 8 bytes per iteration: %s (double); 2 recomputed, 1 re-loaded, 1 from loop counters; cache preallocated once from the trip count{{$}}
; CHECK-NEXT: remark: {{.*}}derivative of 'newton' (combined mode): 8 bytes of values outside loops: %lt.ivx (i64);
; CHECK-NEXT: remark: {{.*}}loop %loop (depth 1) in 'newton': caches 8 bytes per iteration: %y (double); {{.*}}; cache grows geometrically (trip count not known before the loop nest){{$}}
; CHECK-NOT: remark
