; A copy of doubles between two blocks of Eigen's aligned malloc: each
; block keeps malloc's own pointer 8 bytes before the 32-aligned data it
; hands out (stored there, and loaded back to free it). The source's
; doubles were stored as a <4 x double> and the destination read back
; through a pointer loaded from the vector object (an alloca that a
; ptrtoint keeps in memory), so the only typed access of either block
; was that pointer load before the data: the copy was taken for a copy of
; pointers, and the adjoints of the doubles were dropped, silently (dx 0;
; fuzz --eigen seed 1122025 at -O3). memlayout.c now counts vectors of
; floats as floats, and no access outside the copied bytes.
; f(x) = tanh(x0) x1: dx = ((1 - tanh(x0)^2) x1, tanh(x0), 0).
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll | FileCheck %s
; CHECK: dx = 0.196612 0.462117 0
declare ptr @malloc(i64)
declare void @free(ptr)
declare double @tanh(double)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

; a 32-aligned block of 32 bytes, malloc's pointer stored just before it
define internal ptr @aligned(ptr %b) {
  %i = ptrtoint ptr %b to i64
  %lo = and i64 %i, -32
  %up = add i64 %lo, 32
  %a = inttoptr i64 %up to ptr
  %h = getelementptr inbounds i8, ptr %a, i64 -8
  store ptr %b, ptr %h, align 8
  ret ptr %a
}

define internal void @release(ptr %a) {
  %h = getelementptr inbounds i8, ptr %a, i64 -8
  %b = load ptr, ptr %h, align 8
  call void @free(ptr %b)
  ret void
}

define double @f(ptr %x) {
  %m = alloca { ptr, i64 }, align 8
  %a0 = call ptr @malloc(i64 64)
  %a = call ptr @aligned(ptr %a0)
  %xv = load <4 x double>, ptr %x, align 1
  store <4 x double> %xv, ptr %a, align 32
  %c0 = call ptr @malloc(i64 64)
  %c = call ptr @aligned(ptr %c0)
  store ptr %c, ptr %m, align 8
  %sz = getelementptr inbounds i8, ptr %m, i64 8
  store i64 4, ptr %sz, align 8
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %c, ptr align 8 %a, i64 32, i1 false)
  %escape = ptrtoint ptr %m to i64
  %p = load ptr, ptr %m, align 8
  %v = load double, ptr %p, align 8
  %t = call double @tanh(double %v)
  %p1 = getelementptr inbounds double, ptr %p, i64 1
  %v1 = load double, ptr %p1, align 8
  %r = fmul double %t, %v1
  call void @release(ptr %a)
  call void @release(ptr %c)
  ret double %r
}

declare void @__enzyme_autodiff(...)
declare i32 @printf(ptr, ...)
@fmt = private constant [15 x i8] c"dx = %g %g %g\0A\00"

define i32 @main() {
  %x = alloca [4 x double], align 16
  %dx = alloca [4 x double], align 16
  store [4 x double] [double 0.5, double 0.25, double 0.0, double 0.0], ptr %x
  store [4 x double] zeroinitializer, ptr %dx
  call void (...) @__enzyme_autodiff(ptr @f, ptr %x, ptr %dx)
  %d0 = load double, ptr %dx
  %p1 = getelementptr double, ptr %dx, i64 1
  %d1 = load double, ptr %p1
  %p2 = getelementptr double, ptr %dx, i64 2
  %d2 = load double, ptr %p2
  call i32 (ptr, ...) @printf(ptr @fmt, double %d0, double %d1, double %d2)
  ret i32 0
}
