; Trip counts (header executions, i64) from the exit test, and their IR.
; RUN: %ltopt -passes='print<leantape-induction>' -disable-output %s 2>&1 | FileCheck %s
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"

; Rotated (do-while, as clang -O2 makes it): the latch tests i.next < n and
; the body runs at least once: T = max(n - 1, 0) + 1.
; CHECK-LABEL: leantape-induction: function @rotated
; CHECK-NEXT:   loop %body depth 1
; CHECK-NEXT:     phi %i: counter start 0 step 1
; CHECK-NEXT:     trip count: exit test %c, continue while next slt %n, start 0 step 1
; CHECK-NEXT:       %lt.dist = sub i64 %n, 1
; CHECK-NEXT:       %lt.pos = icmp sgt i64 %lt.dist, 0
; CHECK-NEXT:       %lt.iters = select i1 %lt.pos, i64 %lt.dist, i64 0
; CHECK-NEXT:       %lt.trip = add i64 %lt.iters, 1
; CHECK-NEXT:       result %lt.trip
define void @rotated(i64 %n) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; Unrotated (while): the header tests i < n and exits on false; the header
; runs once more than the body: T = max(n, 0) + 1.
; CHECK-LABEL: leantape-induction: function @while_form
; CHECK-NEXT:   loop %head depth 1
; CHECK-NEXT:     phi %i: counter start 0 step 1
; CHECK-NEXT:     trip count: exit test %c, continue while phi slt %n, start 0 step 1
; CHECK-NEXT:       %lt.pos = icmp sgt i64 %n, 0
; CHECK-NEXT:       %lt.iters = select i1 %lt.pos, i64 %n, i64 0
; CHECK-NEXT:       %lt.trip = add i64 %lt.iters, 1
define void @while_form(i64 %n) {
entry:
  br label %head
head:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %c = icmp slt i64 %i, %n
  br i1 %c, label %body, label %exit
body:
  %i.next = add nsw i64 %i, 1
  br label %head
exit:
  ret void
}

; The exit is the true successor and the bound is on the left:
; `n <= i` exits, i.e. continue while i < n; i32 counter, step 2, start 1.
; T = ceil(max(n - 1, 0) / 2) + 1.
; CHECK-LABEL: leantape-induction: function @step2_swapped
; CHECK-NEXT:   loop %head depth 1
; CHECK-NEXT:     phi %i: counter start 1 step 2
; CHECK-NEXT:     trip count: exit test %c, continue while phi slt %n, start 1 step 2
; CHECK-NEXT:       %lt.bound = sext i32 %n to i64
; CHECK-NEXT:       %lt.dist = sub i64 %lt.bound, 1
; CHECK-NEXT:       %lt.round = add i64 %lt.dist, 1
; CHECK-NEXT:       %lt.div = sdiv i64 %lt.round, 2
; CHECK-NEXT:       %lt.pos = icmp sgt i64 %lt.div, 0
define void @step2_swapped(i32 %n) {
entry:
  br label %head
head:
  %i = phi i32 [ 1, %entry ], [ %i.next, %body ]
  %c = icmp sle i32 %n, %i
  br i1 %c, label %exit, label %body
body:
  %i.next = add nsw i32 %i, 2
  br label %head
exit:
  ret void
}

; Downwards: for (i = n - 1; i >= 0; i--), rotated, test on the PHI in the
; latch: continue while i > 0 ... T = max(start, 0) + 1 = n when n >= 1.
; CHECK-LABEL: leantape-induction: function @downwards
; CHECK-NEXT:   loop %body depth 1
; CHECK-NEXT:     phi %i: counter start %start step -1
; CHECK-NEXT:     trip count: exit test %c, continue while phi sgt 0, start %start step -1
; CHECK-NEXT:       %lt.pos = icmp sgt i64 %start, 0
; CHECK-NEXT:       %lt.iters = select i1 %lt.pos, i64 %start, i64 0
; CHECK-NEXT:       %lt.trip = add i64 %lt.iters, 1
define void @downwards(i64 %n) {
entry:
  %start = add nsw i64 %n, -1
  br label %body
body:
  %i = phi i64 [ %start, %entry ], [ %i.next, %body ]
  %i.next = add nsw i64 %i, -1
  %c = icmp sgt i64 %i, 0
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; Unsigned, inclusive, on the next value: do { } while (++i <= n).
; CHECK-LABEL: leantape-induction: function @unsigned_inclusive
; CHECK:          trip count: exit test %c, continue while next ule %n, start %s step 1
; CHECK-NEXT:       %lt.start = zext i32 %s to i64
; CHECK-NEXT:       %lt.bound = zext i32 %n to i64
; CHECK-NEXT:       %lt.first = add i64 %lt.start, 1
; CHECK-NEXT:       %lt.dist = sub i64 %lt.bound, %lt.first
; CHECK-NEXT:       %lt.dist.incl = add i64 %lt.dist, 1
define void @unsigned_inclusive(i32 %s, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ %s, %entry ], [ %i.next, %body ]
  %i.next = add nuw i32 %i, 1
  %c = icmp ule i32 %i.next, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; A data-dependent exit (while (x > eps)): unknown.
; CHECK-LABEL: leantape-induction: function @data_dependent
; CHECK-NEXT:   loop %body depth 1
; CHECK-NEXT:     phi %x: other
; CHECK-NEXT:     phi %it: counter start 0 step 1
; CHECK-NEXT:     trip count: unknown
define i64 @data_dependent(double %x0) {
entry:
  br label %body
body:
  %x = phi double [ %x0, %entry ], [ %x.next, %body ]
  %it = phi i64 [ 0, %entry ], [ %it.next, %body ]
  %x.next = fmul double %x, 5.000000e-01
  %it.next = add i64 %it, 1
  %c = fcmp ogt double %x.next, 1.000000e-03
  br i1 %c, label %body, label %exit
exit:
  ret i64 %it.next
}

; Two exiting blocks (break): only known at exit, so unknown at entry.
; CHECK-LABEL: leantape-induction: function @with_break
; CHECK-NEXT:   loop %body depth 1
; CHECK-NEXT:     phi %i: counter start 0 step 1
; CHECK-NEXT:     trip count: unknown
define void @with_break(ptr %a, i64 %n) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %x = load double, ptr %p
  %neg = fcmp olt double %x, 0.0
  br i1 %neg, label %exit, label %latch
latch:
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; A counter moving away from its bound never stops by this test: unknown.
; CHECK-LABEL: leantape-induction: function @wrong_direction
; CHECK:          trip count: unknown
define void @wrong_direction(i64 %n) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %i.next = add i64 %i, -1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}
