; Branch choices in split mode. An if/else on an argument condition needs no
; choice slot (the reverse recomputes the edge from %c); a switch tapes a
; one-byte choice; an if/else on a loaded value tapes the loaded value (needed by
; the derivative anyway) and recomputes the fcmp from it.
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output

; CHECK-LABEL: define ptr @t1(
; CHECK-NEXT:    call ptr @malloc(i64 1)
; CHECK-LABEL: define ptr @t2(
; CHECK-NEXT:    call ptr @malloc(i64 1)
; CHECK-LABEL: define ptr @t3(
; CHECK-NEXT:    call ptr @malloc(i64 8)
; diamond on an argument condition
define double @diamond(double %x, i1 %c) {
entry:
  br i1 %c, label %a, label %b
a:
  %sq = fmul double %x, %x
  br label %j
b:
  %m = fmul double %x, 5.0
  br label %j
j:
  %p = phi double [ %sq, %a ], [ %m, %b ]
  ret double %p
}
; switch with three cases
define double @sw(double %x, i32 %k) {
entry:
  switch i32 %k, label %d [ i32 0, label %c0
                            i32 1, label %c1 ]
c0:
  %a = fmul double %x, %x
  br label %j
c1:
  %b = fmul double %x, 3.0
  br label %j
d:
  %e = call double @sin(double %x)
  br label %j
j:
  %p = phi double [ %a, %c0 ], [ %b, %c1 ], [ %e, %d ]
  ret double %p
}
; if/else on a loaded value
define double @loadcond(ptr %x) {
entry:
  %v = load double, ptr %x
  %c = fcmp ogt double %v, 1.0
  br i1 %c, label %a, label %b
a:
  %sq = fmul double %v, %v
  br label %j
b:
  %m = fmul double %v, 4.0
  br label %j
j:
  %p = phi double [ %sq, %a ], [ %m, %b ]
  ret double %p
}
declare double @sin(double)
define ptr @t1(double %x, i1 %c) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @diamond, metadata !"enzyme_out", double %x, metadata !"enzyme_const", i1 %c)
  ret ptr %t
}
define double @r1(double %x, i1 %c, ptr %t) {
  %g = call double (ptr, ...) @__enzyme_reverse(ptr @diamond, metadata !"enzyme_out", double %x, metadata !"enzyme_const", i1 %c, double 1.0, ptr %t)
  ret double %g
}
define ptr @t2(double %x, i32 %k) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @sw, metadata !"enzyme_out", double %x, metadata !"enzyme_const", i32 %k)
  ret ptr %t
}
define double @r2(double %x, i32 %k, ptr %t) {
  %g = call double (ptr, ...) @__enzyme_reverse(ptr @sw, metadata !"enzyme_out", double %x, metadata !"enzyme_const", i32 %k, double 1.0, ptr %t)
  ret double %g
}
define ptr @t3(ptr %x, ptr %dx) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @loadcond, metadata !"enzyme_dup", ptr %x, ptr %dx)
  ret ptr %t
}
define void @r3(ptr %x, ptr %dx, ptr %t) {
  call void (ptr, ...) @__enzyme_reverse(ptr @loadcond, metadata !"enzyme_dup", ptr %x, ptr %dx, double 1.0, ptr %t)
  ret void
}
declare ptr @__enzyme_augmentfwd(ptr, ...)
declare double @__enzyme_reverse(ptr, ...)

; CHECK-LABEL: define internal void @diamond.lt.aug{{.*}}(double %x, i1 %c, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal double @diamond.lt.rev{{.*}}(double %x, i1 %c, double %0, ptr %tape)
; CHECK-NOT:     load
; CHECK-NOT:     switch
; CHECK:         select i1 %c,
; CHECK:         call void @free(ptr %tape)

; The unused sin of the default case is deleted from the forward half, so
; the switch folds to selects computing the taped one-byte choice.
; CHECK-LABEL: define internal void @sw.lt.aug{{.*}}(double %x, i32 %k, ptr %tape)
; CHECK-NOT:     call
; CHECK:         store i8 %{{.*}}, ptr %tape, align 1
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal double @sw.lt.rev{{.*}}(double %x, i32 %k, double %0, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %lt.tape = load i8, ptr %tape, align 1
; CHECK-NEXT:    switch i8 %lt.tape
; CHECK:         call void @free(ptr {{.*}}%tape)

; CHECK-LABEL: define internal void @loadcond.lt.aug{{.*}}(ptr %x, ptr %shadow, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %v = load double, ptr %x
; CHECK-NEXT:    store double %v, ptr %tape
; CHECK-NEXT:    ret void
; CHECK-LABEL: define internal void @loadcond.lt.rev{{.*}}(ptr %x, ptr %0, double %1, ptr %tape)
; CHECK-NEXT:  entry:
; CHECK-NEXT:    %lt.tape = load double, ptr %tape
; CHECK-NEXT:    %[[C:.*]] = fcmp ogt double %lt.tape, 1.000000e+00
; CHECK-NOT:     switch
; CHECK:         select i1 %[[C]],
; CHECK:         call void @free(ptr {{.*}}%tape)
