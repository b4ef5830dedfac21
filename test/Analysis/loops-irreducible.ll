; Irreducible control flow is reported, not guessed at.
; RUN: %ltopt -passes='print<leantape-loops>' -disable-output %s 2>&1 | FileCheck %s

; Two entries into the cycle {left, right}: neither dominates the other.
; CHECK-LABEL: leantape-loops: function @two_entries
; CHECK-NEXT:   irreducible: edge %right -> %left
; CHECK-NEXT:   no loops
define void @two_entries(i1 %c, i1 %d) {
entry:
  br i1 %c, label %left, label %right
left:
  br i1 %d, label %right, label %exit
right:
  br i1 %d, label %left, label %exit
exit:
  ret void
}

; An irreducible cycle inside a natural loop: the outer loop is still found.
; CHECK-LABEL: leantape-loops: function @inside_loop
; CHECK-NEXT:   irreducible: edge %y -> %x
; CHECK-NEXT:   loop %head depth 1 preheader %entry latch %latch
; CHECK-NEXT:     blocks %head %x %y %latch
; CHECK-NEXT:     exiting %latch
; CHECK-NEXT:     exits %exit
define void @inside_loop(i1 %c, i1 %d) {
entry:
  br label %head
head:
  br i1 %c, label %x, label %y
x:
  br i1 %d, label %y, label %latch
y:
  br i1 %d, label %x, label %latch
latch:
  br i1 %c, label %head, label %exit
exit:
  ret void
}

; A reducible loop is not reported.
; CHECK-LABEL: leantape-loops: function @reducible
; CHECK-NEXT:   loop %l depth 1 preheader %entry latch %l
; CHECK-NOT:    irreducible
define void @reducible(i1 %c) {
entry:
  br label %l
l:
  br i1 %c, label %l, label %exit
exit:
  ret void
}
