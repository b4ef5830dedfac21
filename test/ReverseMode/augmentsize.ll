; __enzyme_augmentsize folds to the constant tape size of the augmented
; forward for the same function and activity, which is the size that
; __enzyme_augmentfwd mallocs (ow tapes x[0] and x[1], 16 bytes; sin(x[0]) is
; recomputed from the taped x[0] rather than taped itself).
; An empty tape folds to 0 while augmentfwd still mallocs 1 byte (so that
; the tape pointer is never a malloc(0) result).
; RUN: %ltopt -passes=leantape -S %s | FileCheck %s
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output

; CHECK-NOT: call {{.*}}@__enzyme_augmentsize
define double @ow(ptr %x) {
entry:
  %a = load double, ptr %x
  %p1 = getelementptr inbounds double, ptr %x, i64 1
  %b = load double, ptr %p1
  %s = call double @sin(double %a)
  %m = fmul double %s, %b
  store double %m, ptr %x
  %r = fmul double %a, %m
  ret double %r
}
define double @lin(double %x) {
entry:
  %m = fmul double %x, 3.0
  ret double %m
}
declare double @sin(double)
; CHECK-LABEL: define i64 @size_ow(
; CHECK-NEXT:    ret i64 [[OW:16]]
define i64 @size_ow(ptr %x, ptr %dx) {
  %s = call i64 (ptr, ...) @__enzyme_augmentsize(ptr @ow, metadata !"enzyme_dup", ptr %x, ptr %dx)
  ret i64 %s
}
; CHECK-LABEL: define ptr @aug_ow(
; CHECK-NEXT:    %1 = call ptr @malloc(i64 [[OW]])
; CHECK-NEXT:    call void @ow.lt.aug{{.*}}(ptr %x, ptr %dx, ptr %1)
define ptr @aug_ow(ptr %x, ptr %dx) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @ow, metadata !"enzyme_dup", ptr %x, ptr %dx)
  ret ptr %t
}
; Same function, same activity, queried after the derivative exists: same size.
; CHECK-LABEL: define i64 @size_ow_again(
; CHECK-NEXT:    ret i64 [[OW]]
define i64 @size_ow_again(ptr %x, ptr %dx) {
  %s = call i64 (ptr, ...) @__enzyme_augmentsize(ptr @ow, metadata !"enzyme_dup", ptr %x, ptr %dx)
  ret i64 %s
}
; CHECK-LABEL: define i64 @size_lin(
; CHECK-NEXT:    ret i64 0
define i64 @size_lin(double %x) {
  %s = call i64 (ptr, ...) @__enzyme_augmentsize(ptr @lin, metadata !"enzyme_out", double %x)
  ret i64 %s
}
; CHECK-LABEL: define ptr @aug_lin(
; CHECK-NEXT:    %1 = call ptr @malloc(i64 1)
define ptr @aug_lin(double %x) {
  %t = call ptr (ptr, ...) @__enzyme_augmentfwd(ptr @lin, metadata !"enzyme_out", double %x)
  ret ptr %t
}
declare i64 @__enzyme_augmentsize(ptr, ...)
declare ptr @__enzyme_augmentfwd(ptr, ...)

; The 16 bytes are exactly the two stores of the augmented forward.
; CHECK-LABEL: define internal void @ow.lt.aug{{.*}}(ptr %x, ptr %shadow, ptr %tape)
; CHECK:         store double %a, ptr %{{.*}}
; CHECK:         store double %b, ptr %{{.*}}
; CHECK-NOT:     store double %s
; CHECK-NOT:     store {{.*}}%tape
; CHECK:         ret void
