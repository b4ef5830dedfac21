; Affine forms of GEPs (byte offsets) over loop iteration numbers {header}
; and values invariant in the GEP's loop.
; RUN: %ltopt -passes='print<leantape-induction>' -disable-output %s 2>&1 | FileCheck %s
target datalayout = "e-m:e-i64:64-f80:128-n8:16:32:64-S128"

%pair = type { i32, double }

; a[i], a[2*i+1] (shl + or disjoint, as clang -O2 writes it), s[i].y,
; m[i][3] on a 2-D array, a[b[i]] (unknown), a GEP outside loops.
; CHECK-LABEL: leantape-induction: function @one_loop
; CHECK:        gep %p0: %a + 8
; CHECK-NEXT:   gep %pi: %a + 8*{%body}
; CHECK-NEXT:   gep %p2i1: %a + 16*{%body} + 8
; CHECK-NEXT:   gep %py: %s + 16*{%body} + 8
; CHECK-NEXT:   gep %pm: %m + 40*{%body} + 12
; CHECK-NEXT:   gep %pb: %b + 4*{%body}
; CHECK-NEXT:   gep %pind: unknown
define void @one_loop(ptr %a, ptr %s, ptr %m, ptr %b, i64 %n) {
entry:
  %p0 = getelementptr inbounds double, ptr %a, i64 1
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %body ]
  %pi = getelementptr inbounds double, ptr %a, i64 %i
  %two = shl nuw nsw i64 %i, 1
  %odd = or disjoint i64 %two, 1
  %p2i1 = getelementptr inbounds double, ptr %a, i64 %odd
  %py = getelementptr inbounds %pair, ptr %s, i64 %i, i32 1
  %pm = getelementptr inbounds [10 x i32], ptr %m, i64 %i, i64 3
  %pb = getelementptr inbounds i32, ptr %b, i64 %i
  %bi = load i32, ptr %pb
  %bx = sext i32 %bi to i64
  %pind = getelementptr inbounds double, ptr %a, i64 %bx
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; a[i*n + j] with i32 counters sign-extended: i*n is not affine with a
; constant coefficient, but it is invariant in the inner loop, so it stays
; whole there (sext is looked through); in the outer loop (where it varies) the GEP is unknown.
; CHECK-LABEL: leantape-induction: function @row_major
; CHECK:        gep %prow: unknown
; CHECK-NEXT:   gep %pij: %a + 8*%row + 8*{%inner}
define void @row_major(ptr %a, i32 %n) {
entry:
  br label %outer
outer:
  %i = phi i32 [ 0, %entry ], [ %i.next, %outer.latch ]
  %row = mul nsw i32 %i, %n
  %rown = sext i32 %row to i64
  %prow = getelementptr inbounds double, ptr %a, i64 %rown
  br label %inner
inner:
  %j = phi i32 [ 0, %outer ], [ %j.next, %inner ]
  %je = zext i32 %j to i64
  %idx = add nsw i64 %rown, %je
  %pij = getelementptr inbounds double, ptr %a, i64 %idx
  store double 0.0, ptr %pij
  %j.next = add nuw nsw i32 %j, 1
  %cj = icmp slt i32 %j.next, %n
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %i.next = add nuw nsw i32 %i, 1
  %ci = icmp slt i32 %i.next, %n
  br i1 %ci, label %outer, label %exit
exit:
  ret void
}

; a[i*8 + j] with a constant row length: affine in both counters; a pointer
; that is a loop-carried PHI is not affine.
; CHECK-LABEL: leantape-induction: function @const_rows
; CHECK:        gep %pij: %a + 64*{%outer} + 8*{%inner} - 8
; CHECK-NEXT:   gep %q.next: unknown
define void @const_rows(ptr %a, i64 %n) {
entry:
  br label %outer
outer:
  %i = phi i64 [ 0, %entry ], [ %i.next, %outer.latch ]
  %row = mul nsw i64 %i, 8
  br label %inner
inner:
  %j = phi i64 [ 0, %outer ], [ %j.next, %inner ]
  %q = phi ptr [ %a, %outer ], [ %q.next, %inner ]
  %idx = add nsw i64 %row, %j
  %idxm1 = sub nsw i64 %idx, 1
  %pij = getelementptr inbounds double, ptr %a, i64 %idxm1
  %q.next = getelementptr inbounds double, ptr %q, i64 1
  %j.next = add nuw nsw i64 %j, 1
  %cj = icmp slt i64 %j.next, %n
  br i1 %cj, label %inner, label %outer.latch
outer.latch:
  %i.next = add nuw nsw i64 %i, 1
  %ci = icmp slt i64 %i.next, %n
  br i1 %ci, label %outer, label %exit
exit:
  ret void
}
