; Two doubles loaded as one i128 and cut apart where the cut is not at a
; lane boundary (lshr 32): integer arithmetic on the floats' bits, which
; prep/lanes.c cannot turn into float lanes. Nothing says the i128 holds
; doubles but the bitcasts after the shifts and truncations, and the
; derivative was silently 0; it is an error at the load.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: an active floating-point value is reinterpreted as bits and used in integer arithmetic
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

define double @f(ptr %x) {
  %w = load i128, ptr %x, align 8
  %lo = trunc i128 %w to i64
  %a = bitcast i64 %lo to double
  %s = lshr i128 %w, 32
  %hi = trunc i128 %s to i64
  %b = bitcast i64 %hi to double
  %r = fmul double %a, %b
  ret double %r
}

declare void @__enzyme_autodiff(ptr, ...)

define void @g(ptr %x, ptr %dx) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %x, ptr %dx)
  ret void
}
