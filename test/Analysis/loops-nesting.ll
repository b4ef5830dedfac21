; Natural loops, their nesting, preheaders, latches and exits (blocks in RPO).
; RUN: %ltopt -passes='print<leantape-loops>' -disable-output %s 2>&1 | FileCheck %s

; for (i = 0; i < n; i++) for (j = 0; j < n; j++) for (k = 0; k < n; k++) ;
; in while form (tests in the headers).
; CHECK-LABEL: leantape-loops: function @nest3
; CHECK-NEXT:   loop %i.head depth 1 preheader %entry latch %i.latch
; CHECK-NEXT:     blocks %i.head %j.pre %j.head %i.latch %k.pre %k.head %j.latch %k.body
; CHECK-NEXT:     exiting %i.head
; CHECK-NEXT:     exits %exit
; CHECK-NEXT:     loop %j.head depth 2 preheader %j.pre latch %j.latch
; CHECK-NEXT:       blocks %j.head %k.pre %k.head %j.latch %k.body
; CHECK-NEXT:       exiting %j.head
; CHECK-NEXT:       exits %i.latch
; CHECK-NEXT:       loop %k.head depth 3 preheader %k.pre latch %k.body
; CHECK-NEXT:         blocks %k.head %k.body
; CHECK-NEXT:         exiting %k.head
; CHECK-NEXT:         exits %j.latch
define void @nest3(i64 %n) {
entry:
  br label %i.head
i.head:
  %i = phi i64 [ 0, %entry ], [ %i.next, %i.latch ]
  %ci = icmp slt i64 %i, %n
  br i1 %ci, label %j.pre, label %exit
j.pre:
  br label %j.head
j.head:
  %j = phi i64 [ 0, %j.pre ], [ %j.next, %j.latch ]
  %cj = icmp slt i64 %j, %n
  br i1 %cj, label %k.pre, label %i.latch
k.pre:
  br label %k.head
k.head:
  %k = phi i64 [ 0, %k.pre ], [ %k.next, %k.body ]
  %ck = icmp slt i64 %k, %n
  br i1 %ck, label %k.body, label %j.latch
k.body:
  %k.next = add nsw i64 %k, 1
  br label %k.head
j.latch:
  %j.next = add nsw i64 %j, 1
  br label %j.head
i.latch:
  %i.next = add nsw i64 %i, 1
  br label %i.head
exit:
  ret void
}

; Two sibling loops; the second has no preheader (its outside predecessor
; branches elsewhere too) and two latches.
; CHECK-LABEL: leantape-loops: function @siblings
; CHECK-NEXT:   loop %a depth 1 preheader %entry latch %a
; CHECK-NEXT:     blocks %a
; CHECK-NEXT:     exiting %a
; CHECK-NEXT:     exits %mid
; CHECK-NEXT:   loop %b depth 1 preheader none latch none
; CHECK-NEXT:     blocks %b %b.left %b.right
; CHECK-NEXT:     exiting %b
; CHECK-NEXT:     exits %exit
define void @siblings(i1 %c, i1 %d) {
entry:
  br label %a
a:
  br i1 %c, label %a, label %mid
mid:
  br i1 %d, label %b, label %exit
b:
  br i1 %c, label %b.left, label %exit
b.left:
  br i1 %d, label %b, label %b.right
b.right:
  br label %b
exit:
  ret void
}

; A function without loops.
; CHECK-LABEL: leantape-loops: function @straight
; CHECK-NEXT:   no loops
define void @straight() {
entry:
  ret void
}
