; An i64 copy of active memory whose word holds a float next to an i32
; (a struct { float f; int n; } copied as one integer): the bits cannot
; carry the float's derivative, and dropping it would be a silent wrong
; gradient, so it is an error at the copy.
; RUN: not %ltopt -passes=leantape -disable-output %s 2>&1 | FileCheck %s
; CHECK: error: {{.*}}leantape: this integer copy of active memory may hold floating-point bits, but the program also treats the same bits as other data
; CHECK-NOT: PLEASE submit a bug report
; CHECK-NOT: Stack dump
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"

; The address compared in an inlined callee keeps SROA from splitting tmp.
define void @touch(ptr %p) {
  %isnull = icmp eq ptr %p, null
  ret void
}

; f(x, out): out->f = x->f * 2, out->n = x->n, copied as one word
define void @f(ptr %x, ptr %out) {
  %tmp = alloca i64, align 8
  call void @touch(ptr %tmp)
  %xf = load float, ptr %x, align 4
  %y = fmul float %xf, 2.0
  store float %y, ptr %tmp, align 8
  %xn = getelementptr i8, ptr %x, i64 4
  %n = load i32, ptr %xn, align 4
  %tn = getelementptr i8, ptr %tmp, i64 4
  store i32 %n, ptr %tn, align 4
  %w = load i64, ptr %tmp, align 8
  store i64 %w, ptr %out, align 4
  ret void
}

define void @test(ptr %x, ptr %dx, ptr %o, ptr %do) {
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, metadata !"enzyme_dup", ptr %x, ptr %dx, metadata !"enzyme_dup", ptr %o, ptr %do)
  ret void
}

declare void @__enzyme_autodiff(ptr, ...)
