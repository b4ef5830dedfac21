; Header PHIs: the canonical counter, other counters (affine in it), others.
; RUN: %ltopt -passes='print<leantape-induction>' -disable-output %s 2>&1 | FileCheck %s
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"

; CHECK-LABEL: leantape-induction: function @two_counters
; CHECK-NEXT:   loop %body depth 1
; CHECK-NEXT:     phi %i: counter start 0 step 1
; CHECK-NEXT:     phi %k: affine 2*{%body} + 1
; CHECK-NEXT:     phi %down: affine %n - 3*{%body}
; CHECK-NEXT:     phi %s: other
; CHECK-NEXT:     phi %geo: other
; CHECK-NEXT:     trip count: exit test %c, continue while next slt %n, start 0 step 1
define double @two_counters(i64 %n) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %k = phi i64 [ 1, %entry ], [ %k.next, %body ]
  %down = phi i64 [ %n, %entry ], [ %down.next, %body ]
  %s = phi double [ 0.0, %entry ], [ %s.next, %body ]
  %geo = phi i64 [ 1, %entry ], [ %geo.next, %body ]
  %s.next = fadd double %s, 1.0
  %k.next = add i64 2, %k
  %down.next = sub i64 %down, 3
  %geo.next = mul i64 %geo, 2
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %body, label %exit
exit:
  ret double %s.next
}

; A PHI whose start varies inside the loop is not a counter; one whose step
; is invariant but not a constant counts trips but is not affine.
; CHECK-LABEL: leantape-induction: function @not_counters
; CHECK-NEXT:   loop %body depth 1
; CHECK-NEXT:     phi %v: counter start 0 step %m (not affine)
; CHECK-NEXT:     phi %i: counter start 0 step 1
; CHECK-NEXT:     trip count: exit test %c, continue while next ne %n, start 0 step 1
define void @not_counters(i64 %n, i64 %m) {
entry:
  br label %body
body:
  %v = phi i64 [ 0, %entry ], [ %v.next, %body ]
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %v.next = add i64 %v, %m
  %i.next = add i64 %i, 1
  %c = icmp ne i64 %i.next, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; Nested counters: the inner counter starts at the outer one (triangular).
; CHECK-LABEL: leantape-induction: function @triangular
; CHECK-NEXT:   loop %outer depth 1
; CHECK-NEXT:     phi %i: counter start 0 step 1
; CHECK-NEXT:     trip count: exit test %ci, continue while phi slt %n, start 0 step 1
; CHECK:        loop %inner depth 2
; CHECK-NEXT:     phi %j: counter start %i step 1
; CHECK-NEXT:     trip count: exit test %cj, continue while phi slt %n, start %i step 1
; CHECK-NEXT:       %lt.dist = sub i64 %n, %i
; CHECK:        gep %p: %a + 8*{%outer} + 8*{%inner}
define void @triangular(ptr %a, i64 %n) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %ci = icmp slt i64 %i, %n
  br i1 %ci, label %inner.pre, label %exit
inner.pre:
  br label %inner
inner:
  %j = phi i64 [ %i, %inner.pre ], [ %j.next, %inner.body ]
  %cj = icmp slt i64 %j, %n
  br i1 %cj, label %inner.body, label %outer.latch
inner.body:
  %p = getelementptr inbounds double, ptr %a, i64 %j
  store double 0.0, ptr %p
  %j.next = add nsw i64 %j, 1
  br label %inner
outer.latch:
  %i.next = add nsw i64 %i, 1
  br label %outer
exit:
  ret void
}
