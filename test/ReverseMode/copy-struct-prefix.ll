; Copies of a run-time length into part of a struct. memlayout.c took a
; run-time length copy to the start of a struct for whole structs, and the
; helpers were called with bytes / sizeof(struct): a copy of the first n
; doubles of { [4 x double], i64 } moved no adjoint back (dx 0, silently),
; a copy of the pointer field of { ptr, double, ptr } moved no shadow (a
; segfault in the gradient). The helpers now take the bytes, and move the
; fields of a partial last element that lie within them. Eigen's dynamic
; vector with inline storage is copied this way into a product's
; evaluator (fuzz --eigen seed 1140237, -O1..-O3).
; @tagged: the copy's only evidence is its !tbaa "double" (loop idiom's
; memcpy of a loop of double loads and stores), the memory also holding a
; pointer: "may hold both pointers ... and floating-point values" before.
; RUN: %ltopt -passes=leantape -S %s | %opt -passes=verify -disable-output
; RUN: %ltopt -passes=leantape -S %s -o %t.ll && lli %t.ll | FileCheck %s
; CHECK: prefix: dx = 0.25 0.5 0.540302 0
; CHECK: tagged: dx = 0.25 0.5 0.540302 0
; CHECK: ptrprefix: dx = 0 1 1 0
declare double @sin(double)
declare void @llvm.memcpy.p0.p0.i64(ptr, ptr, i64, i1)

%vec = type { [4 x double], i64 }
%eval = type { ptr, i64, [4 x double], i64 }

; g = v0 v1 + sin(v2) of the first three of x, copied by a run-time length
define internal double @use(ptr %v) {
  %v0 = load double, ptr %v, align 8
  %p1 = getelementptr inbounds i8, ptr %v, i64 8
  %v1 = load double, ptr %p1, align 8
  %p2 = getelementptr inbounds i8, ptr %v, i64 16
  %v2 = load double, ptr %p2, align 8
  %m = fmul double %v0, %v1
  %s = call double @sin(double %v2)
  %r = fadd double %m, %s
  ret double %r
}

define double @prefix(ptr %x, i64 %n) {
  %v = alloca %vec, align 16
  %bytes = shl i64 %n, 3
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %v, ptr align 8 %x, i64 %bytes, i1 false)
  %sz = getelementptr inbounds i8, ptr %v, i64 32
  store i64 %n, ptr %sz, align 8
  %r = call double @use(ptr %v)
  ret double %r
}

define double @tagged(ptr %x, i64 %n) {
  %e = alloca %eval, align 16
  %v = alloca %vec, align 16
  %data = getelementptr inbounds i8, ptr %e, i64 16
  store ptr %data, ptr %e, align 8
  %x0 = load double, ptr %x, align 8
  store double %x0, ptr %data, align 8
  %x1p = getelementptr inbounds i8, ptr %x, i64 8
  %x1 = load double, ptr %x1p, align 8
  %d1 = getelementptr inbounds i8, ptr %e, i64 24
  store double %x1, ptr %d1, align 8
  %x2p = getelementptr inbounds i8, ptr %x, i64 16
  %x2 = load double, ptr %x2p, align 8
  %d2 = getelementptr inbounds i8, ptr %e, i64 32
  store double %x2, ptr %d2, align 8
  %k = add i64 %n, -3
  %off = shl i64 %k, 3
  %dst = getelementptr i8, ptr %v, i64 %off
  %src = getelementptr i8, ptr %data, i64 %off
  %bytes = shl i64 %n, 3
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %dst, ptr align 16 %src, i64 %bytes, i1 false), !tbaa !3
  %v0 = load double, ptr %v, align 8
  %p1 = getelementptr inbounds i8, ptr %v, i64 8
  %v1 = load double, ptr %p1, align 8
  %p2 = getelementptr inbounds i8, ptr %v, i64 16
  %v2 = load double, ptr %p2, align 8
  %m = fmul double %v0, %v1
  %s = call double @sin(double %v2)
  %r = fadd double %m, %s
  ret double %r
}

; a pointer to x in the first field of a struct, and a run-time length
; copy of that field alone: its shadow pointer must move (g = x2^2 / 2 + x1)
%pv = type { ptr, double, ptr }
define double @ptrprefix(ptr %x, i64 %n) {
  %a = alloca %pv, align 8
  %b = alloca %pv, align 8
  store ptr %x, ptr %a, align 8
  %bytes = add i64 %n, 5
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %b, ptr align 8 %a, i64 %bytes, i1 false)
  %p = load ptr, ptr %b, align 8
  %q1 = getelementptr inbounds i8, ptr %p, i64 8
  %y1 = load double, ptr %q1, align 8
  %q2 = getelementptr inbounds i8, ptr %p, i64 16
  %y2 = load double, ptr %q2, align 8
  %h = fmul double %y2, 0.5
  %s = fmul double %h, %y2
  %r = fadd double %s, %y1
  ret double %r
}

!0 = !{!"Simple C++ TBAA"}
!1 = !{!"omnipotent char", !0, i64 0}
!2 = !{!"double", !1, i64 0}
!3 = !{!2, !2, i64 0}

declare void @__enzyme_autodiff(...)
declare i32 @printf(ptr, ...)
@fmt = private constant [26 x i8] c"%s: dx = %g %g %g %g\0A\00\00\00\00\00"
@s.prefix = private constant [7 x i8] c"prefix\00"
@s.tagged = private constant [7 x i8] c"tagged\00"
@s.ptrprefix = private constant [10 x i8] c"ptrprefix\00"
@enzyme_const = external global i32

define i32 @main() {
  %x = alloca [4 x double], align 16
  %dx = alloca [4 x double], align 16
  %c = load i32, ptr @enzyme_const
  store [4 x double] [double 0.5, double 0.25, double 1.0, double 2.0], ptr %x
  store [4 x double] zeroinitializer, ptr %dx
  call void (...) @__enzyme_autodiff(ptr @prefix, ptr %x, ptr %dx, i32 %c, i64 3)
  call void @show(ptr @s.prefix, ptr %dx)
  store [4 x double] [double 0.5, double 0.25, double 1.0, double 2.0], ptr %x
  store [4 x double] zeroinitializer, ptr %dx
  call void (...) @__enzyme_autodiff(ptr @tagged, ptr %x, ptr %dx, i32 %c, i64 3)
  call void @show(ptr @s.tagged, ptr %dx)
  store [4 x double] [double 0.5, double 0.25, double 1.0, double 2.0], ptr %x
  store [4 x double] zeroinitializer, ptr %dx
  call void (...) @__enzyme_autodiff(ptr @ptrprefix, ptr %x, ptr %dx, i32 %c, i64 3)
  call void @show(ptr @s.ptrprefix, ptr %dx)
  ret i32 0
}

define void @show(ptr %name, ptr %dx) {
  %d0 = load double, ptr %dx
  %p1 = getelementptr double, ptr %dx, i64 1
  %d1 = load double, ptr %p1
  %p2 = getelementptr double, ptr %dx, i64 2
  %d2 = load double, ptr %p2
  %p3 = getelementptr double, ptr %dx, i64 3
  %d3 = load double, ptr %p3
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %name, double %d0, double %d1, double %d2, double %d3)
  ret void
}
