; Loops with several exiting blocks (break) and a shared exit block.
; RUN: %ltopt -passes='print<leantape-loops>' -disable-output %s 2>&1 | FileCheck %s

; for (i = 0; i < n; i++) { if (a[i] < 0) break; }   (rotated, two exits)
; CHECK-LABEL: leantape-loops: function @break_loop
; CHECK-NEXT:   loop %body depth 1 preheader %entry latch %latch
; CHECK-NEXT:     blocks %body %latch
; CHECK-NEXT:     exiting %body %latch
; CHECK-NEXT:     exits %done %found
define i64 @break_loop(ptr %a, i64 %n) {
entry:
  br label %body
body:
  %i = phi i64 [ 0, %entry ], [ %i.next, %latch ]
  %p = getelementptr inbounds double, ptr %a, i64 %i
  %x = load double, ptr %p
  %neg = fcmp olt double %x, 0.0
  br i1 %neg, label %found, label %latch
latch:
  %i.next = add nuw nsw i64 %i, 1
  %c = icmp slt i64 %i.next, %n
  br i1 %c, label %body, label %done
found:
  ret i64 %i
done:
  ret i64 -1
}

; Two exiting blocks that leave to the same exit block; a nested loop whose
; exit is also the outer loop's exit (a return from inside the nest).
; CHECK-LABEL: leantape-loops: function @shared_exit
; CHECK-NEXT:   loop %outer depth 1 preheader %entry latch %outer.latch
; CHECK-NEXT:     blocks %outer %inner %inner.latch %outer.latch
; CHECK-NEXT:     exiting %outer %inner
; CHECK-NEXT:     exits %exit
; CHECK-NEXT:     loop %inner depth 2 preheader none latch %inner.latch
; CHECK-NEXT:       blocks %inner %inner.latch
; CHECK-NEXT:       exiting %inner %inner.latch
; CHECK-NEXT:       exits %exit %outer.latch
define void @shared_exit(i1 %c, i1 %d, i1 %e) {
entry:
  br label %outer
outer:
  br i1 %c, label %inner, label %exit
inner:
  br i1 %d, label %inner.latch, label %exit
inner.latch:
  br i1 %e, label %inner, label %outer.latch
outer.latch:
  br label %outer
exit:
  ret void
}
