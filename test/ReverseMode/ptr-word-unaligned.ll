; A pointer copied through an i64 load of alignment 1 (a memcpy of unknown
; alignment, `memcpy(&w, s, 8)` with a void *s, as -O2 inlines it) from a
; malloc'd cell into another, then read back as a pointer. points.c took an
; integer load less aligned than a pointer for one that cannot hold one,
; so the second cell never got the first's targets or a shadow: the
; gradient was 0, silently (Integration/ptr-copy-through-long-heap.c at
; -O2). Only a word at an offset no pointer can start at carries none now
; (analysis/escape.c lt_ptr_sized_int). f(x) = x0 x1: dx = (5, 3).
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll | FileCheck %s
; CHECK: dx 5 3
declare ptr @malloc(i64)
declare void @free(ptr)
define double @f(ptr %x0) {
  %m1 = call ptr @malloc(i64 8)
  %m2 = call ptr @malloc(i64 8)
  store ptr %x0, ptr %m1, align 8
  %w3 = load i64, ptr %m1, align 1
  store i64 %w3, ptr %m2, align 1
  %p4 = load ptr, ptr %m2, align 8
  %v5 = load double, ptr %p4, align 8
  %g6 = getelementptr inbounds nuw i8, ptr %p4, i64 8
  %v7 = load double, ptr %g6, align 8
  %r8 = fmul double %v5, %v7
  call void @free(ptr %m1)
  call void @free(ptr %m2)
  ret double %r8
}
declare void @__enzyme_autodiff(ptr, ...)
declare i32 @printf(ptr, ...)
@fmt = private constant [10 x i8] c"dx %g %g\0A\00"
define i32 @main() {
  %x = alloca [2 x double], align 16
  %dx = alloca [2 x double], align 16
  store <2 x double> <double 3.0, double 5.0>, ptr %x
  store <2 x double> zeroinitializer, ptr %dx
  call void (ptr, ...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  %g0 = load double, ptr %dx
  %p1 = getelementptr double, ptr %dx, i64 1
  %g1 = load double, ptr %p1
  call i32 (ptr, ...) @printf(ptr @fmt, double %g0, double %g1)
  ret i32 0
}
