; A lane that takes its bytes from two pointers (the low half of x's
; address and the high half of y's, shuffled into one i64 lane) is no
; pointer word: its inttoptr stays "made from an integer", an error at the
; instruction, never a shadow guessed from one of the two.
; (ReverseMode/packed-pointer-words.ll: whole words packed the same way.)
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: this pointer may address active memory, but its shadow cannot be formed (it is made from an integer)
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define double @f(ptr %x, ptr %y) {
  %px = ptrtoint ptr %x to i64
  %vx = bitcast i64 %px to <4 x i16>
  %py = ptrtoint ptr %y to i64
  %vy = bitcast i64 %py to <4 x i16>
  %m = shufflevector <4 x i16> %vx, <4 x i16> %vy, <4 x i32> <i32 0, i32 1, i32 6, i32 7>
  %w = bitcast <4 x i16> %m to <1 x i64>
  %e = extractelement <1 x i64> %w, i64 0
  %q = inttoptr i64 %e to ptr
  %v = load double, ptr %q, align 8
  %r = fmul double %v, %v
  ret double %r
}

declare double @__enzyme_autodiff(ptr, ...)

define void @g(ptr %x, ptr %dx, ptr %y, ptr %dy) {
  %r = call double (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_dup", ptr %y, ptr %dy)
  ret void
}
